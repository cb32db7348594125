"""Helpers for the league tests (plain functions; the fixtures are in conftest.py)."""

from __future__ import annotations

from datetime import date, timedelta

from django.utils import timezone

from games.models import Game, League, Membership, Ruleset


def league_join_all(league: League, players) -> None:
    Membership.objects.bulk_create(
        [Membership(league=league, player=p, status=Membership.Status.ACTIVE) for p in players]
    )


def game_finish(game: Game, places, scores=None, *, dropped=(), at=None) -> Game:
    """Finish a started game as if its last move just ended it: places (and scores) per seat
    position; ``dropped`` lists positions handed to a bot. (The engines' own playouts are
    tested elsewhere; league tests need chosen results.)"""
    scores = scores or [10 * (len(places) - p) for p in places]
    seats = list(game.seats.order_by("position"))
    for seat in seats:
        seat.place = places[seat.position]
        seat.score = scores[seat.position]
        seat.replaced_by_bot = seat.position in dropped
        seat.save(update_fields=["place", "score", "replaced_by_bot"])
    game.status = Game.Status.FINISHED
    game.finished_at = at or timezone.now()
    game.deadline = None
    game.save(update_fields=["status", "finished_at", "deadline"])
    return game


SEASON_START = date(2026, 1, 5)
ROUND_GAP = timedelta(days=7)


def game_between(ruleset: Ruleset, players, *, bots=None) -> Game:
    """A started game with these members seated in order (and bots at ``bots`` positions)."""
    from games.services import play

    creator = players[0].user
    game = play.game_create(
        creator=creator,
        ruleset=ruleset,
        seats=len(players) + len(bots or {}),
        turn_time_limit=timedelta(hours=24),
        bot_seats=bots,
        seat_players=list(players),
    )
    return play.game_start(game_id=game.pk, user=creator)
