"""One move applied to a game row and saved: the core every way of moving shares.

A member's move (games/services/play.py), a bot's (:func:`bot_move_play`), the clock's timeout
(games/services/clocks/timeouts.py) and a Colt Express standing order
(games/services/standing_orders.py) all come through :func:`move_play_for_seat`. Inside one
``transaction.atomic`` it locks the row (``select_for_update``, PostgreSQL) *and* guards the
save by the version the move was computed from (``filter(pk=…, version=v).update(…)`` with a
row count check, because SQLite ignores the lock), saves the event, and then runs the
after-move pipeline in the same transaction. The two writes are the ORM's own, the same on
every database: the guarded ``update()`` sends no model signals, the event's ``save()`` sends
``pre_save``/``post_save``.

The pipeline (clock, standing orders, results, push, broadcast, bots) is the play service's:
it sits above the clocks and standing orders it calls, so it cannot be imported from here —
those services make moves through this module and would import themselves back. Instead
``games.services.play`` installs it (:func:`after_move_install`) when it is imported, which
the app does at start (``GamesConfig.ready``); a move without it refuses to save rather than
skip what a move owes.
"""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engines import IllegalAction, get_engine
from games.models import Game, GameEvent
from games.selectors.kept_log import kept_events_after_move
from games.selectors.tables import (
    game_kept_events,
    game_locked_for_move,
    game_state_remember,
)
from games.text.parsing import strict_int
from games.text.wording import error_text

from .followups import auto_move_due, auto_move_settled

logger = logging.getLogger(__name__)

# A submitted action is a small JSON object; anything bigger is not a move.
MAX_ACTION_BYTES = 2000

# The after-move pipeline: called inside the move's transaction as
# ``after_move(game=…, seat=…, seats=…, engine=…, state=…, by_member=…)``; it answers whether
# it queued something that may make another move right after commit (a bot, an order).
AfterMove = Callable[..., bool]
_after_move: AfterMove | None = None


def after_move_install(pipeline: AfterMove) -> None:
    """The play service hands over what follows every applied move (games/services/play.py)."""
    global _after_move
    _after_move = pipeline


@dataclass
class MoveResult:
    """What became of a submitted move. ``game`` is the current game either way; after an
    applied move it is the game as saved, with its seats loaded (``game.seats.all()``)."""

    ok: bool
    message: str
    game: Game | None
    events: list[dict[str, Any]] = field(default_factory=list)
    # Something queued on commit (a bot, a standing order) may have moved the game on since:
    # whoever draws ``game`` asks first (``selectors.game_unchanged``). False: nothing but
    # another member could, and none is to move at the same time (turns are one seat's).
    may_move_on: bool = False

    @property
    def version(self) -> int | None:
        return self.game.version if self.game is not None else None


def _parse_action(action: Any) -> dict[str, Any]:
    """The action as a dict: accepts a dict or its JSON text; anything else is refused."""
    if isinstance(action, str | bytes):
        if len(action) > MAX_ACTION_BYTES:
            raise IllegalAction(_("That action is too large to be a move."))
        try:
            action = json.loads(action)
        except ValueError:
            raise IllegalAction(_("That action is not valid JSON.")) from None
    if not isinstance(action, dict):
        raise IllegalAction(_("An action must be an object."))
    if len(json.dumps(action)) > MAX_ACTION_BYTES:
        raise IllegalAction(_("That action is too large to be a move."))
    # The label is for people; the engine and the log keep only what the move means.
    return {key: value for key, value in action.items() if key != "label"}


def move_play_for_seat(
    *,
    game_id: int,
    position: int | None,
    action: Any,
    expected_version: Any,
    user: AbstractBaseUser | None = None,
    by_clock: bool = False,
) -> MoveResult:
    """Apply one action for a seat: the member's own (``user``), or a bot's or the clock's
    (``position``). Never raises for a bad move: the result says what happened."""
    try:
        with transaction.atomic():
            return _move_play(
                game_id=game_id,
                position=position,
                action=action,
                expected_version=expected_version,
                user=user,
                by_clock=by_clock,
            )
    except _MoveRefused as refused:
        game = Game.objects.filter(pk=game_id).first()
        return MoveResult(ok=False, message=refused.message, game=game)


