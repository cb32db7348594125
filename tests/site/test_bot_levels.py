"""Bot levels on the site: the table form offers easy / medium / hard per bot seat, a seat
names its bot by level, the moderator's form starts at the table's stand-in level, the
balance simulation offers levels, and seats stored before levels existed keep their bots."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playkit import napad_game, napad_ruleset

from games.models import Game, Seat
from games.services import turns
from games.services.clocks.deadlines import clock_policy_set
from tests.personakit import client_for, moderator, rules_editor

pytestmark = pytest.mark.django_db


def _options(page: str, name: str) -> list[tuple[str, str]]:
    select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', page, re.S).group(1)
    return re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', select)


def test_the_table_form_offers_a_level_per_bot_seat(alice, alice_client):
    napad_ruleset()
    page = alice_client.get("/games/new").content.decode()
    assert _options(page, "bot_1") == [
        ("", "a member"),
        ("random", "bot: easy"),
        ("heuristic", "bot: medium"),
        ("search", "bot: hard"),
    ]


def test_a_table_with_a_hard_bot_names_the_seat_by_its_level(alice, alice_client):
    response = alice_client.post(
        "/games/new",
        {"ruleset": napad_ruleset().pk, "seats": 2, "turn_time_limit": "1h", "bot_1": "search"},
    )
    game = Game.objects.get()
    assert response["Location"] == f"/games/{game.pk}/"
    assert game.seats.get(position=1).bot_kind == "search"
    page = alice_client.get(f"/games/{game.pk}/").content.decode()
    assert "Bot (hard)" in page
    lobby = alice_client.get("/games/").content.decode()
    # The lobby's table row names the seat as the table does.
    assert "Bot (hard)" in lobby and "(search)" not in lobby


def test_the_polish_pages_name_the_levels_in_polish(alice, alice_client):
    game = napad_game(alice, bot_seats={1: "search"})
    alice.player.language = "pl"
    alice.player.save()
    page = alice_client.get(f"/games/{game.pk}/", HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert "(trudny)" in page


def test_seats_stored_before_levels_keep_their_bots(alice):
    game = napad_game(alice, bot_seats={1: "heuristic", 2: "random"})
    game.refresh_from_db()
    while game.status == Game.Status.RUNNING and game.to_move[0] in (1, 2):
        assert turns.bot_move_play(game.pk, game.version).ok
        game.refresh_from_db()
    names = {seat.position: seat for seat in game.seats.all()}
    assert (names[1].bot_kind, names[2].bot_kind) == ("heuristic", "random")


def test_a_hard_bot_plays_its_turn_through_the_bot_move_service(alice):
    game = napad_game(alice, bot_seats={1: "search"})
    game.refresh_from_db()
    if game.to_move != [1]:
        from playkit import play_one

        assert play_one(game, [alice]).ok
        game.refresh_from_db()
    assert game.to_move == [1]
    version = game.version
    result = turns.bot_move_play(game.pk, version)
    assert result.ok
    assert game.events.get(seq=version + 1).seat == 1


def test_the_moderators_form_starts_at_the_tables_stand_in_level(alice, bob):
    game = napad_game(alice, bob)
    clock_policy_set(game=game, stand_in_level="hard")
    client = client_for(moderator())
    url = reverse("admin:games_game_moderate", args=[game.pk, "seat-bot"])
    page = client.get(url).content.decode()
    choices = _options(page, "bot_kind")
    assert [label for _value, label in choices] == ["bot: easy", "bot: medium", "bot: hard"]
    assert re.search(r'<option value="search"[^>]*selected', page)
    bob_seat = game.seats.get(player__user=bob).position
    assert client.post(url, {"seat": str(bob_seat), "bot_kind": "search"}).status_code == 302
    assert Seat.objects.get(game=game, position=bob_seat).bot_kind == "search"


def test_the_balance_simulation_offers_levels_and_starts_without_the_slow_one(alice):
    ruleset = napad_ruleset()
    client = client_for(rules_editor())
    url = reverse("admin:games_ruleset_simulate", args=[ruleset.pk])
    page = client.get(url).content.decode()
    boxes = re.findall(r'<input type="checkbox" name="bots" value="(\w+)"([^>]*)>', page)
    assert [value for value, _attrs in boxes] == ["random", "heuristic", "search"]
    checked = [value for value, attrs in boxes if "checked" in attrs]
    assert checked == ["random", "heuristic"]
    assert "bot: hard" in page
