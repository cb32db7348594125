"""Reads: tables for the lobby, one game with its seats, who may see what, the log.

A copy of a game read for one request, one broadcast or one move keeps what is read about it
(``read_once``: the log's last lines, the clock panel's leave, notices and "+24 h", and the
engine's parsed state, ``game_state``), so everything drawn from that copy — a page, the
answer to a move, every viewer's fragment of one broadcast — reads each of them once. A copy
lives only as long as that request or send, so what it keeps is as fresh as the copy itself.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any, TypeVar

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import (
    Count,
    Exists,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
)
from django.utils import timezone

from games.compiled import CompiledQuery, RowsRead, read_together
from games.engines import get_engine
from games.kept_log import (
    KEPT_EVENTS,
    KeptEvent,
    kept_events_current,
    kept_events_of,
    kept_events_read,
)
from games.models import (
    ChatMessage,
    DeadlineExtension,
    Game,
    GameEvent,
    Invitation,
    Leave,
    Notification,
    Player,
    PushSubscription,
    Rating,
    Seat,
    StandingOrder,
    TableNotice,
    TableVisit,
)
from games.services import roles

LOBBY_LIMIT = 50
# What a list of tables never shows: the engine's state, its config and the log's kept lines.
LIST_DEFERRED = ("state", "config", "recent_events")
CHAT_LINES = 30
HOME_FINISHED = 5

T = TypeVar("T")


def read_once(game: Game, key: Hashable, read: Callable[[], T]) -> T:
    """``read()`` the first time this copy of ``game`` is asked for ``key``; the same value
    after that (module docstring)."""
    reads = game.__dict__.setdefault("_reads_kept", {})
    if key not in reads:
        reads[key] = read()
    return reads[key]


def game_state(game: Game) -> Any:
    """The engine's state of this copy of the game (``None`` before it starts), parsed once
    for as long as ``game.state`` is the same object.

    Not copied (``from_stored``): the dict is this copy's own — decoded from its row, or the
    engine's answer to a move (``game_state_remember``) — and what reads it here (the board's
    view, the standing orders) never changes a state."""
    raw = game.state
    if raw is None:
        return None
    kept = game.__dict__.get("_state_parsed")
    if kept is None or kept[0] is not raw:
        kept = game.__dict__["_state_parsed"] = (raw, get_engine(game.kind).from_stored(raw))
    return kept[1]


def game_state_remember(game: Game, state: Any) -> None:
    """After a move: ``state`` (what the engine just returned) is the parsed form of the
    ``game.state`` now set, so the move's answer needs no second parse."""
    game.__dict__["_state_parsed"] = (game.state, state)


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


def _clock_hints(queryset: QuerySet[Game], leave_from: date | None = None) -> QuerySet[Game]:
    """Whether the clock panel has anything to read — a seated member's leave, a notice, a
    "+24 h" given, a standing order (Colt Express) —, asked as EXISTS in the game's own query.
    Most tables have none of them, and the panel's readers (``players_on_leave``,
    ``table_notices``, ``extensions_given``, ``standing_orders_for``) then skip their query
    (``game.clock_none``: the set of what is known to be empty)."""
    return queryset.annotate(**_clock_hint_expressions(leave_from or _leave_from()))


@functools.lru_cache(maxsize=2)
def _clock_hint_expressions(leave_from: date) -> dict[str, Exists]:
    # Built once a day: making the four subqueries costs more than a query's round trip on a
    # busy machine, and annotate() copies what it is given, so sharing them is safe.
    return {
        "hint_leave": Exists(
            Leave.objects.filter(player__seats__game=OuterRef("pk"), end__gte=leave_from)
        ),
        "hint_notices": Exists(TableNotice.objects.filter(game=OuterRef("pk"))),
        "hint_extensions": Exists(DeadlineExtension.objects.filter(game=OuterRef("pk"))),
        "hint_orders": Exists(StandingOrder.objects.filter(game=OuterRef("pk"))),
    }


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
    game.clock_none = none
    game.clock_none_leave_from = leave_from


def clock_known_empty(game: Game, what: str) -> bool:
    """Whether this copy of the game was read knowing it has no ``what`` ("leave" from
    ``game.clock_none_leave_from`` on, "notices", "extensions", "orders"): its reader needs no
    query."""
    return what in getattr(game, "clock_none", ())


