"""Leagues and ratings through the API: the list, a season's standings, a leaderboard."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Rating
from tests.leaguekit import napad_league

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(alice, bob, charlie, rulesets):
    return napad_league(
        members=[alice, bob, charlie], season_rounds=2, min_table_size=2, max_table_size=3
    )


def test_it_lists_the_leagues(alice_api, league):
    for path in ("/api/leagues/", "/api/leagues"):
        response = alice_api.get(path)
        assert response.status_code == 200
        [row] = response.json()
        assert row["id"] == league.pk
        assert row["slug"] == "tuesday-napad"
        assert row["kind"] == "napad"
        assert row["members"] == 3
        assert row["season"]["number"] == 1
        assert row["season"]["status"] == "running"


def test_it_shows_a_seasons_standings_by_slug_or_id(alice_api, league):
    by_slug = alice_api.get("/api/leagues/tuesday-napad/standings")
    assert by_slug.status_code == 200
    body = by_slug.json()
    assert body["league"] == "tuesday-napad"
    assert body["season"]["number"] == 1
    assert [t["key"] for t in body["tie_breaks"]] == league.tie_breaks
    usernames = {row["player"]["username"] for d in body["divisions"] for row in d["rows"]}
    assert usernames == {"alice", "bob", "charlie"}
    assert alice_api.get(f"/api/leagues/{league.pk}/standings").json() == body
    assert alice_api.get("/api/leagues/tuesday-napad/standings", season=1).json() == body


def test_unknown_leagues_and_seasons_are_not_found(alice_api, league):
    assert alice_api.get("/api/leagues/nope/standings").status_code == 404
    assert alice_api.get("/api/leagues/99999/standings").status_code == 404
    missing = alice_api.get("/api/leagues/tuesday-napad/standings", season=7)
    assert missing.status_code == 404
    assert missing.json() == {"detail": "This league has no such season."}
    assert alice_api.get("/api/leagues/tuesday-napad/standings", season=0).status_code == 422


def test_it_shows_the_ratings_leaderboard(alice_api, alice, bob):
    Rating.objects.create(player=alice.player, kind="napad", mu=32.0, sigma=2.0, games=12)
    Rating.objects.create(player=bob.player, kind="napad", mu=20.0, sigma=2.0, games=12)
    Rating.objects.create(player=bob.player, kind="colt", mu=30.0, sigma=2.0, games=12)
    body = alice_api.get("/api/ratings/napad").json()
    assert body["kind"] == "napad"
    assert [row["player"]["username"] for row in body["rows"]] == ["alice", "bob"]
    assert body["rows"][0]["rating"] > body["rows"][1]["rating"]
    assert [r["player"]["username"] for r in alice_api.get("/api/ratings/colt").json()["rows"]] == [
        "bob"
    ]
    assert alice_api.get("/api/ratings/chess").status_code == 422


def test_league_reads_need_a_member(db):
    for path in ("/api/leagues/", "/api/leagues/x/standings", "/api/ratings/napad"):
        assert Client().get(path).status_code == 401
