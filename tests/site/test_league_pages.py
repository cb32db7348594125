"""League pages: the list, a league's page, club-night entry and confirmation, balance,
ratings; organiser actions; and no N+1 queries as a league grows."""

from __future__ import annotations

from datetime import date, timedelta
from itertools import count

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.models import Fixture, Game, League, Membership, Season, Standing
from games.services.leagues import results, rounds
from tests.leaguekit import napad_league
from tests.personakit import client_for, member

_names = count(1)


def _members(n):
    users = []
    for _ in range(n):
        name = f"p{next(_names):03d}"
        users.append(member(name))
    return users


@pytest.fixture
def league(db, alice) -> League:
    return napad_league(organisers=[alice])


def _grow(league, members: int, rounds_played: int) -> Season:
    """A running season with ``members`` more members and ``rounds_played`` rounds whose
    games all finished and were recorded."""
    users = _members(members)
    Membership.objects.bulk_create(
        [Membership(league=league, player=u.player) for u in users], ignore_conflicts=True
    )
    season = league.seasons.filter(status=Season.Status.RUNNING).first()
    if season is None:
        season = rounds.season_create(league=league, starts_on=date(2026, 1, 5), rounds=6)
        rounds.season_start(season=season)
    for division in season.divisions.all():
        division.members.add(*[u.player for u in users])
    for round_ in season.rounds.filter(status="scheduled").order_by("number")[:rounds_played]:
        for fixture in rounds.round_open(round_id=round_.pk):
            game = fixture.game
            seats = list(game.seats.order_by("position"))
            for seat in seats:
                seat.place = seat.position + 1
                seat.score = 40 - 10 * seat.position
                seat.save(update_fields=["place", "score"])
            Game.objects.filter(pk=game.pk).update(
                status=Game.Status.FINISHED, finished_at=timezone.now()
            )
            results.game_results_record(game.pk)
    return season


def test_it_lists_leagues(league, alice_client):
    response = alice_client.get(reverse("league_list"))
    assert response.status_code == 200
    assert "Tuesday Napad" in response.content.decode()


def test_it_shows_standings_rounds_and_links_to_games(league, alice_client):
    season = _grow(league, 7, 1)
    # Round 2 is being played: its seats show the place the ratings expect.
    rounds.round_open(round_id=season.rounds.get(number=2).pk)
    response = alice_client.get(reverse("league_detail", args=[league.slug]))
    body = response.content.decode()
    assert response.status_code == 200
    leader = Standing.objects.filter(season=season).order_by("rank").first()
    assert leader.player.display_name in body
    game = Fixture.objects.filter(season=season).first().game
    assert reverse("game_detail", args=[game.pk]) in body
    assert "Round 2" in body and "Round 3" in body
    assert "expected" in body
    assert "Open this round now" in body


def test_league_page_queries_do_not_grow_with_the_league(league, alice_client):
    url = reverse("league_detail", args=[league.slug])
    _grow(league, 6, 1)
    alice_client.get(url)  # warm up caches (sessions, content types)
    with CaptureQueriesContext(connection) as small:
        assert alice_client.get(url).status_code == 200
    _grow(league, 9, 2)
    with CaptureQueriesContext(connection) as large:
        assert alice_client.get(url).status_code == 200
    assert len(large) == len(small)


@pytest.mark.parametrize("page", ["league_list", "league_balance", "player_ratings"])
def test_other_league_pages_do_not_grow_with_the_league(
    league, alice, alice_client, page, django_assert_max_num_queries
):
    args = {"league_list": [], "league_balance": [league.slug], "player_ratings": []}[page]
    _grow(league, 6, 1)
    member = Standing.objects.order_by("-games").first().player.user.username
    url = reverse(page, args=args or ([member] if page == "player_ratings" else []))
    alice_client.get(url)
    with CaptureQueriesContext(connection) as small:
        assert alice_client.get(url).status_code == 200
    _grow(league, 9, 2)
    with django_assert_max_num_queries(len(small)):
        response = alice_client.get(url)
    assert response.status_code == 200


def test_the_rating_page_draws_the_history_chart(league, alice_client):
    _grow(league, 6, 2)
    member = Standing.objects.order_by("-games").first().player.user.username
    body = alice_client.get(reverse("player_ratings", args=[member])).content.decode()
    assert "<svg" in body and "<polyline" in body
    assert "Recent games" in body


def test_the_balance_page_shows_gangs_and_seats(league, alice_client):
    _grow(league, 7, 1)
    body = alice_client.get(reverse("league_balance", args=[league.slug])).content.decode()
    assert "Win rate" in body and "Seats" in body