# What the whole page reads of the game's ruleset and league fixture (the header and the
# league line: templates/leagues/expected_places.html). The ORM compiles and converts every
# column it selects, and the rest of those rows (a ruleset's rules text, a league's twenty
# settings) was read on every page load for nothing. Anything else read from them on the page
# would cost a query, which the page's query-count tests would catch.
_PAGE_RELATED_COLUMNS = (
    "ruleset__kind",
    "ruleset__name",
    "ruleset__slug",
    "ruleset__version",
    "ruleset__config",
    "fixture__game_id",
    "fixture__round__number",
    "fixture__season__league__name",
    "fixture__season__league__slug",
)


@functools.cache
def _page_columns() -> tuple[str, ...]:
    return (*(f.name for f in Game._meta.concrete_fields), *_PAGE_RELATED_COLUMNS)


# What a fragment, a push and the API read of the ruleset: its name and version (the API's
# table), never its config or rules text — which an organiser's own rules can make long.
_TABLE_RELATED_COLUMNS = ("ruleset__kind", "ruleset__name", "ruleset__slug", "ruleset__version")


@functools.cache
def _table_columns() -> tuple[str, ...]:
    return (*(f.name for f in Game._meta.concrete_fields), *_TABLE_RELATED_COLUMNS)


# The reads of one game that every page, fragment, push and move makes, compiled once per
# process (games/compiled.py): ``key`` is the date the leave hint looks from.
def _game_for_table(*, game_id: int, key: date) -> QuerySet[Game]:
    return (
        _clock_hints(Game.objects.filter(pk=game_id), key)
        .select_related("ruleset")
        .only(*_table_columns())
    )


def _game_for_page(*, game_id: int, key: date) -> QuerySet[Game]:
    return (
        _clock_hints(Game.objects.filter(pk=game_id), key)
        .select_related("ruleset", "fixture__round", "fixture__season__league")
        .only(*_page_columns())
    )


def _game_for_visitor(*, game_id: int, player_id: int, key: date) -> QuerySet[Game]:
    visits = TableVisit.objects.filter(game=OuterRef("pk"), player_id=player_id)
    unread = Notification.objects.filter(player_id=player_id, read_at__isnull=True)
    return _game_for_page(game_id=game_id, key=key).annotate(
        visit_seen=Subquery(visits.values("seen_version")[:1]),
        visit_since=Subquery(visits.values("since_version")[:1]),
        # The page's bell (templates/partials/bell.html): no query of its own.
        visitor_unread=Subquery(
            unread.order_by().values("player_id").annotate(count=Count("pk")).values("count")
        ),
    )


def _seats_of(*, game_id: int) -> QuerySet[Seat]:
    # The table's seats with their members' players, not their users: a fragment, a push or
    # a move knows a member by ``player.user_id`` and names them by ``display_name``, and the
    # users' rows were a model object more per seat on every read. (The whole page's league
    # line shows usernames: its seats come with them, ``_seats_rated``.)
    return Seat.objects.select_related("player").filter(game_id=game_id).order_by("position")


def _seats_rated(*, game_id: int) -> QuerySet[Seat]:
    # Of the game's kind, whose ratings the header shows: asked of the seat's game, so the
    # seats need not wait for the game's row (they are read with it, ``read_together``).
    ratings = Rating.objects.filter(player_id=OuterRef("player_id"), kind=OuterRef("game__kind"))
    return (
        _seats_with_players()
        .filter(game_id=game_id)
        .annotate(
            rating_mu=Subquery(ratings.values("mu")[:1]),
            rating_sigma=Subquery(ratings.values("sigma")[:1]),
        )
    )


def _seats_with_push(*, game_id: int) -> QuerySet[Seat]:
    pushes = PushSubscription.objects.filter(player_id=OuterRef("player_id"))
    return _seats_of(game_id=game_id).annotate(push_devices=Exists(pushes))


def _game_unchanged(*, game_id: int, version: int, key: tuple[date, str]) -> QuerySet[Game]:
    leave_from, status = key
    hints = _clock_hints(
        Game.objects.filter(pk=game_id, version=version, status=status), leave_from
    )
    return hints.values("hint_leave", "hint_notices", "hint_extensions", "hint_orders")


def _game_locked(*, game_id: int, key: date) -> QuerySet[Game]:
    return _clock_hints(Game.objects.select_for_update().filter(pk=game_id), key)


