"""The admin for tables: read-only, never showing a running game's state or seed."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from playkit import napad_game, play_one, play_to_end

from games.models import GameEvent

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client_() -> Client:
    user = get_user_model().objects.create_superuser("root", "root@example.org", "x")
    client = Client()
    client.force_login(user)
    return client


def test_the_game_admin_hides_the_state_and_the_seed_of_a_running_game(admin_client_, alice, bob):
    game = napad_game(alice, bob)
    play_one(game, [alice, bob])
    listing = admin_client_.get("/admin/games/game/").content.decode()
    change = admin_client_.get(f"/admin/games/game/{game.pk}/change/")
    assert change.status_code == 200
    for html in (listing, change.content.decode()):
        assert game.seed not in html
        assert "hideouts" not in html
    assert "secret until the game ends" in change.content.decode()


def test_the_game_admin_shows_the_seed_after_the_end(admin_client_, alice, bob):
    game = play_to_end(napad_game(alice, bob), [alice, bob])
    html = admin_client_.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert game.seed in html


def test_games_and_events_cannot_be_added_or_edited_by_hand(admin_client_, alice, bob):
    game = napad_game(alice, bob)
    play_one(game, [alice, bob])
    event = GameEvent.objects.get(game=game)
    assert admin_client_.get("/admin/games/game/add/").status_code == 403
    assert admin_client_.get("/admin/games/gameevent/add/").status_code == 403
    response = admin_client_.get(f"/admin/games/gameevent/{event.pk}/change/")
    assert response.status_code == 200 and 'name="_save"' not in response.content.decode()
    assert admin_client_.post(f"/admin/games/gameevent/{event.pk}/delete/").status_code == 403
    assert GameEvent.objects.filter(pk=event.pk).exists()


def test_seats_are_listed_read_only(admin_client_, alice, bob):
    game = napad_game(alice, bob)
    seat = game.seats.first()
    assert admin_client_.get("/admin/games/seat/").status_code == 200
    page = admin_client_.get(f"/admin/games/seat/{seat.pk}/change/").content.decode()
    assert 'name="_save"' not in page