class _MoveRefused(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def _move_play(
    *,
    game_id: int,
    position: int | None,
    action: Any,
    expected_version: Any,
    user: AbstractBaseUser | None,
    by_clock: bool,
) -> MoveResult:
    game = game_locked_for_move(game_id)
    if game is None:
        raise _MoveRefused(_("There is no such table."))
    expected_version = strict_int(expected_version, minimum=0)
    if expected_version is None:
        raise _MoveRefused(_("The move did not say which version of the game it was made on."))
    if game.status != Game.Status.RUNNING:
        raise _MoveRefused(_("This game is not running."))
    if expected_version != game.version:
        raise _MoveRefused(
            _("The game moved on since your page was drawn; here is the table as it is now.")
        )
    # Read with the game and kept on it: the move's answer is drawn from this game.
    seats = list(game.seats.all())
    if user is not None:
        mine = [s for s in seats if s.player is not None and s.player.user_id == user.pk]
        if not mine:
            raise _MoveRefused(_("You have no seat at this table."))
        seat = mine[0]
        if seat.is_bot:
            # Handed to a bot (timeouts or a moderator): the member's seat is the bot's now.
            raise _MoveRefused(_("A bot plays this seat now."))
    else:
        seat = next((s for s in seats if s.position == position), None)
        if seat is None:
            raise _MoveRefused(_("There is no such seat."))
    if seat.position not in game.to_move:
        raise _MoveRefused(_("It is not your turn."))

    engine = get_engine(game.kind)
    try:
        action = _parse_action(action)
        # The row was just read for this move alone, and apply() never changes a state.
        state = engine.from_stored(game.state)
        new_state, events = engine.apply(state, seat.position, action)
    except IllegalAction as illegal:
        raise _MoveRefused(error_text(illegal)) from None
    except Exception:
        # An engine should answer IllegalAction; if malformed input trips it up instead, the
        # member still gets an answer (and nothing changes), and the log gets the bug.
        logger.exception("game %s: engine failed on a submitted action", game.pk)
        raise _MoveRefused(_("That action could not be applied.")) from None

    now = timezone.now()
    over = engine.is_over(new_state)
    to_move = [] if over else engine.to_move(new_state)
    version = game.version + 1
    # apply()'s new state is this move's alone: written as it is, then only read.
    state_json = engine.to_stored(new_state)
    changes: dict[str, Any] = {
        "state": state_json,
        "version": version,
        "to_move": to_move,
        "deadline": now + game.turn_time_limit if to_move else None,
        # What the next decision owes, kept in the row (games/services/followups.py).
        "auto_move_due_at": auto_move_due(game, seats, to_move, state_json, now=now),
    }
    if over:
        changes.update(status=Game.Status.FINISHED, finished_at=now, results_due_at=now)
    logged = GameEvent(
        game=game,
        seq=version,
        seat=seat.position,
        action=action,
        public_events=[e for e in events if "private_to" not in e],
        # "at": where the event stood among all of them, so the log can put it back there.
        private_events=[{**e, "at": i} for i, e in enumerate(events) if "private_to" in e],
        by_clock=by_clock,
        created_at=now,
    )
    # The log's last lines ride on the row (games/selectors/kept_log.py): pages read them with the
    # game.
    changes["recent_events"] = kept_events_after_move(game_kept_events(game), logged)
    # Compare-and-set: the row only if it is still at the version this move was computed
    # from. Another writer can have saved first only where the row lock is not real (SQLite).
    if not Game.objects.filter(pk=game.pk, version=game.version).update(**changes):
        raise _MoveRefused(
            _("The game moved on since your page was drawn; here is the table as it is now.")
        )
    logged.save(force_insert=True)
    for name, value in changes.items():
        setattr(game, name, value)
    # The answer to the move is drawn from this game: its state is already parsed.
    game_state_remember(game, new_state)
    if _after_move is None:
        # Saving without the pipeline would leave the next clock, the bots and the pages
        # behind; the app installs it at start (GamesConfig.ready).
        raise RuntimeError("the after-move pipeline (games.services.play) is not installed")
    by_member = user is not None
    may_move_on = _after_move(
        game=game, seat=seat, seats=seats, engine=engine, state=new_state, by_member=by_member
    )
    return MoveResult(ok=True, message="", game=game, events=events, may_move_on=may_move_on)


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
