"""Reads: tables for the lobby, one game with its seats, who may see what, the log.

A copy of a game read for one request, one broadcast or one move keeps what is read about it
(``read_once``: the log's last lines, the clock panel's leave, notices and "+24 h", and the
engine's parsed state, ``game_state``), so everything rendered from that copy — a page, the
answer to a move, every viewer's fragment of one broadcast — reads each of them once. A copy
lives only as long as that request or send, so what it keeps is as fresh as the copy itself.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any, TypeVar

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import (
    Prefetch,
    Q,
    QuerySet,
)
from django.utils import timezone

from games import roles
from games.engines import get_engine
from games.models import (
    ChatMessage,
    Fixture,
    Game,
    GameEvent,
    Invitation,
    Notification,
    Player,
    Seat,
)
from games.selectors.game_row import (
    CLOCK_HINTS,
    HINTS,
    LOCKED,
    PAGE,
    TABLE,
    Shape,
    game_row,
    seats_row,
)
from games.selectors.log_copy import (
    RECENT_EVENTS,
    RecentEvent,
    recent_events_current,
    recent_events_of,
    recent_events_read,
)

LOBBY_LIMIT = 50
# What a list of tables never shows: the engine's state, its config and the log's kept lines.
LIST_DEFERRED = ("state", "config", "recent_events")
CHAT_LINES = 30
HOME_FINISHED = 5

T = TypeVar("T")


def read_once(game: Game, key: Hashable, read: Callable[[], T]) -> T:
    """``read()`` the first time this copy of ``game`` is asked for ``key``; the same value
    after that (module docstring). The values live in the copy's ``Game.read_cache``."""
    cache = game.read_cache
    if key not in cache:
        cache[key] = read()
    return cache[key]


def _read_done(game: Game, key: Hashable) -> bool:
    """Whether this copy of ``game`` already has a ``read_once`` value for ``key``."""
    return key in game.read_cache


# The read cache's key of the parsed state: (the raw ``game.state`` it was parsed from, the
# engine's state).
_STATE_PARSED = "state_parsed"


def game_state(game: Game) -> Any:
    """The engine's state of this copy of the game (``None`` before it starts), parsed once
    for as long as ``game.state`` is the same object.

    Not copied (``from_stored``): the dict is this copy's own — decoded from its row, or the
    engine's answer to a move (``game_state_remember``) — and what reads it here (the board's
    view, the standing orders) never changes a state."""
    raw = game.state
    if raw is None:
        return None
    parsed = game.read_cache.get(_STATE_PARSED)
    if parsed is None or parsed[0] is not raw:
        parsed = game.read_cache[_STATE_PARSED] = (raw, get_engine(game.kind).from_stored(raw))
    return parsed[1]


def game_state_remember(game: Game, state: Any) -> None:
    """After a move: ``state`` (what the engine just returned) is the parsed form of the
    ``game.state`` now set, so the move's answer needs no second parse."""
    game.read_cache[_STATE_PARSED] = (game.state, state)


def _seats_with_players() -> QuerySet[Seat]:
    return Seat.objects.select_related("player__user").order_by("position")


def _seats_prefetch() -> Prefetch:
    return Prefetch("seats", queryset=_seats_with_players())


def _with_seats(queryset: QuerySet[Game]) -> QuerySet[Game]:
    return queryset.select_related("ruleset").prefetch_related(_seats_prefetch())


# How far back the game's query looks for a seated member's leave: a day before the earliest
# date the clock panel asks about (games/services/clocks/leave.py reads from yesterday), so
# "none" here means none there.
CLOCK_HINT_LEAVE_DAYS = 2


def _leave_from() -> date:
    return (timezone.now() - timedelta(days=CLOCK_HINT_LEAVE_DAYS)).date()


# The read cache's key of what the game's own query found absent: (a set of "leave",
# "notices", "extensions", "orders", the date the leave hint looked from).
_CLOCK_NONE = "clock_none"


def _clock_hints_keep(game: Game, leave_from: date) -> None:
    none = {
        name
        for name, present in (
            ("leave", game.hint_leave),
            ("notices", game.hint_notices),
            ("extensions", game.hint_extensions),
            ("orders", game.hint_orders),
        )
        if not present
    }
    game.read_cache[_CLOCK_NONE] = (none, leave_from)