def test_a_member_joins_and_leaves(league, bob, bob_client):
    join = reverse("league_join", args=[league.slug])
    assert bob_client.post(join).status_code == 302
    assert Membership.objects.get(league=league, player=bob.player).status == "active"
    bob_client.post(reverse("league_leave", args=[league.slug]))
    assert Membership.objects.get(league=league, player=bob.player).status == "left"


def test_only_organisers_open_rounds(league, alice_client, bob_client):
    season = _grow(league, 6, 0)
    round_ = season.rounds.get(number=1)
    url = reverse("league_round_open", args=[league.slug, round_.pk])
    assert bob_client.post(url).status_code == 403
    assert alice_client.post(url).status_code == 302
    assert Fixture.objects.filter(round=round_).count() == 2


def test_organiser_plans_and_starts_a_season(league, alice_client):
    response = alice_client.post(
        reverse("league_season_create", args=[league.slug]),
        {"starts_on": (timezone.localdate() + timedelta(days=3)).isoformat(), "rounds": 4},
    )
    assert response.status_code == 302
    season = league.seasons.get()
    assert season.status == Season.Status.DRAFT and season.rounds.count() == 4
    alice_client.post(reverse("league_season_start", args=[league.slug, season.number]))
    assert Season.objects.get(pk=season.pk).status == Season.Status.RUNNING


def test_club_night_result_entered_by_a_player_and_confirmed_by_another(
    league, alice, bob, charlie
):
    _grow(league, 0, 0)
    for user in (bob, charlie):
        Membership.objects.create(league=league, player=user.player)
    Membership.objects.create(league=league, player=alice.player)
    dave = _members(1)[0]
    Membership.objects.create(league=league, player=dave.player)
    url = reverse("league_result_new", args=[league.slug])
    bob_client = client_for(bob)
    assert bob_client.get(url).status_code == 200
    response = bob_client.post(
        url,
        {
            "played_on": timezone.localdate().isoformat(),
            "player_1": bob.player.pk,
            "place_1": 1,
            "score_1": 30,
            "player_2": charlie.player.pk,
            "place_2": 2,
            "score_2": 20,
            "player_3": dave.player.pk,
            "place_3": 3,
            "score_3": 10,
        },
    )
    assert response.status_code == 302
    fixture = Fixture.objects.get(face_to_face=True)
    assert fixture.status == Fixture.Status.PENDING
    page = client_for(charlie).get(reverse("league_detail", args=[league.slug])).content.decode()
    confirm = reverse("league_result_confirm", args=[league.slug, fixture.pk])
    assert confirm in page
    assert bob_client.post(confirm).status_code == 302
    assert Fixture.objects.get(pk=fixture.pk).status == Fixture.Status.PENDING
    client_for(charlie).post(confirm)
    assert Fixture.objects.get(pk=fixture.pk).status == Fixture.Status.FINISHED
    standing = Standing.objects.get(player=bob.player)
    assert standing.points == 4.0 and standing.wins == 1


def test_a_bad_club_night_result_shows_the_problem(league, alice, alice_client, bob, charlie):
    _grow(league, 0, 0)
    for user in (alice, bob, charlie):
        Membership.objects.create(league=league, player=user.player)
    response = alice_client.post(
        reverse("league_result_new", args=[league.slug]),
        {
            "played_on": timezone.localdate().isoformat(),
            "player_1": alice.player.pk,
            "place_1": 1,
            "player_2": bob.player.pk,
            "place_2": 3,
            "player_3": charlie.player.pk,
            "place_3": 3,
        },
    )
    assert response.status_code == 200
    assert "Places must run" in response.content.decode()
    assert not Fixture.objects.exists()


def test_the_leaderboard_lists_rated_members(league, alice_client):
    _grow(league, 6, 1)
    response = alice_client.get(reverse("rating_list") + "?kind=napad")
    assert response.status_code == 200
    assert response.content.decode().count(reverse("player_ratings", args=["p001"])[:-5]) >= 1


def test_the_expected_places_line_renders_for_a_league_game(league):
    from django.template.loader import render_to_string

    from games.table.templating import expected_places

    season = _grow(league, 6, 0)
    fixture = rounds.round_open(round_id=season.rounds.get(number=1).pk)[0]
    html = render_to_string(
        "leagues/expected_places.html", expected_places(fixture.game), using="jinja2"
    )
    assert "Tuesday Napad" in html and "round 1" in html
    assert html.count("<li>") == fixture.game.seats_count