GAME_LOCKED = CompiledQuery(Game, _game_locked, "game_id", keyed=True, for_write=True)
GAME_FOR_TABLE = CompiledQuery(Game, _game_for_table, "game_id", keyed=True)
GAME_FOR_PAGE = CompiledQuery(Game, _game_for_page, "game_id", keyed=True)
GAME_FOR_VISITOR = CompiledQuery(Game, _game_for_visitor, "game_id", "player_id", keyed=True)
SEATS = CompiledQuery(Seat, _seats_of, "game_id")
SEATS_RATED = CompiledQuery(Seat, _seats_rated, "game_id")
SEATS_WITH_PUSH = CompiledQuery(Seat, _seats_with_push, "game_id")
GAME_UNCHANGED = CompiledQuery(Game, _game_unchanged, "game_id", "version", keyed=True)


def _seats_keep(game: Game, seats: list[Seat]) -> list[Seat]:
    """Put ``seats`` where ``game.seats.all()`` finds them, as ``prefetch_related`` would, each
    knowing its game (``seat.game`` costs no query)."""
    game_field = Seat._meta.get_field("game")
    for seat in seats:
        game_field.set_cached_value(seat, game)
    cache = game.__dict__.setdefault("_prefetched_objects_cache", {})
    cache.pop("seats", None)
    queryset = game.seats.get_queryset()
    queryset._result_cache = seats
    queryset._prefetch_done = True
    cache["seats"] = queryset
    return seats


def game_with_seats(
    game_id: int, *, visit_of: Player | None = None, page: bool = False
) -> Game | None:
    """The game, its ruleset and its seats (with players) in one statement on PostgreSQL (two
    queries elsewhere: ``read_together``), knowing whether the clock panel has anything to
    read (``_clock_hints``).

    With ``visit_of``, the same query also reads that member's ``TableVisit`` (as
    ``game.visit_seen`` / ``game.visit_since``, None before their first visit) and how many
    of their notifications are unread (``game.visitor_unread``, None for none: the bell): the
    game page needs them and they cost no query of their own. ``page``: what only the whole
    page's header shows comes with the same reads — the league fixture the game belongs to,
    if any (``game.fixture``), and each seat's rating in this game (``seat.rating_mu`` /
    ``seat.rating_sigma``, None when unrated; games/selectors_leagues.py) — and so do the
    chat's last lines (``game_chat`` then asks nothing)."""
    leave_from = _leave_from()
    values: dict[str, int] = {"game_id": game_id}
    if visit_of is not None:
        query = GAME_FOR_VISITOR
        values["player_id"] = visit_of.pk
    else:
        query = GAME_FOR_PAGE if page else GAME_FOR_TABLE
    seats = RowsRead(SEATS_RATED if page else SEATS, {"game_id": game_id}, _by_position)
    # The whole page shows the chat's last lines: they come with the game too.
    chat = RowsRead(CHAT_LINES_QUERY, {"game_id": game_id}, _by_time, key=CHAT_LINES)
    game, rows = read_together(
        query, *((seats, chat) if page else (seats,)), values=values, key=leave_from
    )
    if game is None:
        return None
    _seats_keep(game, rows[0])
    if page:
        read_once(game, _chat_read(CHAT_LINES), lambda: rows[1])
    _clock_hints_keep(game, leave_from)
    return game


def _by_time(line: ChatMessage) -> tuple[Any, int]:
    return line.created_at, line.pk


def _by_position(seat: Seat) -> int:
    return seat.position


def game_locked_for_move(game_id: int) -> Game | None:
    """The game, its row locked until the transaction ends (PostgreSQL; SQLite has no row
    locks, and the move's save is guarded by its version instead), with its seats in
    ``game.seats.all()`` — read with it in one statement on PostgreSQL (``read_together``) —,
    each seat saying whether its member turned Web Push on anywhere (``seat.push_devices``,
    for the move's "your turn"). It knows whether the clock panel and the turn clock have
    anything to read (``_clock_hints``): a move at a table with nobody on leave reads no
    leave."""
    leave_from = _leave_from()
    seats = RowsRead(SEATS_WITH_PUSH, {"game_id": game_id}, _by_position)
    game, rows = read_together(GAME_LOCKED, seats, values={"game_id": game_id}, key=leave_from)
    if game is None:
        return None
    _seats_keep(game, rows[0])
    _clock_hints_keep(game, leave_from)
    return game


def game_unchanged(game: Game) -> bool:
    """Whether the stored game is still at this copy's version and status (one small query):
    nothing (a bot, a standing order run on commit) has moved it on since it was read. The
    same query says whether the clock panel has anything to read (``_clock_hints``), so the
    answer drawn from this copy skips the panel's empty reads."""
    leave_from = _leave_from()
    found = GAME_UNCHANGED.run(game_id=game.pk, version=game.version, key=(leave_from, game.status))
    if not found:
        return False
    for name, present in found[0].items():
        setattr(game, name, present)
    _clock_hints_keep(game, leave_from)
    return True


