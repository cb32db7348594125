"""How leave pauses a turn clock: a member's declared leave as instant ranges, and the instant
at which a clock's running time has passed outside them.

The rule (games/services/clocks/leave.py declares and cancels leave): a decision's clock
counts only time *outside* its member's leave; days are whole days in the member's own time
zone. These reads are what the deadlines (games/services/clocks/deadlines.py), the digest and
the table's "away until" line are computed from.
"""

from __future__ import annotations

import zoneinfo
from datetime import date, datetime, time, timedelta

from django.db.models import F
from django.utils import timezone

from games.models import Game, Leave, Player, Seat
from games.selectors.tables import clock_known_empty, read_once


def _zone(player: Player) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(player.time_zone or "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def player_today(player: Player, now: datetime | None = None) -> date:
    return (now or timezone.now()).astimezone(_zone(player)).date()


def leave_bounds(leave: Leave, player: Player) -> tuple[datetime, datetime]:
    """The leave as an instant range: from the first day's midnight to the day after the
    last, in the member's time zone."""
    zone = _zone(player)
    start = datetime.combine(leave.start, time.min, tzinfo=zone)
    end = datetime.combine(leave.end + timedelta(days=1), time.min, tzinfo=zone)
    return start, end


def leave_intervals(player: Player | None, after: datetime) -> list[tuple[datetime, datetime]]:
    """The member's leave that has not ended by ``after``, as sorted instant ranges."""
    if player is None:
        return []
    # A day of slack either side covers any time zone offset when comparing dates.
    leaves = Leave.objects.filter(player=player, end__gte=(after - timedelta(days=1)).date())
    intervals = [leave_bounds(leave, player) for leave in leaves]
    return sorted((start, end) for start, end in intervals if end > after)


def _seated_leaves(game: Game, seats: list[Seat], since: date) -> list[Leave]:
    """The leave of every member seated at ``game`` that has not ended before ``since``: one
    query per copy of the game (games/selectors/tables.py ``read_once``), shared by the move's turn
    clock and the clock panel of its answer ("Alice is away"), which ask for the same day."""
    members = tuple(sorted({seat.player_id for seat in seats if seat.player_id is not None}))
    if clock_known_empty(game, "leave", since=since):
        return []  # the game's own query found none (games/selectors/tables.py _clock_hints)
    return read_once(
        game,
        ("seated_leaves", members, since),
        lambda: list(Leave.objects.filter(player_id__in=members, end__gte=since)),
    )


def seat_leave_intervals(
    game: Game, position: int, after: datetime, seats: list[Seat] | None = None
) -> list[tuple[datetime, datetime]]:
    """The leave of whoever holds seat ``position`` of ``game`` (one query; none for a bot).

    ``seats``: the game's seats with their players, freshly read in the caller's transaction
    (the play service has them): the leave is then read by the member's id, without a join,
    and no query at all when a bot or nobody holds the seat."""
    if seats is not None and all(Seat.player.is_cached(s) for s in seats):
        seat = next((s for s in seats if s.position == position), None)
        if seat is None or seat.bot_kind != "" or seat.player is None:
            return []
        player = seat.player
        since = (after - timedelta(days=1)).date()
        seated = _seated_leaves(game, seats, since)
        mine = [leave for leave in seated if leave.player_id == player.pk]
        intervals = [leave_bounds(leave, player) for leave in mine]
        return sorted((start, end) for start, end in intervals if end > after)
    leaves = Leave.objects.filter(
        player__seats__game=game,
        player__seats__position=position,
        player__seats__bot_kind="",
        end__gte=(after - timedelta(days=1)).date(),
    ).select_related("player")
    intervals = [leave_bounds(leave, leave.player) for leave in leaves]
    return sorted((start, end) for start, end in intervals if end > after)


def clock_instant(
    start: datetime, running: timedelta, intervals: list[tuple[datetime, datetime]]
) -> datetime:
    """The instant at which ``running`` time has passed since ``start``, not counting the
    (sorted) leave ``intervals``."""
    moment, remaining = start, running
    for leave_start, leave_end in intervals:
        if leave_end <= moment:
            continue
        if leave_start >= moment + remaining:
            break
        if leave_start > moment:
            remaining -= leave_start - moment
        moment = max(moment, leave_end)
    return moment + remaining


def player_on_leave(player: Player, now: datetime | None = None) -> Leave | None:
    today = player_today(player, now)
    return Leave.objects.filter(player=player, start__lte=today, end__gte=today).first()


def players_on_leave(
    game: Game, now: datetime | None = None, seats: list[Seat] | None = None
) -> list[dict]:
    """Seated members of ``game`` on leave now: ``[{"seat", "player", "leave"}]`` for the game
    page ("Alice is away until 12 May"). One query (none when no member is seated).

    ``seats``: the game's seats with their players, when the page has them already: the leave
    is then read by the members' ids, without joining the seats again."""
    now = now or timezone.now()
    if seats is not None and all(Seat.player.is_cached(s) for s in seats):
        seated: dict[int, list[Seat]] = {}
        for seat in seats:
            if seat.player_id is not None:
                seated.setdefault(seat.player_id, []).append(seat)
        if not seated:
            return []
        away = []
        latest_start = (now + timedelta(days=1)).date()
        for leave in _seated_leaves(game, seats, (now - timedelta(days=1)).date()):
            if leave.start > latest_start:
                continue
            for seat in seated[leave.player_id]:
                leave.player = seat.player
                if leave.start <= player_today(seat.player, now) <= leave.end:
                    away.append({"seat": seat.position, "player": seat.player, "leave": leave})
        return sorted(away, key=lambda row: row["seat"])
    # A day of slack either side: "today" depends on each member's time zone.
    leaves = (
        Leave.objects.filter(
            player__seats__game=game,
            start__lte=(now + timedelta(days=1)).date(),
            end__gte=(now - timedelta(days=1)).date(),
        )
        .annotate(position=F("player__seats__position"))
        .select_related("player")
    )
    away = []
    for leave in leaves:
        if leave.start <= player_today(leave.player, now) <= leave.end:
            away.append({"seat": leave.position, "player": leave.player, "leave": leave})
    return sorted(away, key=lambda row: row["seat"])


def leave_days_used(player: Player, start: date, end: date) -> int:
    """Days of declared leave between ``start`` and ``end`` (both included): what a league
    compares with its per-season cap."""
    used = 0
    for leave in Leave.objects.filter(player=player, start__lte=end, end__gte=start):
        first, last = max(leave.start, start), min(leave.end, end)
        used += (last - first).days + 1
    return used
