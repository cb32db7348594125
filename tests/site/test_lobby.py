"""The lobby and the table form: what each member sees, and errors next to their fields."""

from __future__ import annotations

import re

import pytest
from playkit import napad_game, napad_ruleset, napad_table, play_one, play_to_end, user_to_move

from games.models import Game, Invitation

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def _section(html: str, title_id: str) -> str:
    start = html.index(f'id="{title_id}"')
    end = html.find("</section>", start)
    return html[start:end]


def test_it_sends_visitors_to_log_in(client):
    assert client.get("/games/").status_code == 302
    assert client.get("/games/new").status_code == 302


def test_my_games_put_my_turn_first(alice, bob, alice_client):
    games = [napad_game(alice, bob) for _ in range(4)]
    # Early in a round the turn alternates: one move hands it to the other player.
    for index, game in enumerate(games):
        wanted = alice if index % 2 else bob
        if user_to_move(game, [alice, bob]) != wanted:
            assert play_one(game, [alice, bob]).ok
    mine = {g.pk for g in games if user_to_move(g, [alice, bob]) == alice}
    assert len(mine) == 2
    html = _section(alice_client.get("/games/").content.decode(), "my-games")
    order = [int(pk) for pk in re.findall(r'href="/games/(\d+)/"', html)]
    assert len(order) == 4 and set(order[:2]) == mine
    assert html.count("your turn") == 2


def test_open_tables_show_invitations_but_not_others_private_tables(
    alice, bob, charlie, bob_client
):
    public = napad_table(alice, seats=2)
    private = napad_table(alice, seats=2, invite_only=True, invitees=[bob.player])
    hidden = napad_table(charlie, seats=2, invite_only=True)
    html = _section(bob_client.get("/games/").content.decode(), "open-tables")
    assert f'/games/{public.pk}/"' in html and f'/games/{private.pk}/"' in html
    assert f'/games/{hidden.pk}/"' not in html


def test_finished_games_are_listed(alice, bob, alice_client):
    game = play_to_end(napad_game(alice, bob), [alice, bob])
    html = _section(alice_client.get("/games/").content.decode(), "finished-games")
    assert f'/games/{game.pk}/"' in html


def test_the_form_shows_each_error_next_to_its_field(alice, alice_client):
    response = alice_client.post(
        "/games/new",
        {
            "ruleset": napad_ruleset().pk,
            "seats": 9,
            "turn_time_limit": "1h",
            "invitees": "nobody_here",
            "bot_4": "random",
        },
    )
    assert response.status_code == 200
    form = response.context["form"]
    assert set(form.errors) >= {"seats", "invitees"}
    html = response.content.decode()
    fields = html.split('<div class="field')
    for name in ("seats", "invitees"):
        (field_html,) = [chunk for chunk in fields if f'id="id_{name}"' in chunk]
        assert 'class="field__error"' in field_html
    assert not Game.objects.exists()


def test_a_bot_seat_beyond_the_table_is_an_error_on_that_seat(alice, alice_client):
    response = alice_client.post(
        "/games/new",
        {"ruleset": napad_ruleset().pk, "seats": 2, "turn_time_limit": "1h", "bot_3": "random"},
    )
    assert "bot_3" in response.context["form"].errors


def test_a_table_with_only_bots_is_refused(alice, alice_client):
    response = alice_client.post(
        "/games/new",
        {
            "ruleset": napad_ruleset().pk,
            "seats": 2,
            "turn_time_limit": "1h",
            "bot_0": "random",
            "bot_1": "random",
        },
    )
    assert response.status_code == 200
    assert "Leave at least one seat for a member." in response.content.decode()
    assert not Game.objects.exists()


def test_it_creates_an_invite_only_table_with_bots(alice, bob, alice_client):
    response = alice_client.post(
        "/games/new",
        {
            "ruleset": napad_ruleset().pk,
            "seats": 3,
            "turn_time_limit": "72h",
            "option_napad_variant_a_bullets": "on",
            "bot_0": "heuristic",
            "invite_only": "on",
            "invitees": "bob",
        },
    )
    game = Game.objects.get()
    assert response["Location"] == f"/games/{game.pk}/"
    assert game.invite_only and game.config["variant_a_bullets"] is True
    assert game.seats.get(position=0).bot_kind == "heuristic"
    assert game.seats.get(position=1).player == alice.player
    assert Invitation.objects.filter(game=game, player=bob.player).exists()


def test_join_leave_start_and_cancel_from_the_page(alice, bob, alice_client, bob_client):
    game = napad_table(alice, seats=2)
    page = bob_client.get(f"/games/{game.pk}/").content.decode()
    assert "Take a seat" in page and "free seat" in page
    joined = bob_client.post(f"/games/{game.pk}/join", **HTMX).content.decode()
    assert "You took a seat." in joined and "Leave the table" in joined
    left = bob_client.post(f"/games/{game.pk}/leave")
    assert left.status_code == 302 and left["Location"] == "/games/"
    refused = alice_client.post(f"/games/{game.pk}/start", **HTMX).content.decode()
    assert "Wait until every seat is taken." in refused
    bob_client.post(f"/games/{game.pk}/join", **HTMX)
    started = alice_client.post(f"/games/{game.pk}/start", **HTMX).content.decode()
    assert "The game has started." in started
    assert Game.objects.get(pk=game.pk).status == Game.Status.RUNNING
    other = napad_table(alice, seats=2)
    assert "cancelled" in alice_client.post(f"/games/{other.pk}/cancel", **HTMX).content.decode()
    assert Game.objects.get(pk=other.pk).status == Game.Status.CANCELLED


def test_the_form_tags_each_ruleset_with_its_game(alice_client):
    napad_ruleset()
    html = alice_client.get("/games/new").content.decode()
    assert 'data-kind="napad"' in html and 'data-kind="colt"' in html
    assert 'data-options-for="napad"' in html and 'data-options-for="colt"' in html