def clock_known_empty(game: Game, what: str, *, since: date | None = None) -> bool:
    """Whether this copy of the game was read knowing it has no ``what`` ("leave", "notices",
    "extensions", "orders"): its reader needs no query. For "leave", ``since`` is the earliest
    date the reader asks about: the query only looked from its own date on."""
    known = game.read_cache.get(_CLOCK_NONE)
    if known is None:
        return False
    none, leave_from = known
    return what in none and (since is None or since >= leave_from)


# What ``read_once`` keeps under this key: the copy's seats, read with it (``game_seats``;
# ``table_access_known``).
_SEATS_READ = "seats"


def _game_read(game_id: int, shape: Shape, seats: Shape, **row: Any) -> Game | None:
    """The game ``game_id`` read in ``shape`` and its seats in ``seats``
    (games/selectors/game_row.py), the seats kept on the copy (``game_seats``; each seat's
    ``seat.game`` is this game: no query), or ``None``. The seats are read once the game is,
    so their query can use what the game's row says (its kind)."""
    leave_from = _leave_from()
    game, fixture = game_row(game_id, leave_from, shape, **row)
    if game is None:
        return None
    game.read_cache[_SEATS_READ] = seats_row(game, seats)
    if shape.page:
        read_once(game, GAME_FIXTURE, lambda: fixture)
    _clock_hints_keep(game, leave_from)
    return game


def game_seats(game: Game) -> list[Seat]:
    """The game's seats in order: those read with this copy of the game (``game_with_seats``,
    ``game_locked_for_move``: no query), else ``game.seats.all()`` (prefetched by the lists of
    tables). A list of the caller's own: the copy's stays as read."""
    return list(read_once(game, _SEATS_READ, lambda: list(game.seats.all())))


def game_with_seats(
    game_id: int, *, visit_of: Player | None = None, page: bool = False
) -> Game | None:
    """The game, its ruleset and its seats (with players, ``game_seats``), or ``None`` for no
    such game (any
    integer: one out of the database's range finds nothing): two queries, knowing whether the
    clock panel has anything to read (games/selectors/game_row.py).

    With ``visit_of``, the game's query also reads that member's ``TableVisit`` (as
    ``game.visit_seen`` / ``game.visit_since``, None before their first visit) and how many
    of their notifications are unread (``game.visitor_unread``: the bell): the game page
    needs them and they cost no query of their own. ``page``: what only the whole page's
    header shows comes with the same reads — the league fixture the game belongs to, if any
    (``game_fixture``), and each seat's rating in this game (``seat.rating_mu`` /
    ``seat.rating_sigma``, None when unrated; games/selectors/leagues.py)."""
    if page or visit_of is not None:
        return _game_read(game_id, PAGE, PAGE if page else TABLE, visit_of=visit_of)
    return _game_read(game_id, TABLE, TABLE)


def game_locked_for_move(game_id: int) -> Game | None:
    """The game, its row locked until the transaction ends (PostgreSQL; SQLite has no row
    locks, and the move's save is guarded by its version instead), with its seats
    (``game_seats``), each seat saying whether its member turned Web Push on anywhere
    (``seat.push_devices``, for the move's "your turn"). It knows whether the clock panel and
    the turn clock have anything to read (games/selectors/game_row.py): a move at a table with
    nobody on leave reads no leave. Two queries; ``None`` for no such game."""
    return _game_read(game_id, LOCKED, LOCKED)


# The read cache's key of the league fixture the whole page's read found with the game
# (``None``: a game outside any league).
GAME_FIXTURE = "fixture"


def game_fixture(game: Game) -> Fixture | None:
    """The league fixture ``game`` is played for (with its round and league), or ``None``:
    what the page's read found with the game, else one query."""

    def read() -> Fixture | None:
        fixtures = Fixture.objects.filter(game=game).select_related("round", "season__league")
        return fixtures.first()

    return read_once(game, GAME_FIXTURE, read)


