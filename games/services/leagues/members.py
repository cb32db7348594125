"""Joining and leaving a league; the organiser's approval where the league asks for it.

A member who joins during a running season goes into its lowest division and is seated from
the next round on. A member who leaves keeps their line in the standings (their games were
played) but is seated no more.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import League, Membership, Player, Season
from games.services.clocks.leave import league_leave_problem  # noqa: F401  (the leagues' rule)

from .rounds import LeagueError
from .standings import season_standings_ensure


def _running_season(league: League) -> Season | None:
    return league.seasons.filter(status=Season.Status.RUNNING).order_by("-number").first()


def _seat_in_lowest_division(league: League, player: Player) -> None:
    for season in league.seasons.exclude(status=Season.Status.FINISHED):
        divisions = list(season.divisions.order_by("level"))
        if divisions and not any(d.members.filter(pk=player.pk).exists() for d in divisions):
            divisions[-1].members.add(player)
        if season.status == Season.Status.RUNNING:
            season_standings_ensure(season)


def membership_join(*, league: League, player: Player) -> Membership:
    """Join (or rejoin) a league: active at once, or pending if the organiser approves."""
    status = Membership.Status.PENDING if league.approval_required else Membership.Status.ACTIVE
    with transaction.atomic():
        membership, created = Membership.objects.select_for_update().get_or_create(
            league=league, player=player, defaults={"status": status}
        )
        if not created:
            if membership.status in (Membership.Status.ACTIVE, Membership.Status.PENDING):
                raise LeagueError(_("You are already in this league."))
            if membership.status == Membership.Status.REJECTED:
                raise LeagueError(_("The organiser did not approve your membership."))
            membership.status = status
            membership.left_at = None
            membership.save(update_fields=["status", "left_at"])
        if membership.status == Membership.Status.ACTIVE:
            _seat_in_lowest_division(league, player)
    return membership


def membership_leave(*, league: League, player: Player) -> Membership:
    membership = Membership.objects.filter(
        league=league,
        player=player,
        status__in=[Membership.Status.ACTIVE, Membership.Status.PENDING],
    ).first()
    if membership is None:
        raise LeagueError(_("You are not in this league."))
    membership.status = Membership.Status.LEFT
    membership.left_at = timezone.now()
    membership.save(update_fields=["status", "left_at"])
    return membership


def membership_decide(*, membership: Membership, approve: bool) -> Membership:
    """The organiser approves or turns down a pending member."""
    with transaction.atomic():
        updated = Membership.objects.filter(
            pk=membership.pk, status=Membership.Status.PENDING
        ).update(status=Membership.Status.ACTIVE if approve else Membership.Status.REJECTED)
        if not updated:
            raise LeagueError(_("This request was already decided."))
        membership.refresh_from_db()
        if approve:
            _seat_in_lowest_division(membership.league, membership.player)
    return membership
