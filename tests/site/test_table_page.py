"""The game page for a member who comes back once a day: "since your last visit" (kept per
member in ``TableVisit``), the status line and what the live region says, bots standing in,
the home page's own games, the create form following the ruleset, dates in words, the end
screen's chart and "Watch it". Browser geometry is in tests/e2e/test_table_layout.py."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from html import unescape

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone, translation
from playkit import (
    first_legal,
    napad_game,
    napad_table,
    play_one,
    play_to_end,
    user_to_move,
)

from games.engines import get_engine
from games.models import Game, GameEvent, Ruleset, Seat, TableVisit
from games.selectors.tables import game_events
from games.services.clocks.timeouts import seat_hand_to_bot
from games.services.rulesets import rulesets_install_defaults
from games.table.catchup import catchup_build
from games.templatetags.when_tags import absolute, relative, until_when
from napad_site.asgi import application
from tests.personakit import client_for
from tests.socketkit import session_of, socket_headers

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def _page(client, game) -> str:
    return client.get(f"/games/{game.pk}/").content.decode()


def _panel(html: str) -> str:
    """The "since your last visit" panel of a page ("" when there is none)."""
    start = html.find('<section class="since"')
    return html[start : html.index('<div id="watch-steps"', start)] if start >= 0 else ""


def _round_played(game, users) -> None:
    """Play until the first round's loot is divided (the second round begins)."""
    engine = get_engine("napad")
    for _ in range(200):
        game.refresh_from_db()
        if engine.from_json(game.state)["round"] >= 2:
            return
        assert play_one(game, users).ok
    raise AssertionError("the round did not end")


# --- since your last visit ---------------------------------------------------------------


def test_it_tells_a_member_what_happened_since_their_last_visit(alice, bob, charlie):
    game = napad_game(alice, bob)
    # Charlie watches (a player's own moves are not news to them: see the next tests).
    alice_client = client_for(charlie)
    assert 'class="since"' not in _page(alice_client, game)
    seen = game.version
    _round_played(game, [alice, bob])
    game.refresh_from_db()

    page = _page(alice_client, game)
    panel = _panel(page)
    assert "Since your last visit" in panel
    moves = game.version - seen
    assert f"{moves} moves" in panel
    assert "Round 1 · It's a robbery!" in unescape(panel) and "Dividing the loot" in panel
    assert "Round 2 · It's a robbery!" in unescape(panel)
    # The loot division as a table: one row per colour, one column per gang, a result.
    division = panel[panel.index('<table class="division">') : panel.index("</table>")]
    assert division.count('<tr class="division__row--') == 3
    for name in ("Alice", "Bob"):
        assert f'<th scope="col">{name}</th>' in division
    # The wagons attached for round 2 are marked on the board until she acts or dismisses.
    changed = re.search(r'data-changed="([^"]*)"', panel).group(1).split()
    state = get_engine("napad").from_json(game.state)
    for wagon in state["train"][-3:]:
        assert f"wagon-{wagon}" in changed
        assert f'data-mark="wagon-{wagon} ' in page
    # A reload keeps the panel; dismissing it closes it for good.
    csrf = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')
    assert csrf.sub("", _panel(_page(alice_client, game))) == csrf.sub("", panel)
    response = alice_client.post(
        f"/games/{game.pk}/since/dismiss", {"version": game.version}, **HTMX
    )
    assert response.status_code == 200 and 'class="since"' not in response.content.decode()
    assert 'class="since"' not in _page(alice_client, game)


def test_the_division_table_has_every_gangs_total_per_colour(alice, bob):
    game = napad_game(alice, bob)
    _round_played(game, [alice, bob])
    game.refresh_from_db()
    events = list(GameEvent.objects.filter(game=game).order_by("seq"))
    seats = {seat.position: seat for seat in game.seats.all()}
    names = {position: seat.player.display_name for position, seat in seats.items()}
    catchup = catchup_build("napad", events, since=0, version=game.version, position=0, names=names)
    division = next(group for group in catchup.groups if group.phase == "division")
    # The totals are the cards each gang sent in that colour, and the winner's is the highest.
    sent: dict[tuple[int, str], int] = {}
    for event in events:
        for item in event.public_events:
            if item["type"] == "card_played":
                key = (item["args"]["seat"], item["args"]["colour"])
                sent[key] = sent.get(key, 0) + item["args"]["value"]
    for row in division.division:
        assert row["totals"] == {seat: sent.get((seat, row["colour"]), 0) for seat in (0, 1)}
        if row["result"] == "captured":
            assert row["totals"][row["seat"]] == max(row["totals"].values())
        if row["result"] == "tie":
            assert len(set(row["totals"][s] for s in row["tied"])) == 1


