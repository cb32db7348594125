"""The clock's timeout, as a move: at the deadline the game's own timeout policy
(``engine.timeout_action``: Napad passes, or plays its lowest card where passing is not
allowed; Colt Express draws in Schemin' and takes a choice's first option in Stealin') is
played through the play service's ``move_play_for_seat`` — the move core, then the after-move
pipeline — like any move, marked ``by_clock``.

Exactly once: the move is guarded by the game version it was computed from (the move core's
conditional UPDATE), and the timeout counters (games/services/clocks/timeouts.py) are written
in the same transaction as the move, so a second sweep finds the game moved on and does
nothing. A worker that dies before committing leaves the deadline expired for the next sweep.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games.engines import get_engine
from games.models import Game

from ..clocks.deadlines import clock_for, deadline_effective, decision_seat, turn_clock_refresh
from ..clocks.timeouts import seat_timeout_record, timeouts_expired
from ..play import move_play_for_seat
from .bots import bot_move_play

logger = logging.getLogger(__name__)


def turn_timeout_apply(game_id: int, version: int, deadline: datetime, now: datetime) -> str:
    """Play the timeout of one expired decision (if nobody did it first)."""
    game = Game.objects.filter(
        pk=game_id, version=version, deadline=deadline, status=Game.Status.RUNNING
    ).first()
    if game is None:
        return "taken"
    seat = decision_seat(game)
    if seat is None:
        Game.objects.filter(pk=game_id, version=version).update(deadline=None)
        return "nobody"
    if seat.is_bot:
        # The bot's queued move got lost (a worker died with it): the bot plays now.
        bot_move_play(game_id, version)
        return "bot"
    effective = deadline_effective(game, clock_for(game), seat.player)
    if effective > now:
        # Leave (or a "+24 h") the deadline did not know of yet: the clock pauses instead.
        turn_clock_refresh(game)
        return "paused"
    engine = get_engine(game.kind)
    action = engine.timeout_action(engine.from_json(game.state), seat.position)
    with transaction.atomic():
        result = move_play_for_seat(
            game_id=game_id,
            position=seat.position,
            action=action,
            expected_version=version,
            by_clock=True,
        )
        if not result.ok:
            return "taken"
        seat_timeout_record(result.game, seat.position)
    return "timeout"


def turn_timeout_due_apply(game_id: int, version: int, deadline: str) -> str:
    """The task a fanned-out sweep queues: one expired decision (``deadline`` in ISO 8601)."""
    return turn_timeout_apply(game_id, version, datetime.fromisoformat(deadline), timezone.now())


def timeouts_expired_apply(now: datetime, *, batch: int = 500) -> dict[str, int]:
    """Every expired deadline, found through the ``Game.deadline`` index."""
    outcomes: dict[str, int] = {}
    for game_id, version, deadline in timeouts_expired(now, batch=batch):
        try:
            outcome = turn_timeout_apply(game_id, version, deadline, now)
        except Exception:
            logger.exception("timeout of game %s failed", game_id)
            outcome = "failed"
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    return outcomes
