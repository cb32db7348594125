"""Tables and moves: create, join, leave, start, cancel, and one move end to end.

Every write to a game happens here, inside ``transaction.atomic``: the game row is locked with
``select_for_update`` (PostgreSQL) *and* each save is guarded by the version the move was
computed from (``filter(pk=…, version=v).update(…)`` with a row count check), because SQLite
ignores ``select_for_update``. Broadcasts and bot moves are scheduled with
``transaction.on_commit`` so nobody reads a state that was rolled back.
"""

from __future__ import annotations

import hashlib
import json
import logging
import random
import secrets
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.bots import bot_kind_for
from games.broadcast import game_updated_on_commit
from games.engines import ConfigError, IllegalAction, get_engine
from games.models import ChatMessage, Game, GameEvent, Invitation, Player, Ruleset, Seat
from games.parsing import strict_int
from games.selectors import game_seats_attach, game_state_remember, player_of
from games.services.clocks import turn_clock_after_move, turn_clock_start
from games.services.followups import auto_move_due, auto_move_settled
from games.services.push.outbox import turn_push_owe
from games.services.queueing import bot_move_queue_on_commit, task_queue_on_commit
from games.wording import error_text, say

logger = logging.getLogger(__name__)

# A submitted action is a small JSON object; anything bigger is not a move.
MAX_ACTION_BYTES = 2000
MAX_TURN_TIME_LIMIT = timedelta(days=14)
MIN_TURN_TIME_LIMIT = timedelta(minutes=1)


class PlayError(Exception):
    """The club's rules refuse a request. ``message`` is for people; ``field`` names the form
    field it belongs to (``None``: the whole request); ``problems`` maps fields to messages
    when there are several."""

    def __init__(self, message: str, *, field: str | None = None, problems=None):
        super().__init__(message)
        self.message = message
        self.field = field
        self.problems: dict[str | None, list[str]] = problems or {field: [message]}


@dataclass
class MoveResult:
    """What became of a submitted move. ``game`` is the current game either way; after an
    applied move it is the game as saved, with its seats loaded (``game.seats.all()``)."""

    ok: bool
    message: str
    game: Game | None
    events: list[dict[str, Any]] = field(default_factory=list)

    @property
    def version(self) -> int | None:
        return self.game.version if self.game is not None else None


def seed_hash(seed: str) -> str:
    return hashlib.sha256(seed.encode()).hexdigest()


def player_for(user: AbstractBaseUser) -> Player:
    """The member's profile; a user without one (a bare superuser) cannot sit at a table."""
    if not user.is_authenticated:
        raise PlayError(_("Log in to play."))
    player = player_of(user)
    if player is None:
        raise PlayError(_("Your account has no player profile yet."))
    return player


def _locked_game(game_id: int) -> Game:
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except Game.DoesNotExist:
        raise PlayError(_("There is no such table.")) from None


# -- tables -----------------------------------------------------------------------------------


