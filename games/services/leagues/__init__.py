"""Leagues: fixtures, rounds, results, standings, ratings, divisions and club-night results.

``fixtures``, ``standings`` (its ranking half) and the balance statistics are pure functions
over plain data, so the rules of fairness and ranking are tested without a database; the
other modules wrap them in transactions.
"""
