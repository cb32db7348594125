"""Reads: tables for the lobby, one game with its seats, who may see what, the log.

A copy of a game read for one request, one broadcast or one move keeps what is read about it
(``read_once``: the log's last lines, the clock panel's leave, notices and "+24 h", and the
engine's parsed state, ``game_state``), so everything drawn from that copy — a page, the
answer to a move, every viewer's fragment of one broadcast — reads each of them once. A copy
lives only as long as that request or send, so what it keeps is as fresh as the copy itself.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, TypeVar

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import (
    Exists,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    prefetch_related_objects,
)

from games.engines import get_engine
from games.models import (
    ChatMessage,
    Game,
    GameEvent,
    Invitation,
    Player,
    PushSubscription,
    Seat,
    TableVisit,
)

LOBBY_LIMIT = 50
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
    for as long as ``game.state`` is the same object."""
    raw = game.state
    if raw is None:
        return None
    kept = game.__dict__.get("_state_parsed")
    if kept is None or kept[0] is not raw:
        kept = game.__dict__["_state_parsed"] = (raw, get_engine(game.kind).from_json(raw))
    return kept[1]


def game_state_remember(game: Game, state: Any) -> None:
    """After a move: ``state`` (what the engine just returned) is the parsed form of the
    ``game.state`` now set, so the move's answer needs no second parse."""
    game.__dict__["_state_parsed"] = (game.state, state)


def _seats_prefetch() -> Prefetch:
    return Prefetch(
        "seats", queryset=Seat.objects.select_related("player__user").order_by("position")
    )


def _with_seats(queryset: QuerySet[Game]) -> QuerySet[Game]:
    return queryset.select_related("ruleset").prefetch_related(_seats_prefetch())


def game_with_seats(game_id: int, *, visit_of: Player | None = None) -> Game | None:
    """The game, its ruleset and its seats (with players) in two queries.

    With ``visit_of``, the same query also reads that member's ``TableVisit`` (as
    ``game.visit_seen`` / ``game.visit_since``, None before their first visit): the game page
    needs it and it costs no query of its own."""
    queryset = Game.objects.filter(pk=game_id)
    if visit_of is not None:
        visits = TableVisit.objects.filter(game=OuterRef("pk"), player=visit_of)
        queryset = queryset.annotate(
            visit_seen=Subquery(visits.values("seen_version")[:1]),
            visit_since=Subquery(visits.values("since_version")[:1]),
        )
    return _with_seats(queryset).first()


def game_seats_attach(game: Game) -> list[Seat]:
    """Load the game's seats (with players, by position) into ``game.seats.all()``, as
    ``game_with_seats`` does, and return them: one query. Each seat also says whether its
    member turned Web Push on anywhere (``seat.push_devices``, for the move's "your turn")."""
    seats = (
        Seat.objects.select_related("player__user")
        .annotate(
            push_devices=Exists(PushSubscription.objects.filter(player_id=OuterRef("player_id")))
        )
        .order_by("position")
    )
    prefetch_related_objects([game], Prefetch("seats", queryset=seats))
    return list(game.seats.all())


def game_unchanged(game: Game) -> bool:
    """Whether the stored game is still at this copy's version and status (one small query):
    nothing (a bot, a standing order run on commit) has moved it on since it was read."""
    return Game.objects.filter(pk=game.pk, version=game.version, status=game.status).exists()


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
    """Members may watch open tables; an invite-only table only its players and invitees.

    Expects ``game.seats`` prefetched (``game_with_seats``); costs a query only for an
    invite-only table the member has no seat at.
    """
    player = player_of(user)
    if player is None:
        return TableAccess(may_view=False, seat=None, invited=False)
    seat = next((s for s in game.seats.all() if s.player_id == player.pk), None)
    if seat is not None:
        return TableAccess(may_view=True, seat=seat, invited=False)
    invited = game.invite_only and Invitation.objects.filter(game=game, player=player).exists()
    may_view = not game.invite_only or invited or game.created_by_id == user.pk or user.is_staff
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
    ).defer("state", "config")
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
            .defer("state", "config")
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
        .defer("state", "config")
        .order_by("-finished_at")
    )
    return list(_with_seats(queryset)[:LOBBY_LIMIT])


def game_events(game: Game) -> list[GameEvent]:
    """The game's applied actions in order."""
    return list(GameEvent.objects.filter(game=game).order_by("seq"))


def game_recent_events(game: Game, *, limit: int) -> list[GameEvent]:
    """The last ``limit`` events, oldest first (one query whatever the game's length, once per
    copy of the game)."""

    def read() -> list[GameEvent]:
        recent = list(GameEvent.objects.filter(game=game).order_by("-seq")[:limit])
        recent.reverse()
        return recent

    return read_once(game, ("recent_events", limit), read)


def game_chat(game: Game, *, limit: int = CHAT_LINES) -> list[ChatMessage]:
    """The chat's last ``limit`` lines, oldest first (once per copy of the game)."""

    def read() -> list[ChatMessage]:
        lines = list(
            ChatMessage.objects.filter(game=game)
            .select_related("player")
            .order_by("-created_at", "-pk")[:limit]
        )
        lines.reverse()
        return lines

    return read_once(game, ("chat", limit), read)