def game_create(
    *,
    creator: AbstractBaseUser,
    ruleset: Ruleset,
    seats: int,
    options: dict[str, Any] | None = None,
    turn_time_limit: timedelta,
    bot_seats: dict[int, str] | None = None,
    invite_only: bool = False,
    invitees: list[Player] | None = None,
    seat_players: list[Player] | None = None,
) -> Game:
    """Open a table. The creator takes the first seat that is not a bot's.

    ``seat_players`` (a league fixture, games/services/leagues/rounds.py) seats exactly these
    members in this order instead; the creator then sits only if listed.

    ``bot_seats`` maps seat positions to bot kinds (``engine.bots``) or levels (``"hard"``,
    stored as the level's bot, ``games.bots``); ``options`` are the engine's table options
    folded into the ruleset's config.
    """
    player = player_for(creator)
    options = dict(options or {})
    invitees = list(invitees or [])
    if not ruleset.is_published:
        raise PlayError(_("Only a published ruleset can be played."), field="ruleset")
    engine = get_engine(ruleset.kind)
    bot_seats = {
        position: bot_kind_for(engine, bot) or bot for position, bot in (bot_seats or {}).items()
    }
    problems: dict[str | None, list[str]] = {}
    if not engine.min_players <= seats <= engine.max_players:
        problems.setdefault("seats", []).append(
            _("%(game)s takes %(low)s to %(high)s players.")
            % {"game": engine.name, "low": engine.min_players, "high": engine.max_players}
        )
    if not MIN_TURN_TIME_LIMIT <= turn_time_limit <= MAX_TURN_TIME_LIMIT:
        problems.setdefault("turn_time_limit", []).append(
            _("A turn may last from one minute to fourteen days.")
        )
    for position, bot_kind in bot_seats.items():
        if not 0 <= position < seats:
            problems.setdefault("bot_seats", []).append(
                _("Seat %(seat)s is not at this table.") % {"seat": position + 1}
            )
        if bot_kind not in engine.bots:
            problems.setdefault("bot_seats", []).append(
                _("“%(bot)s” is not a bot of this game.") % {"bot": bot_kind}
            )
    if len([p for p in bot_seats if 0 <= p < seats]) >= seats:
        problems.setdefault("bot_seats", []).append(_("Leave at least one seat for a member."))
    try:
        config = engine.apply_options(ruleset.config, options)
    except ConfigError as error:
        for path, message in error.phrases:
            problems.setdefault("options", []).append(f"{path}: {say(message)}")
        config = None
    if problems:
        first_field, first_messages = next(iter(problems.items()))
        raise PlayError(first_messages[0], field=first_field, problems=problems)

    with transaction.atomic():
        game = Game.objects.create(
            ruleset=ruleset,
            kind=ruleset.kind,
            config=config,
            options=options,
            seats_count=seats,
            invite_only=invite_only,
            created_by=creator,
            turn_time_limit=turn_time_limit,
        )
        rows = [
            Seat(game=game, position=position, bot_kind=bot_kind)
            for position, bot_kind in sorted(bot_seats.items())
        ]
        if seat_players is not None:
            # League fixtures: the scheduler chose who sits where (the first seat moves first).
            free = [p for p in range(seats) if p not in bot_seats]
            rows += [Seat(game=game, position=p, player=m) for p, m in zip(free, seat_players)]
        else:
            creator_position = next(p for p in range(seats) if p not in bot_seats)
            rows.append(Seat(game=game, position=creator_position, player=player))
        Seat.objects.bulk_create(rows)
        Invitation.objects.bulk_create(
            [Invitation(game=game, player=invitee) for invitee in invitees if invitee != player],
            ignore_conflicts=True,
        )
        game_updated_on_commit(game.pk, game.version)
    return game


def game_may_join(game: Game, player: Player, *, invited: bool) -> bool:
    return not game.invite_only or invited or game.created_by_id == player.user_id


def seat_join(*, game_id: int, user: AbstractBaseUser) -> Seat:
    player = player_for(user)
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.status != Game.Status.OPEN:
            raise PlayError(_("This table is no longer open."))
        invited = Invitation.objects.filter(game=game, player=player).exists()
        if not game_may_join(game, player, invited=invited):
            raise PlayError(_("This table is by invitation only."))
        taken = {seat.position: seat for seat in game.seats.all()}
        if any(seat.player_id == player.pk for seat in taken.values()):
            raise PlayError(_("You already have a seat at this table."))
        free = [position for position in range(game.seats_count) if position not in taken]
        if not free:
            raise PlayError(_("This table is full."))
        try:
            # The unique (game, position) constraint settles two members racing for one seat.
            with transaction.atomic():
                seat = Seat.objects.create(game=game, position=free[0], player=player)
        except IntegrityError:
            raise PlayError(_("Someone took that seat first; try again.")) from None
        game_updated_on_commit(game.pk, game.version)
    return seat