def test_acting_closes_the_panel_and_the_move_answer_says_what_happened(alice, bob):
    game = napad_game(alice, bob)
    mover = user_to_move(game, [alice, bob])
    other = bob if mover == alice else alice
    mover_client = client_for(mover)
    _page(mover_client, game)
    assert play_one(game, [alice, bob]).ok  # the mover's own move, made elsewhere
    game.refresh_from_db()
    assert user_to_move(game, [alice, bob]) == other
    assert play_one(game, [alice, bob]).ok
    game.refresh_from_db()
    # Back at the table: only what happened after their own move is news.
    assert "1 move" in _panel(_page(mover_client, game))
    action = first_legal(game)
    response = mover_client.post(
        f"/games/{game.pk}/act",
        {"action": json.dumps(action), "version": game.version},
        **HTMX,
    )
    html = response.content.decode()
    # The answer empties the panel by id and tells screen readers the result of the move.
    assert '<div id="since" hx-swap-oob="true"></div>' in html
    live = re.search(r'<div id="live-region" hx-swap-oob="innerHTML">(.*?)</div>', html, re.S)
    assert "send" in live.group(1) and mover.player.display_name in live.group(1)
    game.refresh_from_db()
    assert 'class="since"' not in _page(mover_client, game)
    # The next move of the others is news again, and only that one.
    assert user_to_move(game, [alice, bob]) == other
    assert play_one(game, [alice, bob]).ok
    game.refresh_from_db()
    assert "1 move" in _panel(_page(mover_client, game))


def test_a_spectator_has_a_panel_of_their_own(alice, bob, charlie):
    game = napad_game(alice, bob)
    watcher = client_for(charlie)
    _page(watcher, game)
    for _ in range(3):
        assert play_one(game, [alice, bob]).ok
    game.refresh_from_db()
    panel = _panel(_page(watcher, game))
    assert "3 moves" in panel
    # Public lines only: nobody's private "You draw …".
    assert "You draw" not in panel and "You capture" not in panel


@pytest.mark.django_db(transaction=True)
def test_moves_watched_live_do_not_open_the_panel(alice, bob):
    game = napad_game(alice, bob)
    alice_client = client_for(alice)
    _page(alice_client, game)
    headers = socket_headers(session_of(alice_client))

    async def watch_two_moves() -> None:
        socket = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers)
        assert (await socket.connect())[0]
        await socket.receive_from(timeout=10)
        for _ in range(2):
            assert (await sync_to_async(play_one)(game, [alice, bob])).ok
            # Each move's push reaches the open page (the broadcast runs on commit).
            pushed = await socket.receive_from(timeout=10)
            assert "game-live" in pushed
        await socket.disconnect()

    from asgiref.sync import async_to_sync

    async_to_sync(watch_two_moves)()
    game.refresh_from_db()
    visit = TableVisit.objects.get(game=game, player=alice.player)
    assert visit.seen_version == game.version
    assert 'class="since"' not in _page(alice_client, game)


def test_the_page_costs_the_same_with_a_panel_early_and_late(
    alice, bob, charlie, django_assert_max_num_queries
):
    from test_play_views import PAGE_QUERIES

    game = napad_game(alice, bob)
    client = client_for(charlie)
    for moves in (2, 24):
        _page(client, game)
        for _ in range(moves):
            assert play_one(game, [alice, bob]).ok
        game.refresh_from_db()
        with django_assert_max_num_queries(PAGE_QUERIES):
            html = _page(client, game)
        assert 'class="since"' in html


# --- watching it again --------------------------------------------------------------------


def test_watch_it_draws_the_board_after_each_move_since(alice, bob, charlie):
    game = napad_game(alice, bob)
    for _ in range(5):
        assert play_one(game, [alice, bob]).ok
    game.refresh_from_db()
    html = client_for(alice).get(f"/games/{game.pk}/watch?from={game.version - 3}").content.decode()
    steps = re.findall(r'<template data-watch-step data-seq="(\d+)"', html)
    assert steps == [str(game.version - 3 + i) for i in range(4)]
    assert html.count('class="napad-board"') == 4
    # A spectator watches the table, never a hand; nonsense asks for nothing.
    spectator = client_for(charlie).get(f"/games/{game.pk}/watch?from=0").content.decode()
    assert "Your hand" not in spectator and spectator.count("data-watch-step") == game.version + 1
    assert client_for(alice).get(f"/games/{game.pk}/watch?from=x").content == b""


# --- bots standing in ------------------------------------------------------------------------


def test_a_seat_a_bot_took_over_is_named_for_the_bot_everywhere(alice, bob):
    game = napad_game(alice, bob)
    seat = Seat.objects.get(game=game, player=bob.player)
    seat_hand_to_bot(game=game, seat=seat)
    seat.refresh_from_db()
    assert seat.bot_since is not None
    page = _page(client_for(alice), game)
    assert "Bot for Bob" in page and 'class="badge badge--bot"' in page
    # The bot's moves are logged under its name.
    game.refresh_from_db()
    while user_to_move(game, [alice, bob]) == alice:
        assert play_one(game, [alice, bob]).ok
        game.refresh_from_db()
    # Bob's seat is to move, but the bot moves it: Bob's page offers no buttons.
    assert 'name="action"' not in _page(client_for(bob), game)
    from games.services.turns import bot_move_play

    assert bot_move_play(game.pk, game.version).ok
    assert "Bot for Bob (" in _page(client_for(alice), game)
    lobby = client_for(alice).get("/games/").content.decode()
    assert "Bot for Bob" in lobby
    # Bob sees that a bot plays for him, on his home page and in the status bar.
    bob_client = client_for(bob)
    assert "a bot plays for you since" in bob_client.get("/").content.decode()
    assert "A bot plays your seat" in _page(bob_client, game)


