"""Divisions at season end: promotion and relegation, and the next season as a draft.

The league's ``promotion_count`` members at the top of each division below the first go up
one level, and as many at the bottom of each division above the last go down. Members who
left the league are dropped; active members who were in no division start in the lowest one.
The next season is created as a draft with the same divisions and number of rounds, for the
organiser to look over and confirm (``rounds.season_start``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Division, Membership, Player, Round, Season, Standing

from .rounds import LeagueError, season_create
from .standings import season_standings_recompute


def divisions_reshuffle(
    ranked: Sequence[Sequence[int]], moves: int, leavers: set[int] = frozenset()
) -> list[list[int]]:
    """Pure promotion/relegation: ``ranked`` lists each division's members best first, top
    division first. Returns next season's divisions in the same order.

    Never moves more than half a division, so a small division cannot be emptied.
    """
    kept = [[p for p in division if p not in leavers] for division in ranked]
    result = [list(division) for division in kept]
    for upper_index in range(len(kept) - 1):
        upper, lower = kept[upper_index], kept[upper_index + 1]
        count = min(moves, len(upper) // 2, len(lower) // 2)
        if count <= 0:
            continue
        going_down = upper[-count:]
        going_up = lower[:count]
        result[upper_index] = [p for p in result[upper_index] if p not in going_down] + going_up
        result[upper_index + 1] = going_down + [
            p for p in result[upper_index + 1] if p not in going_up
        ]
    return result


def _ranked_divisions(season: Season) -> tuple[list[Division], list[list[int]]]:
    divisions = list(season.divisions.order_by("level").prefetch_related("members"))
    ranks: Mapping[int, tuple[int, float]] = {
        row.player_id: (row.rank, -row.points)
        for row in Standing.objects.filter(season=season).only("player_id", "rank", "points")
    }
    ranked = []
    for division in divisions:
        members = [m.pk for m in division.members.all()]
        members.sort(key=lambda p: ranks.get(p, (10_000, 0.0)) + (p,))
        ranked.append(members)
    return divisions, ranked


def season_finish(*, season: Season) -> Season:
    """End a running season (standings recomputed a last time) and prepare the next one."""
    with transaction.atomic():
        updated = Season.objects.filter(pk=season.pk, status=Season.Status.RUNNING).update(
            status=Season.Status.FINISHED, ends_on=timezone.localdate()
        )
        if not updated:
            raise LeagueError(_("Only a running season can be finished."))
        season.refresh_from_db()
        planned_rounds = season.rounds.count()
        # Rounds not yet opened will not be played.
        season.rounds.filter(status=Round.Status.SCHEDULED).delete()
        season.rounds.filter(status=Round.Status.OPEN).update(status=Round.Status.CLOSED)
        season_standings_recompute(season)
        return season_next_prepare(season=season, rounds=planned_rounds)


def season_next_prepare(*, season: Season, rounds: int | None = None) -> Season:
    """The next season as a draft: divisions after promotion and relegation, and as many
    rounds as this one planned (or ``rounds``)."""
    league = season.league
    memberships = dict(league.memberships.values_list("player_id", "status"))
    leavers = {p for p, status in memberships.items() if status != Membership.Status.ACTIVE}
    divisions, ranked = _ranked_divisions(season)
    next_divisions = divisions_reshuffle(ranked, league.promotion_count, leavers)
    placed = {p for division in next_divisions for p in division}
    newcomers = sorted(p for p, status in memberships.items() if status == Membership.Status.ACTIVE)
    newcomers = [p for p in newcomers if p not in placed]
    if not next_divisions:
        next_divisions = [[]]
    next_divisions[-1].extend(newcomers)
    rounds = rounds or season.rounds.count() or 1
    starts_on = max(season.ends_on or timezone.localdate(), timezone.localdate()) + timedelta(
        days=1
    )
    players = Player.objects.in_bulk([p for division in next_divisions for p in division])
    with transaction.atomic():
        draft = season_create(
            league=league,
            starts_on=starts_on,
            rounds=rounds,
            divisions=[[players[p] for p in division] for division in next_divisions],
            prepared_from=season,
        )
        # Keep the organiser's division names.
        names = {d.level: d.name for d in divisions}
        for division in draft.divisions.all():
            if division.level in names:
                division.name = names[division.level]
                division.save(update_fields=["name"])
    return draft


def seasons_finish_played() -> list[Season]:
    """Finish every running season whose rounds are all closed and whose tables have all
    finished (each prepares its next season as a draft). Returns the drafts prepared."""
    drafts = []
    candidates = (
        Season.objects.filter(status=Season.Status.RUNNING, rounds__isnull=False)
        .exclude(rounds__status__in=[Round.Status.SCHEDULED, Round.Status.OPEN])
        .exclude(fixtures__status__in=["playing", "pending"])
        .distinct()
    )
    for season in candidates:
        try:
            drafts.append(season_finish(season=season))
        except LeagueError:
            # Finished by an organiser a moment ago.
            continue
    return drafts