def seat_leave(*, game_id: int, user: AbstractBaseUser) -> None:
    player = player_for(user)
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.status != Game.Status.OPEN:
            raise PlayError(_("You can leave a table only before it starts."))
        if game.created_by_id == user.pk:
            raise PlayError(_("You opened this table: cancel it instead of leaving."))
        deleted, _rows = Seat.objects.filter(game=game, player=player).delete()
        if not deleted:
            raise PlayError(_("You have no seat at this table."))
        game_updated_on_commit(game.pk, game.version)


def game_cancel(*, game_id: int, user: AbstractBaseUser) -> None:
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.created_by_id != user.pk:
            raise PlayError(_("Only the member who opened the table can cancel it."))
        updated = Game.objects.filter(pk=game.pk, status=Game.Status.OPEN).update(
            status=Game.Status.CANCELLED, finished_at=timezone.now()
        )
        if not updated:
            raise PlayError(_("Only a table that has not started can be cancelled."))
        game_updated_on_commit(game.pk, game.version)


def game_start(
    *,
    game_id: int,
    user: AbstractBaseUser,
    first_player: int | None = None,
    identities: list[str] | None = None,
) -> Game:
    """Deal the game: a secret seed (its SHA-256 shown from now on), the engine's setup, the
    seats' gangs or characters; then the first deadline, and a bot move if a bot begins.

    ``first_player`` and ``identities`` (one per seat) are for league fixtures, which rotate
    them over a season; left out, the engine draws them from the seed."""
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.created_by_id != user.pk:
            raise PlayError(_("Only the member who opened the table can start it."))
        if game.status != Game.Status.OPEN:
            raise PlayError(_("This table has already started or closed."))
        seats = list(game.seats.all())
        if len(seats) < game.seats_count:
            raise PlayError(_("Wait until every seat is taken."))
        engine = get_engine(game.kind)
        seed = secrets.token_hex(32)
        setup_args = {
            key: value
            for key, value in (("first_player", first_player), ("identities", identities))
            if value is not None
        }
        state = engine.setup(game.config, game.seats_count, seed, **setup_args)
        now = timezone.now()
        to_move = engine.to_move(state)
        state_json = engine.to_json(state)
        updated = Game.objects.filter(
            pk=game.pk, version=game.version, status=Game.Status.OPEN
        ).update(
            status=Game.Status.RUNNING,
            seed=seed,
            seed_hash=seed_hash(seed),
            setup_args=setup_args,
            state=state_json,
            to_move=to_move,
            started_at=now,
            deadline=now + game.turn_time_limit if to_move else None,
            # Owed in the database, not only in the message queued after commit (followups).
            auto_move_due_at=auto_move_due(game, seats, to_move, state_json, now=now),
        )
        if not updated:
            raise PlayError(_("This table has already started or closed."))
        for seat in seats:
            seat.identity = engine.seat_identity(state, seat.position)
        Seat.objects.bulk_update(seats, ["identity"])
        game.refresh_from_db()
        # Turn clocks (games/services/clocks): the first decision's deadline and reminders.
        turn_clock_start(game)
        turn_push_owe(game, seats)
        _after_change_on_commit(game, seats, to_move)
    return game


# -- moves ------------------------------------------------------------------------------------


