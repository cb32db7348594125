"""Vacation / leave: a member declares days away; their clocks do not run during them.

The rule: a decision's clock counts only time *outside* its member's leave. A turn that
starts (or is running) when leave begins keeps what it had left and resumes when the leave
ends; reminders fall at the same points of the *running* time, so none arrive during leave.
Leave is only ever what the member declared (nothing switches on by itself), days are whole
days in the member's own time zone, and tablemates see it (``players_on_leave``, a notice in
each running game's log). A league may cap the days per season: ``leave_days_used`` counts a
member's declared days inside any period.
"""

from __future__ import annotations

import zoneinfo
from datetime import date, datetime, time, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games.models import Game, Leave, Membership, Player, Season, Seat
from games.selectors import clock_known_empty, read_once

DEFAULT_MAX_LEAVE_DAYS = 30
# How far ahead a member may plan leave.
LEAVE_HORIZON_DAYS = 365


class LeaveError(Exception):
    def __init__(self, message: str, *, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field


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
    query per copy of the game (games/selectors.py ``read_once``), shared by the move's turn
    clock and the clock panel of its answer ("Alice is away"), which ask for the same day."""
    members = tuple(sorted({seat.player_id for seat in seats if seat.player_id is not None}))
    if clock_known_empty(game, "leave") and since >= game.clock_none_leave_from:
        return []  # the game's own query found none (games/selectors.py _clock_hints)
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


def league_leave_problem(*, player: Player, start: date, end: date) -> str | None:
    """Why leave from ``start`` to ``end`` would break a league's per-season cap (which
    :func:`leave_declare` asks before accepting), or ``None``. Here rather than with the
    leagues, which sit above the clocks (they open tables): it reads only league rows."""
    seasons = Season.objects.filter(
        status=Season.Status.RUNNING,
        league__memberships__player=player,
        league__memberships__status=Membership.Status.ACTIVE,
    ).select_related("league")
    for season in seasons:
        season_end = season.ends_on or end
        if start > season_end or end < season.starts_on:
            continue
        # Only the days inside this season count against its cap.
        asked = (min(end, season_end) - max(start, season.starts_on)).days + 1
        used = leave_days_used(player, season.starts_on, season_end)
        cap = season.league.leave_days_per_season
        if used + asked > cap:
            return _(
                "%(league)s allows %(cap)s days of leave per season; you have %(left)s left."
            ) % {"league": season.league.name, "cap": cap, "left": max(0, cap - used)}
    return None


def leave_declare(
    *, player: Player, start: date, end: date, reason: str = "", now: datetime | None = None
) -> Leave:
    """The member declares leave. Their running clocks are moved at once and their tables
    are told."""
    today = player_today(player, now)
    max_days = getattr(settings, "NAPAD_MAX_LEAVE_DAYS", DEFAULT_MAX_LEAVE_DAYS)
    if start < today:
        raise LeaveError(_("Leave can start today at the earliest."), field="start")
    if end < start:
        raise LeaveError(_("The last day comes before the first."), field="end")
    if start > today + timedelta(days=LEAVE_HORIZON_DAYS):
        raise LeaveError(_("Plan leave at most a year ahead."), field="start")
    if (end - start).days + 1 > max_days:
        raise LeaveError(
            _("One leave lasts at most %(days)s days.") % {"days": max_days}, field="end"
        )
    if Leave.objects.filter(player=player, start__lte=end, end__gte=start).exists():
        raise LeaveError(_("This overlaps leave you already declared."), field="start")
    league_problem = league_leave_problem(player=player, start=start, end=end)
    if league_problem:
        raise LeaveError(league_problem, field="end")
    with transaction.atomic():
        leave = Leave.objects.create(player=player, start=start, end=end, reason=reason.strip())
        _tables_tell(player, leave)
        _player_clocks_refresh(player)
    return leave


def leave_cancel(*, player: Player, leave_id: int, now: datetime | None = None) -> None:
    """Cancel planned leave, or end current leave today (days already away stay counted)."""
    today = player_today(player, now)
    leave = Leave.objects.filter(player=player, pk=leave_id).first()
    if leave is None:
        raise LeaveError(_("There is no such leave."))
    if leave.end < today:
        raise LeaveError(_("That leave is over already."))
    with transaction.atomic():
        if leave.start >= today:
            leave.delete()
        else:
            # The leave ends with yesterday: today the clocks run again.
            Leave.objects.filter(pk=leave.pk).update(end=today - timedelta(days=1))
        _player_clocks_refresh(player)


def _running_seats(player: Player):
    return Seat.objects.filter(player=player, game__status=Game.Status.RUNNING).select_related(
        "game"
    )


def _tables_tell(player: Player, leave: Leave) -> None:
    from games.services.notifications import table_notice_post

    for seat in _running_seats(player):
        table_notice_post(
            game=seat.game,
            kind="leave",
            text=gettext_noop(
                "%(name)s is on leave from %(start)s to %(end)s; their clock pauses."
            ),
            args={"name": player.display_name, "start": str(leave.start), "end": str(leave.end)},
        )


def _player_clocks_refresh(player: Player) -> None:
    """Recompute the deadline of every running decision this member owes."""
    from .deadlines import turn_clock_refresh

    for seat in _running_seats(player):
        if seat.position in (seat.game.to_move or []):
            turn_clock_refresh(seat.game)
