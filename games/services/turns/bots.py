"""The bot's move, and the move a game owes at a version (the followups sweep's task): both
made through the play service's ``move_play_for_seat``, so the pipeline runs after them as
after a member's move. The play service queues them by name after commit
(``games.bot_move_play``, ``games.auto_move_play``); games/tasks.py runs them here.
"""

from __future__ import annotations

import logging
import random

from games.engines import get_engine
from games.models import Game, Seat

from ..followups import auto_move_settled
from ..play import MoveResult, move_play_for_seat, standing_orders_apply

logger = logging.getLogger(__name__)


def bot_move_play(game_id: int, version: int) -> MoveResult | None:
    """The bot to move plays, if the game is still at ``version`` (a duplicated or late task
    finds it moved on and does nothing)."""
    game = Game.objects.filter(pk=game_id, version=version, status=Game.Status.RUNNING).first()
    if game is None:
        return None
    bots = {seat.position: seat.bot_kind for seat in game.seats.exclude(bot_kind="")}
    position = next((p for p in game.to_move if p in bots), None)
    if position is None:
        # A member took the seat back (a substitute): no move is owed by a bot any more.
        auto_move_settled(game_id, version)
        return None
    engine = get_engine(game.kind)
    bot = engine.bots.get(bots[position])
    if bot is None:
        logger.error("game %s: seat %s has unknown bot %r", game_id, position, bots[position])
        auto_move_settled(game_id, version)
        return None
    state = engine.from_stored(game.state)
    # The bot's own RNG, fixed by game, seat and version so a retried task picks the same move.
    rng = random.Random(f"{game.seed}:bot:{position}:{version}")  # noqa: S311
    action = bot(engine, state, position, rng)
    result = move_play_for_seat(
        game_id=game_id, position=position, action=action, expected_version=version
    )
    if not result.ok:
        logger.warning(
            "game %s: bot move at version %s refused: %s", game_id, version, result.message
        )
        # The same version gives the same move: asking again would loop. The turn clock's
        # deadline stays as the backstop.
        auto_move_settled(game_id, version)
    return result


def auto_move_play(game_id: int, version: int) -> None:
    """The followups sweep's task (games/services/followups.py): make the move the game owes
    at ``version``, if it still does — the bot's, or a standing order's answer."""
    game = Game.objects.filter(pk=game_id, version=version, status=Game.Status.RUNNING).first()
    if game is None:
        return
    bot_to_move = Seat.objects.filter(
        game=game, position__in=game.to_move or [], bot_kind__gt=""
    ).exists()
    if bot_to_move:
        bot_move_play(game_id, version)
    else:
        standing_orders_apply(game_id)