def game_unchanged(game: Game) -> bool:
    """Whether the stored game is still at this copy's version and status (one small query):
    nothing (a bot, a standing order run on commit) has moved it on since it was read. The
    same query says whether the clock panel has anything to read (games/selectors/game_row.py),
    so the answer drawn from this copy skips the panel's empty reads."""
    leave_from = _leave_from()
    stored, _fixture = game_row(game.pk, leave_from, HINTS)
    if stored is None or (stored.version, stored.status) != (game.version, game.status):
        return False
    for name in CLOCK_HINTS:
        setattr(game, name, getattr(stored, name))
    _clock_hints_keep(game, leave_from)
    return True


def unread_notifications_count(player: Player) -> int:
    """How many of the member's notifications are unread: the bell on every page (one query)."""
    return Notification.objects.filter(player=player, read_at__isnull=True).count()


def player_of(user: AbstractBaseUser) -> Player | None:
    if not user.is_authenticated:
        return None
    try:
        return user.player
    except Player.DoesNotExist:
        return None


@dataclass(frozen=True)
class TableAccess:
    """What a member may do at a table: watch it, and which seat (if any) is theirs."""

    may_view: bool
    seat: Seat | None
    invited: bool

    @property
    def position(self) -> int | None:
        return self.seat.position if self.seat is not None else None


def table_access(game: Game, user: AbstractBaseUser) -> TableAccess:
    """Members may watch open tables; an invite-only table only its players, invitees and
    creator, and a moderator acting on it (``games.roles.may_view_table``).

    Expects the seats read with the game (``game_seats``); costs a query only for an
    invite-only table the member has no seat at.
    """
    player = player_of(user)
    seat = None
    if player is not None:
        seat = next((s for s in game_seats(game) if s.player_id == player.pk), None)
    if seat is not None:
        return TableAccess(may_view=True, seat=seat, invited=False)
    invited = bool(
        player is not None
        and game.invite_only
        and Invitation.objects.filter(game=game, player=player).exists()
    )
    # Who else may watch is decided in one place (docs/roles.md).
    may_view = roles.may_view_table(
        game, user, member=player is not None, seated=False, invited=invited
    )
    return TableAccess(may_view=may_view, seat=None, invited=invited)


def table_access_known(game: Game, user: AbstractBaseUser) -> TableAccess | None:
    """``table_access`` when it needs no query at all — the member's profile already loaded
    on ``user``, the seats read with ``game``, and the member seated or the table open —
    else ``None`` (ask ``table_access``). For code that must not touch the database (a
    socket's event loop)."""
    if not user.is_authenticated or not get_user_model().player.is_cached(user):
        return None
    if not _read_done(game, _SEATS_READ):
        return None
    player = user.player
    seat = next((s for s in game_seats(game) if s.player_id == player.pk), None)
    if seat is None and game.invite_only:
        return None
    return table_access(game, user)


def lobby_open_tables(user: AbstractBaseUser) -> list[Game]:
    """Tables waiting for players that this member may join: open ones and invitations."""
    player = player_of(user)
    visible = Q(invite_only=False) | Q(created_by=user.pk)
    if player is not None:
        visible |= Q(pk__in=Invitation.objects.filter(player=player).values("game_id"))
    queryset = Game.objects.filter(visible, status=Game.Status.OPEN).order_by("-created_at")
    return list(_with_seats(queryset)[:LOBBY_LIMIT])


def lobby_my_games(user: AbstractBaseUser) -> list[Game]:
    """My open and running tables, those where it is my turn first, then by deadline."""
    player = player_of(user)
    if player is None:
        return []
    queryset = Game.objects.filter(
        status__in=[Game.Status.OPEN, Game.Status.RUNNING],
        pk__in=Seat.objects.filter(player=player).values("game_id"),
    ).defer(*LIST_DEFERRED)
    games = list(_with_seats(queryset)[:LOBBY_LIMIT])
    for game in games:
        mine = next(s for s in game.seats.all() if s.player_id == player.pk)
        game.my_seat = mine
        # A seat a bot plays for the member is not their turn to take.
        game.my_turn = (
            game.status == Game.Status.RUNNING
            and mine.position in game.to_move
            and not mine.is_stand_in
        )
    far_future = 2**62
    games.sort(
        key=lambda g: (
            not g.my_turn,
            g.status != Game.Status.RUNNING,
            g.deadline.timestamp() if g.deadline else far_future,
        )
    )
    return games


