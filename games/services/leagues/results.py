"""Counting results exactly once: the ledger behind standings and ratings.

When a game finishes, the play service marks its results owed (``Game.results_due_at``, in
the finishing move's transaction) and queues :func:`game_results_record` on commit; if that
message is lost, the followups sweep (games/services/followups.py) queues it again. It inserts
the game's :class:`~games.models.ResultRecord` (unique per source) and, in the same
transaction, copies the result onto the league fixture, adds it to the season's standings,
rates it and clears the mark. A second run of the task (a retry, a duplicate delivery, a
recompute racing it) fails to insert the row and changes nothing.
"""

from __future__ import annotations

import logging

from django.db import IntegrityError, transaction

from games.models import Fixture, FixtureSeat, Game, ResultRecord, Round
from games.selectors.tables import game_seats

from .ratings import ratings_record_apply
from .standings import standings_fixture_apply

logger = logging.getLogger(__name__)


def _record_insert(**fields) -> ResultRecord | None:
    try:
        with transaction.atomic():
            return ResultRecord.objects.create(**fields)
    except IntegrityError:
        return None


def fixture_sync_from_game(fixture: Fixture, game: Game) -> None:
    """Copy a finished game's places, scores, identities and bot hand-overs to its fixture."""
    seats = {seat.position: seat for seat in game_seats(game)}
    rows = list(fixture.seats.all())
    for row in rows:
        seat = seats.get(row.position)
        if seat is None:
            continue
        row.place = seat.place
        row.score = seat.score
        row.identity = seat.identity or row.identity
        row.dropped = seat.replaced_by_bot
    FixtureSeat.objects.bulk_update(rows, ["place", "score", "identity", "dropped"])
    fixture.status = Fixture.Status.FINISHED
    fixture.played_at = game.finished_at
    fixture.save(update_fields=["status", "played_at"])


def _round_close_if_played(round_id: int | None) -> None:
    """A round whose every table has finished is closed without waiting for its deadline."""
    if round_id is None:
        return
    if not Fixture.objects.filter(round_id=round_id, status=Fixture.Status.PLAYING).exists():
        Round.objects.filter(pk=round_id, status=Round.Status.OPEN).update(
            status=Round.Status.CLOSED
        )


def game_results_record(game_id: int) -> bool:
    """Count a finished game once: league standings (if it is a fixture) and ratings.

    Returns ``True`` when this call counted it, ``False`` when it was already counted or the
    game is not finished.
    """
    game = Game.objects.filter(pk=game_id, status=Game.Status.FINISHED).first()
    if game is None or game.finished_at is None:
        Game.objects.filter(pk=game_id).update(results_due_at=None)
        return False
    with transaction.atomic():
        # Counted here or already: either way nothing is owed once this commits.
        Game.objects.filter(pk=game.pk).update(results_due_at=None)
        record = _record_insert(
            kind=game.kind, source=f"game:{game.pk}", game=game, finished_at=game.finished_at
        )
        if record is None:
            return False
        fixture = Fixture.objects.filter(game=game).select_related("season__league").first()
        if fixture is not None and fixture.status != Fixture.Status.VOID:
            fixture_sync_from_game(fixture, game)
            standings_fixture_apply(fixture)
            _round_close_if_played(fixture.round_id)
        ratings_record_apply(record)
    logger.info("game %s: results recorded", game_id)
    return True


def fixture_results_record(fixture: Fixture) -> bool:
    """Count a confirmed club-night fixture once (standings and ratings)."""
    with transaction.atomic():
        record = _record_insert(
            kind=fixture.season.league.kind,
            source=f"fixture:{fixture.pk}",
            fixture=fixture,
            finished_at=fixture.played_at,
        )
        if record is None:
            return False
        standings_fixture_apply(fixture)
        ratings_record_apply(record)
    return True


def unrecorded_games_record() -> int:
    """Record every finished game the ledger is missing (a lost task, a restored backup)."""
    missing = Game.objects.filter(
        status=Game.Status.FINISHED, finished_at__isnull=False, result_record__isnull=True
    ).values_list("pk", flat=True)
    return sum(game_results_record(pk) for pk in missing)
