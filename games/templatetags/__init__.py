"""Template tags and filters, one library per area (``{% load board_labels %}`` and the like):
the boards' labels, dates and durations, seats, bots, the clock panel, leagues, push and the
layout's chrome. They sit above the reports and services they ask, and below ``games.table``,
whose status line and boards use the board labels.
"""
