"""The demo club's league (``runclub``): a Napad league with a season in progress, its
first round's table being played and one club-night result already counted."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from games.models import League, Membership, Ruleset

from .club_night import ClubNightSeat, club_night_result_enter
from .rounds import round_open, season_create, season_start

DEMO_LEAGUE_SLUG = "club-napad"


def demo_league_ensure(users) -> League | None:
    """Create the demo league for these users (the first organises it), once."""
    if League.objects.filter(slug=DEMO_LEAGUE_SLUG).exists():
        return None
    ruleset = (
        Ruleset.objects.filter(kind="napad", status=Ruleset.Status.PUBLISHED)
        .order_by("slug", "-version")
        .first()
    )
    players = [user.player for user in users]
    if ruleset is None or len(players) < 3:
        return None
    league = League.objects.create(
        name="Club Napad League",
        slug=DEMO_LEAGUE_SLUG,
        description="Tuesday's train robbers, one round every week.",
        kind="napad",
        ruleset=ruleset,
        min_table_size=3,
        max_table_size=4,
    )
    league.organisers.add(players[0])
    Membership.objects.bulk_create([Membership(league=league, player=p) for p in players])
    today = timezone.localdate()
    season = season_create(league=league, starts_on=today - timedelta(days=3), rounds=6)
    season_start(season=season)
    round_open(round_id=season.rounds.get(number=1).pk)
    table = players[:4]
    club_night_result_enter(
        season=season,
        entered_by=players[0],
        is_organiser=True,
        seats=[
            ClubNightSeat(player=player, place=place, score=score)
            for player, place, score in zip(table, [2, 1, 3, 4], [31, 38, 24, 17])
        ],
        played_at=timezone.now() - timedelta(days=1),
    )
    return league