def _unread_count(*, player_id: int) -> QuerySet[Notification]:
    unread = Notification.objects.filter(player_id=player_id, read_at__isnull=True)
    return unread.values("player_id").annotate(unread=Count("pk"))


UNREAD_COUNT = CompiledQuery(Notification, _unread_count, "player_id")


def unread_notifications_count(player: Player) -> int:
    """How many of the member's notifications are unread: the bell on every page (one query,
    compiled once: games/compiled.py)."""
    rows = UNREAD_COUNT.run(player_id=player.pk)
    return rows[0]["unread"] if rows else 0


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
    creator, and a moderator acting on it (``games.services.roles.may_view_table``).

    Expects ``game.seats`` prefetched (``game_with_seats``); costs a query only for an
    invite-only table the member has no seat at.
    """
    player = player_of(user)
    seat = None
    if player is not None:
        seat = next((s for s in game.seats.all() if s.player_id == player.pk), None)
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
    on ``user``, the seats prefetched on ``game``, and the member seated or the table open —
    else ``None`` (ask ``table_access``). For code that must not touch the database (a
    socket's event loop)."""
    if not user.is_authenticated or not get_user_model().player.is_cached(user):
        return None
    if "seats" not in getattr(game, "_prefetched_objects_cache", {}):
        return None
    player = user.player
    seat = next((s for s in game.seats.all() if s.player_id == player.pk), None)
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


def _recent_events(*, game_id: int, key: int) -> QuerySet[GameEvent]:
    # Without the action as submitted: the log and the "since" panel read what it caused,
    # and the action itself may hold a secret (a face-down card) that only the replay reads.
    events = GameEvent.objects.filter(game_id=game_id).defer("action")
    return events.order_by("-seq")[:key]


def _chat_lines(*, game_id: int, key: int) -> QuerySet[ChatMessage]:
    lines = ChatMessage.objects.filter(game_id=game_id).select_related("player")
    return lines.order_by("-created_at", "-pk")[:key]


# Keyed by how many lines: a limit is part of the SQL's text, not a parameter.
RECENT_EVENTS = CompiledQuery(GameEvent, _recent_events, "game_id", keyed=True)
CHAT_LINES_QUERY = CompiledQuery(ChatMessage, _chat_lines, "game_id", keyed=True)


def game_recent_events(game: Game, *, limit: int) -> list[GameEvent | KeptEvent]:
    """The last ``limit`` events, oldest first: from the copy on the game's row when it is
    current and long enough (games/kept_log.py), otherwise one query whatever the game's
    length; once per copy of the game."""

    def read() -> list[GameEvent | KeptEvent]:
        # From __dict__: a copy read without the column (deferred) must not load it.
        kept = kept_events_read(game.pk, game.__dict__.get("recent_events"), game.version, limit)
        if kept is not None:
            return kept
        return _events_last(game.pk, limit)

    return read_once(game, ("recent_events", limit), read)


def _events_last(game_id: int, limit: int) -> list[GameEvent]:
    recent = RECENT_EVENTS.run(game_id=game_id, key=limit)
    recent.reverse()
    return recent


def game_kept_events(game: Game) -> list[dict[str, Any]]:
    """The copy of the log's last lines that this copy of the game, at its version, should
    carry: its own when current, else built from the events (one query: a game saved before
    the copy existed, or whose events were written some other way)."""
    kept = game.__dict__.get("recent_events")
    if game.version == 0:
        return []
    if kept_events_current(kept, game.version):
        return kept
    return kept_events_of(_events_last(game.pk, KEPT_EVENTS))


def game_chat(game: Game, *, limit: int = CHAT_LINES) -> list[ChatMessage]:
    """The chat's last ``limit`` lines, oldest first (once per copy of the game)."""

    def read() -> list[ChatMessage]:
        lines = CHAT_LINES_QUERY.run(game_id=game.pk, key=limit)
        lines.reverse()
        return lines

    return read_once(game, _chat_read(limit), read)


def _chat_read(limit: int) -> tuple[str, int]:
    """What ``read_once`` keeps a game's last ``limit`` chat lines under (``game_chat``, and
    ``game_with_seats`` for the page, which reads them with the game)."""
    return ("chat", limit)