def home_games(user: AbstractBaseUser) -> dict[str, list[Game]]:
    """The member's tables for the home page: their turn first (soonest deadline first), the
    running ones waiting for others, those still waiting for players, and their last few
    finished games, each with the member's own seat (``game.my_seat``: place and score)."""
    mine = lobby_my_games(user)
    groups: dict[str, list[Game]] = {
        "my_turn": [g for g in mine if g.my_turn],
        "waiting": [g for g in mine if g.status == Game.Status.RUNNING and not g.my_turn],
        "open": [g for g in mine if g.status == Game.Status.OPEN],
        "finished": [],
    }
    player = player_of(user)
    if player is not None:
        queryset = (
            Game.objects.filter(
                status=Game.Status.FINISHED,
                pk__in=Seat.objects.filter(player=player).values("game_id"),
            )
            .defer(*LIST_DEFERRED)
            .order_by("-finished_at")
        )
        for game in _with_seats(queryset)[:HOME_FINISHED]:
            game.my_seat = next(s for s in game.seats.all() if s.player_id == player.pk)
            groups["finished"].append(game)
    return groups


def lobby_finished_games(user: AbstractBaseUser) -> list[Game]:
    """Recently finished tables the member may see (their own and open ones), newest first."""
    player = player_of(user)
    visible = Q(invite_only=False)
    if player is not None:
        visible |= Q(pk__in=Seat.objects.filter(player=player).values("game_id"))
    queryset = (
        Game.objects.filter(visible, status=Game.Status.FINISHED)
        .defer(*LIST_DEFERRED)
        .order_by("-finished_at")
    )
    return list(_with_seats(queryset)[:LOBBY_LIMIT])


def game_events(game: Game) -> list[GameEvent]:
    """The game's applied actions in order."""
    return list(GameEvent.objects.filter(game=game).order_by("seq"))


def _recent_events(game_id: int, limit: int) -> QuerySet[GameEvent]:
    # Without the action as submitted: the log and the "since" panel read what it caused,
    # and the action itself may hold a secret (a face-down card) that only the replay reads.
    events = GameEvent.objects.filter(game_id=game_id).defer("action")
    return events.order_by("-seq")[:limit]


def _log_copy_loaded(game: Game) -> list[dict[str, Any]] | None:
    """The copy of the log's last lines on this copy of the game's row, ``None`` when it was
    read without that column (deferred: a list of tables), which must not cost a query."""
    if "recent_events" in game.get_deferred_fields():
        return None
    return game.recent_events


def game_recent_events(game: Game, *, limit: int) -> list[GameEvent | RecentEvent]:
    """The last ``limit`` events, oldest first: from the copy on the game's row when it is
    current and long enough (games/selectors/log_copy.py), otherwise one query whatever the game's
    length; once per copy of the game."""

    def read() -> list[GameEvent | RecentEvent]:
        recent = recent_events_read(game.pk, _log_copy_loaded(game), game.version, limit)
        if recent is not None:
            return recent
        return _events_last(game.pk, limit)

    return read_once(game, ("recent_events", limit), read)


def _events_last(game_id: int, limit: int) -> list[GameEvent]:
    recent = list(_recent_events(game_id, limit))
    recent.reverse()
    return recent


def game_log_copy(game: Game) -> list[dict[str, Any]]:
    """The copy of the log's last lines that this copy of the game, at its version, should
    carry: its own when current, else built from the events (one query: a game saved before
    the copy existed, or whose events were written some other way)."""
    recent = _log_copy_loaded(game)
    if game.version == 0:
        return []
    if recent_events_current(recent, game.version):
        return recent
    return recent_events_of(_events_last(game.pk, RECENT_EVENTS))


def game_chat(game: Game, *, limit: int = CHAT_LINES) -> list[ChatMessage]:
    """The chat's last ``limit`` lines, oldest first (once per copy of the game)."""

    def read() -> list[ChatMessage]:
        lines = ChatMessage.objects.filter(game=game).select_related("player")
        lines = list(lines.order_by("-created_at", "-pk")[:limit])
        lines.reverse()
        return lines

    return read_once(game, ("chat", limit), read)
