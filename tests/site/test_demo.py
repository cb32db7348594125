"""The demo club runclub creates on its first run: members with passwords that log in, tables
under way with bots, an open table, and a league with a season in progress — once."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Game, League
from games.services.demo import demo_club_ensure, demo_logins
from games.services.rulesets import rulesets_install_defaults

pytestmark = pytest.mark.django_db


def test_it_creates_the_demo_club_once(settings, tmp_path):
    settings.VAR_DIR = tmp_path
    rulesets_install_defaults()
    assert demo_club_ensure() is True
    logins = demo_logins()
    assert [username for username, _password in logins] == ["alice", "bob", "carla", "dan"]
    username, password = logins[0]
    assert Client().login(username=username, password=password)
    assert (tmp_path / "demo_logins.json").stat().st_mode & 0o077 == 0
    running = Game.objects.filter(status=Game.Status.RUNNING)
    assert {game.kind for game in running} >= {"napad", "colt"}
    assert any(seat.bot_kind for game in running for seat in game.seats.all())
    assert Game.objects.filter(status=Game.Status.OPEN).exists()
    assert League.objects.filter(seasons__status="running").exists()

    games_before = Game.objects.count()
    assert demo_club_ensure() is False
    assert Game.objects.count() == games_before
    assert demo_logins() == logins


def test_it_creates_a_demo_organiser_with_staff_rights_once(settings, tmp_path):
    from games.services.demo import demo_organiser_ensure, demo_organiser_login

    settings.VAR_DIR = tmp_path
    assert demo_organiser_ensure() is True
    assert demo_organiser_ensure() is False
    username, password = demo_organiser_login()
    client = Client()
    assert client.login(username=username, password=password)
    assert client.get("/admin/games/ruleset/").status_code == 200
    assert client.get("/admin/games/game/").status_code == 200
    assert (tmp_path / "demo_organiser.json").stat().st_mode & 0o077 == 0


def test_the_demo_organiser_is_named_on_the_demo_league(settings, tmp_path):
    """Staff alone organises no league (docs/roles.md): the demo organiser is named on it, so
    the league's organiser forms can be tried with its login, made before or after the club."""
    from games.services.demo import demo_organiser_ensure, demo_organiser_login
    from games.services.leagues.demo import DEMO_LEAGUE_SLUG

    settings.VAR_DIR = tmp_path
    rulesets_install_defaults()
    assert demo_organiser_ensure() is True
    demo_club_ensure()
    # runclub calls both on every start: the second call names it on the league made since.
    assert demo_organiser_ensure() is False
    league = League.objects.get(slug=DEMO_LEAGUE_SLUG)
    username, password = demo_organiser_login()
    assert league.organisers.filter(user__username=username).exists()
    client = Client()
    assert client.login(username=username, password=password)
    page = client.get(f"/leagues/{league.slug}/").content.decode()
    assert 'id="organiser-heading"' in page
