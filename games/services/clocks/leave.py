"""Vacation / leave: a member declares days away; their clocks do not run during them.

The rule: a decision's clock counts only time *outside* its member's leave. A turn that
starts (or is running) when leave begins keeps what it had left and resumes when the leave
ends; reminders fall at the same points of the *running* time, so none arrive during leave.
Leave is only ever what the member declared (nothing switches on by itself), days are whole
days in the member's own time zone, and tablemates see it (``players_on_leave``, a notice in
each running game's log). A league may cap the days per season. How leave pauses a clock is
read in games/services/clocks/leave_time.py, which the deadlines use.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games.models import Game, Leave, Membership, Player, Season, Seat
from games.services.notifications import table_notice_post

from .deadlines import turn_clock_refresh
from .leave_time import leave_days_used, player_today

DEFAULT_MAX_LEAVE_DAYS = 30
# How far ahead a member may plan leave.
LEAVE_HORIZON_DAYS = 365


class LeaveError(Exception):
    def __init__(self, message: str, *, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field


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
    for seat in _running_seats(player):
        if seat.position in (seat.game.to_move or []):
            turn_clock_refresh(seat.game)
