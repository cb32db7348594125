"""The demo club's league: a season in progress with a table and a counted result."""

from __future__ import annotations

from games.models import Fixture, Game, League, Season, Standing
from games.services.leagues.demo import demo_league_ensure


def test_it_creates_the_demo_league_once(make_members, napad_ruleset):
    users = [player.user for player in make_members(4)]
    league = demo_league_ensure(users)
    assert league is not None
    season = league.seasons.get()
    assert season.status == Season.Status.RUNNING
    assert Fixture.objects.filter(season=season, game__status=Game.Status.RUNNING).count() == 1
    assert Fixture.objects.filter(season=season, face_to_face=True, status="finished").exists()
    assert Standing.objects.filter(season=season, games=1).count() == 4
    assert demo_league_ensure(users) is None
    assert League.objects.count() == 1