def _after_change_on_commit(game: Game, seats: list[Seat], to_move: list[int]) -> None:
    game_updated_on_commit(game.pk, game.version)
    bots = {seat.position for seat in seats if seat.is_bot}
    if game.status == Game.Status.RUNNING and bots.intersection(to_move):
        bot_move_queue_on_commit(game.pk, game.version)


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
    try:
        game = Game.objects.select_for_update().get(pk=game_id)
    except Game.DoesNotExist:
        raise _MoveRefused(_("There is no such table.")) from None
    expected_version = strict_int(expected_version, minimum=0)
    if expected_version is None:
        raise _MoveRefused(_("The move did not say which version of the game it was made on."))
    if game.status != Game.Status.RUNNING:
        raise _MoveRefused(_("This game is not running."))
    if expected_version != game.version:
        raise _MoveRefused(
            _("The game moved on since your page was drawn; here is the table as it is now.")
        )
    # Kept on the game (``game.seats.all()``): the move's answer is drawn from this game.
    seats = game_seats_attach(game)
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
        state = engine.from_json(game.state)
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
    state_json = engine.to_json(new_state)
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
    updated = Game.objects.filter(pk=game.pk, version=game.version).update(**changes)
    if not updated:
        # Another writer saved first (possible only where the row lock is not real: SQLite).
        raise _MoveRefused(
            _("The game moved on since your page was drawn; here is the table as it is now.")
        )
    GameEvent.objects.create(
        game=game,
        seq=version,
        seat=seat.position,
        action=action,
        public_events=[e for e in events if "private_to" not in e],
        # "at": where the event stood among all of them, so the log can put it back there.
        private_events=[{**e, "at": i} for i, e in enumerate(events) if "private_to" in e],
        by_clock=by_clock,
    )
    for name, value in changes.items():
        setattr(game, name, value)
    # The answer to the move is drawn from this game: its state is already parsed.
    game_state_remember(game, new_state)
    if over:
        _seats_score(engine.result(new_state), seats)
        # Leagues (games/services/leagues/results.py): count the result once, after commit.
        _game_results_record_on_commit(game.pk)
    # Turn clocks (games/services/clocks): the next decision's deadline and reminders, the
    # mover's consecutive timeouts, Colt Express standing orders once this commits.
    turn_clock_after_move(game=game, seat=seat, by_member=user is not None, seats=seats)
    # Web Push (games/services/push/): "your turn" for the member the game now waits for.
    turn_push_owe(game, seats, mover=seat)
    _after_change_on_commit(game, seats, to_move)
    return MoveResult(ok=True, message="", game=game, events=events)


def _game_results_record_on_commit(game_id: int) -> None:
    task_queue_on_commit("game_results_record_task", (game_id,))


def _seats_score(result: dict[str, Any], seats: list[Seat]) -> None:
    by_position = {seat.position: seat for seat in seats}
    for row in result["ranking"]:
        seat = by_position[row["seat"]]
        seat.place = row["place"]
        seat.score = row["score"]
        seat.breakdown = result["breakdown"][row["seat"]]
    Seat.objects.bulk_update(seats, ["place", "score", "breakdown"])


def move_submit(
    *, game_id: int, user: AbstractBaseUser, action: Any, expected_version: Any
) -> MoveResult:
    """A member's move (design.md §4): refused with a message, or applied and broadcast."""
    if not user.is_authenticated:
        return MoveResult(ok=False, message=_("Log in to play."), game=None)
    return move_play_for_seat(
        game_id=game_id, position=None, action=action, expected_version=expected_version, user=user
    )


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
    state = engine.from_json(game.state)
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


# -- chat -------------------------------------------------------------------------------------


def chat_message_post(*, game_id: int, user: AbstractBaseUser, text: str) -> ChatMessage:
    """A seated member says something at the table; every open page shows it live."""
    player = player_for(user)
    # PostgreSQL cannot store NUL in text (the save would fail with a 500); it is never meant.
    text = (text or "").replace("\x00", "").strip()
    if not text:
        raise PlayError(_("Write something first."), field="text")
    if len(text) > ChatMessage.MAX_LENGTH:
        raise PlayError(
            _("Keep it under %(max)s characters.") % {"max": ChatMessage.MAX_LENGTH}, field="text"
        )
    game = Game.objects.filter(pk=game_id).only("pk", "version").first()
    if game is None:
        raise PlayError(_("There is no such table."))
    if not Seat.objects.filter(game=game, player=player).exists():
        raise PlayError(_("Only the players at this table can chat here."))
    with transaction.atomic():
        message = ChatMessage.objects.create(game=game, player=player, text=text)
        game_updated_on_commit(game.pk, game.version)
    return message
