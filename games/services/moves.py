"""One move applied to a game row and saved: the core every way of moving shares.

:func:`move_apply` checks the move, asks the engine and saves the row and its event, inside
the caller's transaction, and answers what happened (:class:`AppliedMove`). It calls
nothing after: what every move owes next (results, the turn clock, standing orders, the
push, the broadcast, the bot) is the play service's pipeline, which sits above the clocks and
standing orders it calls. So the one function that makes a move,
``games.services.play.move_play_for_seat``, calls this core and then ``play.after_move`` in
the same transaction, in plain sight (docs/decisions/0014-move-pipeline-called-explicitly.md);
the bot, the timeout and the standing order all go through it.

It locks the row (``select_for_update``, PostgreSQL) *and* guards the save by the version the
move was computed from (``filter(pk=…, version=v).update(…)`` with a row count check, because
SQLite ignores the lock), then saves the event. The two writes are the ORM's own, the same on
every database: the guarded ``update()`` sends no model signals, the event's ``save()`` sends
``pre_save``/``post_save``.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engines import IllegalAction, get_engine
from games.models import Game, GameEvent, Seat
from games.selectors.log_copy import recent_events_after_move
from games.selectors.tables import (
    game_locked_for_move,
    game_log_copy,
    game_seats,
    game_state_remember,
)
from games.text.parsing import strict_int
from games.text.wording import error_text

from .followups import auto_move_due

logger = logging.getLogger(__name__)

# A submitted action is a small JSON object; anything bigger is not a move.
MAX_ACTION_BYTES = 2000


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


@dataclass
class AppliedMove:
    """A move the core applied and saved: what the pipeline that follows it reads. ``game`` is
    the game as saved, its parsed ``state`` remembered on it; ``seats`` its seats, read with it;
    ``by_member``: a member's own move (not a bot's, the clock's or a standing order's)."""

    game: Game
    seat: Seat
    seats: list[Seat]
    engine: Any
    state: Any
    events: list[dict[str, Any]]
    by_member: bool


class MoveRefused(Exception):
    """The move is not applied; ``message`` says why, for people."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def move_refused_result(game_id: int, refused: MoveRefused) -> MoveResult:
    """The answer to a refused move: its message and the game as it is now."""
    game = Game.objects.filter(pk=game_id).first()
    return MoveResult(ok=False, message=refused.message, game=game)


def move_apply(
    *,
    game_id: int,
    position: int | None,
    action: Any,
    expected_version: Any,
    user: AbstractBaseUser | None = None,
    by_clock: bool = False,
) -> AppliedMove:
    """Apply one action for a seat, inside the caller's transaction: the member's own
    (``user``), or a bot's, the clock's or a standing order's (``position``). Raises
    :class:`MoveRefused` for a move that is not applied; nothing is written then."""
    game = game_locked_for_move(game_id)
    if game is None:
        raise MoveRefused(_("There is no such table."))
    expected_version = strict_int(expected_version, minimum=0)
    if expected_version is None:
        raise MoveRefused(_("The move did not say which version of the game it was made on."))
    if game.status != Game.Status.RUNNING:
        raise MoveRefused(_("This game is not running."))
    if expected_version != game.version:
        raise MoveRefused(
            _("The game moved on since your page was drawn; here is the table as it is now.")
        )
    # Read with the game and kept on it: the move's answer is rendered from this game.
    seats = game_seats(game)
    if user is not None:
        mine = [s for s in seats if s.player is not None and s.player.user_id == user.pk]
        if not mine:
            raise MoveRefused(_("You have no seat at this table."))
        seat = mine[0]
        if seat.is_bot:
            # Handed to a bot (timeouts or a moderator): the member's seat is the bot's now.
            raise MoveRefused(_("A bot plays this seat now."))
    else:
        seat = next((s for s in seats if s.position == position), None)
        if seat is None:
            raise MoveRefused(_("There is no such seat."))
    if seat.position not in game.to_move:
        raise MoveRefused(_("It is not your turn."))

    engine = get_engine(game.kind)
    try:
        action = _parse_action(action)
        # The row was just read for this move alone, and apply() never changes a state.
        state = engine.from_stored(game.state)
        new_state, events = engine.apply(state, seat.position, action)
    except IllegalAction as illegal:
        raise MoveRefused(error_text(illegal)) from None
    except Exception:
        # An engine should answer IllegalAction; if malformed input trips it up instead, the
        # member still gets an answer (and nothing changes), and the log gets the bug.
        logger.exception("game %s: engine failed on a submitted action", game.pk)
        raise MoveRefused(_("That action could not be applied.")) from None

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
    # The log's last lines ride on the row (games/selectors/log_copy.py): pages read them with the
    # game.
    changes["recent_events"] = recent_events_after_move(game_log_copy(game), logged)
    # Compare-and-set: the row only if it is still at the version this move was computed
    # from. Another writer can have saved first only where the row lock is not real (SQLite).
    if not Game.objects.filter(pk=game.pk, version=game.version).update(**changes):
        raise MoveRefused(
            _("The game moved on since your page was drawn; here is the table as it is now.")
        )
    logged.save(force_insert=True)
    for name, value in changes.items():
        setattr(game, name, value)
    # The answer to the move is rendered from this game: its state is already parsed.
    game_state_remember(game, new_state)
    return AppliedMove(
        game=game,
        seat=seat,
        seats=seats,
        engine=engine,
        state=new_state,
        events=events,
        by_member=user is not None,
    )