# --- the home page -------------------------------------------------------------------------


def test_the_home_page_lists_my_games_my_turn_first(alice, bob, charlie):
    mine = napad_game(alice, bob)
    theirs = napad_game(alice, bob)
    if user_to_move(mine, [alice, bob]) != alice:
        assert play_one(mine, [alice, bob]).ok
    if user_to_move(theirs, [alice, bob]) == alice:
        assert play_one(theirs, [alice, bob]).ok
    waiting = napad_table(alice, seats=3)
    finished = play_to_end(napad_game(alice, bob), [alice, bob])
    html = client_for(alice).get("/").content.decode()
    assert "You are not seated" not in html
    links = [int(pk) for pk in re.findall(r'<li><a href="/games/(\d+)/"', html)]
    assert links == [mine.pk, theirs.pk, waiting.pk, finished.pk]
    place = finished.seats.get(player=alice.player).place
    assert f"place {place} of 2" in html
    assert "decide by" in html and "1/3 seats" in html
    assert "You are not seated" in client_for(charlie).get("/").content.decode()


# --- the create form follows the ruleset -------------------------------------------------


def test_a_time_machine_ruleset_starts_with_the_time_machine_on(alice):
    rulesets_install_defaults()
    machine = Ruleset.objects.get(slug="colt-express-time-machine")
    html = client_for(alice).get("/games/new").content.decode()
    option = re.search(rf'<option value="{machine.pk}"[^>]*>', html).group(0)
    assert "&quot;time_machine&quot;: true" in option and 'data-max-seats="6"' in option
    # The form posts the box as the page sets it for that ruleset: the table has the machine,
    # and no option of its own (it is the version's config).
    response = client_for(alice).post(
        "/games/new",
        {
            "ruleset": machine.pk,
            "seats": 2,
            "turn_time_limit": "24h",
            "option_colt_time_machine": "on",
            "option_colt_round_deck": "published",
        },
    )
    assert response.status_code == 302
    game = Game.objects.get()
    assert game.config["time_machine"] is True and game.options == {}


# --- dates in words ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "soon", "ago"),
    [
        ("en", "in 5 h", "3 h ago"),
        ("pl", "za 5 godz.", "3 godz. temu"),
        ("pt-br", "daqui a 5 h", "há 3 h"),
    ],
)
def test_times_read_as_people_say_them_in_each_language(language, soon, ago):
    now = datetime(2026, 3, 4, 12, 0, tzinfo=UTC)
    with translation.override(language):
        assert relative(now + timedelta(hours=5, seconds=30), now) == soon
        assert relative(now - timedelta(hours=3, minutes=1), now) == ago


def test_a_deadline_shows_its_date_in_the_members_time_zone_and_the_time_left():
    moment = timezone.now() + timedelta(hours=30, minutes=1)
    with timezone.override("Europe/Warsaw"), translation.override("en"):
        html = str(until_when(moment))
        local = timezone.localtime(moment)
    assert f"{local:%H:%M}" in html and "in 30 h" in html and "data-countdown" in html


def test_one_deadline_is_told_in_each_readers_language_and_zone_and_year():
    # The same deadline, read by members in other zones and languages, is in each one's words.
    moment = datetime(2026, 12, 3, 23, 30, tzinfo=UTC)
    told = {}
    for language, zone in [("en", "UTC"), ("en", "Europe/Warsaw"), ("pl", "Europe/Warsaw")]:
        with timezone.override(zone), translation.override(language):
            told[language, zone] = absolute(moment)
    assert told["en", "UTC"] == "Thu 3 Dec, 23:30"
    assert told["en", "Europe/Warsaw"] == "Fri 4 Dec, 00:30"
    assert told["pl", "Europe/Warsaw"] == "4 grudnia, 00:30"
    # Read in another year, it says which year.
    with timezone.override("UTC"), translation.override("en"):
        assert "2025" in absolute(moment.replace(year=2025))


# --- the end screen -------------------------------------------------------------------------


def test_the_end_screen_charts_each_players_loot_round_by_round(alice, bob):
    game = play_to_end(napad_game(alice, bob), [alice, bob])
    html = _page(client_for(alice), game)
    chart = html[html.index('<figure class="end-chart">') : html.index("</figure>")]
    assert chart.count("<polyline") == 2
    state = get_engine("napad").from_json(game.state)
    for seat in game.seats.select_related("player"):
        loot = sum(state["wagons"][w][1] for w in state["captured"][seat.position])
        assert f"{seat.player.display_name}: {loot}</li>" in chart
    assert 'class="breakdown breakdown--stack"' in html
    assert game_events(game)  # the chart came from the game's own log, replayed once
