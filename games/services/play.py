"""The play service: tables (create, join, leave, start, cancel), chat — and moves: the one
function that makes a move, :func:`move_play_for_seat`, which calls the move core
(games/services/moves.py, ``move_apply``) and then the pipeline, :func:`after_move`, which
names in order what follows every applied move. A member's move (:func:`move_submit`) and a
standing order's (:func:`standing_orders_apply`, which the pipeline runs after commit) are
made here; a bot's move and a timeout's sit above, in games/services/turns/, and call
:func:`move_play_for_seat` too (docs/decisions/0014-move-pipeline-called-explicitly.md).

In the services' layers (pyproject.toml, ``[tool.importlinter]``; docs/architecture.md,
"Layers") this module sits above what the pipeline calls — the clocks' deadlines, the
standing orders' matching, the push outbox, the queue — and below what makes moves of its
own accord, so the call to the pipeline is a plain call and nothing below imports it back.

Every write to a game happens inside ``transaction.atomic``: the game row is locked with
``select_for_update`` (PostgreSQL) *and* each save is guarded by the version it was computed
from, because SQLite ignores ``select_for_update``. Broadcasts and bot moves are scheduled with
``transaction.on_commit`` so nobody reads a state that was rolled back.
"""

from __future__ import annotations

import logging
import secrets
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.broadcast import game_updated_on_commit
from games.engines import ConfigError, get_engine
from games.models import ChatMessage, Game, Invitation, Player, Ruleset, Seat
from games.selectors.tables import player_of
from games.services.clocks.deadlines import turn_clock_after_move, turn_clock_start
from games.services.followups import auto_move_due, auto_move_settled
from games.services.moves import (  # noqa: F401  (MAX_ACTION_BYTES: callers' name)
    MAX_ACTION_BYTES,
    AppliedMove,
    MoveRefused,
    MoveResult,
    move_apply,
    move_refused_result,
)
from games.services.push.outbox import turn_push_owe
from games.services.queueing import bot_move_queue_on_commit, task_queue_on_commit
from games.services.replay import seed_hash
from games.services.standing_orders import standing_order_carried_out, standing_order_due
from games.text.bots import bot_kind_for
from games.text.wording import phrase_format

logger = logging.getLogger(__name__)

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
    stored as the level's bot, ``games.text.bots``); ``options`` are the engine's table options
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
            problems.setdefault("options", []).append(f"{path}: {phrase_format(message)}")
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


def _after_change_on_commit(game: Game, seats: list[Seat], to_move: list[int]) -> bool:
    """Broadcast the change once it commits; queue the bot to move, if one is (True then)."""
    game_updated_on_commit(game.pk, game.version)
    bots = {seat.position for seat in seats if seat.is_bot}
    if game.status == Game.Status.RUNNING and bots.intersection(to_move):
        bot_move_queue_on_commit(game.pk, game.version)
        return True
    return False


def move_play_for_seat(
    *,
    game_id: int,
    position: int | None,
    action: Any,
    expected_version: Any,
    user: AbstractBaseUser | None = None,
    by_clock: bool = False,
) -> MoveResult:
    """Make one move: the member's own (``user``), or a bot's, the clock's or a standing
    order's (``position``). In one transaction the core applies and saves it
    (``moves.move_apply``) and :func:`after_move` does what it owes. Never raises for a bad
    move: the result says what happened. Every move the site makes comes through here."""
    try:
        with transaction.atomic():
            applied = move_apply(
                game_id=game_id,
                position=position,
                action=action,
                expected_version=expected_version,
                user=user,
                by_clock=by_clock,
            )
            may_move_on = after_move(applied)
    except MoveRefused as refused:
        return move_refused_result(game_id, refused)
    return MoveResult(
        ok=True, message="", game=applied.game, events=applied.events, may_move_on=may_move_on
    )


def after_move(applied: AppliedMove) -> bool:
    """What follows a move, in order, inside its transaction (:func:`move_play_for_seat` calls
    it once the core saved the row and the event). Each step only writes rows or queues work
    for after commit, so a rolled-back move leaves nothing behind. True when what it queued
    may make the next move right after commit (a bot's, a standing order's): the move's
    answer then asks whether the game moved on before drawing it."""
    game, seat, seats = applied.game, applied.seat, applied.seats
    if game.status == Game.Status.FINISHED:
        # Results: the seats' places and scores now; the leagues' ledger
        # (games/services/leagues/results.py) counts them once, after commit.
        _seats_score(applied.engine.result(applied.state), seats)
        _game_results_record_on_commit(game.pk)
    # Clock (games/services/clocks): the mover's consecutive timeouts, the next decision's
    # deadline and reminders.
    turn_clock_after_move(game=game, seat=seat, by_member=applied.by_member, seats=seats)
    orders_queued = False
    if game.status == Game.Status.RUNNING:
        # Standing orders (Colt Express): once this commits, one may answer the next choice.
        orders_queued = _standing_orders_apply_on_commit(game)
    # Web Push (games/services/push/): "your turn" for the member the game now waits for.
    turn_push_owe(game, seats, mover=seat)
    # Broadcast to every open page; the bot to move plays next.
    bot_queued = _after_change_on_commit(game, seats, game.to_move)
    return orders_queued or bot_queued


def _game_results_record_on_commit(game_id: int) -> None:
    task_queue_on_commit("games.game_results_record", (game_id,))


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


def _standing_orders_apply_on_commit(game: Game) -> bool:
    """Once the move commits, see whether a standing order answers the next choice (True: it
    will look, and may move the game on). In this process, right after the commit, so the
    mover's answer already shows the order's move; the followups sweep catches up a lost one."""
    if game.kind != "colt":
        return False
    game_id = game.pk
    transaction.on_commit(lambda: _standing_orders_apply_safely(game_id))
    return True


def _standing_orders_apply_safely(game_id: int) -> None:
    try:
        standing_orders_apply(game_id)
    except Exception:
        # A failed order costs nothing: the player is simply asked.
        logger.exception("standing orders of game %s failed", game_id)


def standing_orders_apply(game_id: int) -> bool:
    """If a standing order answers the Stealin' choice the game waits on
    (games/services/standing_orders.py, ``standing_order_due``), make its move; otherwise
    the member has been asked. True if applied."""
    due = standing_order_due(game_id)
    if due is None:
        return False
    with transaction.atomic():
        result = move_play_for_seat(
            game_id=due.game_id,
            position=due.position,
            action=due.action,
            expected_version=due.version,
        )
        if not result.ok:
            auto_move_settled(due.game_id, due.version)
            return False
        standing_order_carried_out(due, result.game.version)
    return True


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
