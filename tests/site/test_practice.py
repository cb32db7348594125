"""Practice ("Play against bots"): one click from the home page or the lobby deals a running
table with hard bots in the other seats and a five-minute clock; clicking again goes back to
it; practice never changes a rating."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playkit import napad_game

from games.models import Game, Rating, RatingHistory
from games.services.leagues import results
from games.services.rulesets import rulesets_install_defaults

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _rulesets(db):
    rulesets_install_defaults()


def _practice(client, table: str):
    return client.post("/games/practice", {"table": table})


@pytest.mark.parametrize("page", ["/", "/games/"])
def test_home_and_lobby_offer_practice_against_bots(alice_client, page):
    html = alice_client.get(page).content.decode()
    assert 'action="/games/practice"' in html
    for table in ("napad", "colt", "colt_time_machine"):
        assert f'name="table" value="{table}"' in html
    assert "Play against bots" in html
    if page == "/games/":
        # The member's own games stay first in the lobby; practice comes after them.
        assert html.index('id="my-games"') < html.index('id="practice-title"')


def test_one_click_deals_a_running_table_with_hard_bots(alice, alice_client):
    response = _practice(alice_client, "napad")
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert game.status == Game.Status.RUNNING and game.practice
    assert game.turn_time_limit == timedelta(minutes=5)
    seats = {seat.position: seat for seat in game.seats.all()}
    assert len(seats) == 4
    assert seats[0].player == alice.player
    assert [seats[p].bot_kind for p in (1, 2, 3)] == ["search"] * 3
    page = alice_client.get(response["Location"]).content.decode()
    assert page.count("Bot (hard)") >= 3


def test_clicking_again_goes_back_to_the_running_practice_table(alice, alice_client):
    first = _practice(alice_client, "colt")["Location"]
    assert _practice(alice_client, "colt")["Location"] == first
    with_machine = _practice(alice_client, "colt_time_machine")["Location"]
    assert with_machine != first
    games = {game.config["time_machine"]: game for game in Game.objects.filter(kind="colt")}
    assert set(games) == {False, True}
    assert _practice(alice_client, "colt_time_machine")["Location"] == with_machine
    # A finished practice game is not resumed: the next click deals a new one.
    Game.objects.filter(pk=games[False].pk).update(status=Game.Status.FINISHED)
    assert _practice(alice_client, "colt")["Location"] not in (first, with_machine)


def test_practice_needs_a_member_and_a_post(client, alice_client):
    assert _practice(client, "napad")["Location"].startswith("/accounts/login/")
    assert alice_client.get("/games/practice").status_code == 405
    response = _practice(alice_client, "chess")
    assert response.status_code == 302 and response["Location"] == "/games/"
    assert not Game.objects.exists()
    assert "no such practice table" in alice_client.get("/games/").content.decode()


def _finished_between(alice, bob, *, practice: bool) -> Game:
    game = napad_game(alice, bob)
    Game.objects.filter(pk=game.pk).update(
        practice=practice, status=Game.Status.FINISHED, finished_at=timezone.now()
    )
    for seat in game.seats.all():
        seat.place = 1 if seat.player == alice.player else 2
        seat.save(update_fields=["place"])
    return game


def test_a_practice_game_changes_no_rating(alice, bob):
    practice = _finished_between(alice, bob, practice=True)
    assert results.game_results_record(practice.pk)
    assert not RatingHistory.objects.exists() and not Rating.objects.exists()
    # The same result at an ordinary table is rated.
    ordinary = _finished_between(alice, bob, practice=False)
    assert results.game_results_record(ordinary.pk)
    assert RatingHistory.objects.filter(record__game=ordinary).count() == 2
    # And a recompute from the ledger still leaves practice out.
    from games.services.leagues.ratings import ratings_replay

    ratings_replay("napad")
    assert not RatingHistory.objects.filter(record__game=practice).exists()
