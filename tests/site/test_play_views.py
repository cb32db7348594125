"""The game page, moves over HTTP/HTMX, secrets, the log, chat, end screen and replay."""

from __future__ import annotations

import json
from datetime import timedelta
from html import unescape

import pytest
from django.utils.html import escape
from playkit import first_legal, napad_game, napad_ruleset, play_one, play_to_end, user_to_move

from games.engines import get_engine
from games.models import ChatMessage, Game, GameEvent, Ruleset
from games.selectors.gamelog import event_text
from games.selectors.tables import game_events
from games.services.replay import game_replay_state
from tests.gamekit import started_game
from tests.personakit import client_for

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def _post_move(client, game, action, version=None):
    return client.post(
        f"/games/{game.pk}/act",
        {"action": json.dumps(action), "version": game.version if version is None else version},
        **HTMX,
    )


def _marked_ruleset() -> Ruleset:
    """Napad with each gang's cards printed with its own bullet count (5..8), so a page that
    shows another seat's hand would show that seat's number."""
    engine = get_engine("napad")
    config = engine.default_config()
    config["gang_decks"] = {
        gang: [[[c, v, 5 + index] for c, v, _b in card] for card in config["gang_cards"]]
        for index, gang in enumerate(config["gangs"])
    }
    return Ruleset.objects.create(
        kind="napad",
        slug="napad-marked",
        name="Marked decks",
        status=Ruleset.Status.PUBLISHED,
        config=engine.validate_config(config),
    )


def test_it_shows_my_hand_and_never_theirs(alice, bob):
    game = started_game(alice, bob, ruleset=_marked_ruleset(), limit=timedelta(hours=1))
    bullets = {
        seat.player.user_id: 5
        + ["cowboys", "mexicans", "deserters", "indians"].index(seat.identity)
        for seat in game.seats.select_related("player")
    }
    page = client_for(alice).get(f"/games/{game.pk}/").content.decode()
    assert "Your hand" in page
    mover_page = client_for(user_to_move(game, [alice, bob])).get(f"/games/{game.pk}/")
    assert 'aria-label="Send it with ' in mover_page.content.decode()
    assert f"• {bullets[alice.pk]}<" in page
    assert f"• {bullets[bob.pk]}<" not in page
    assert game.seed not in page
    assert game.seed_hash in page


def test_a_spectator_sees_no_hand_and_no_buttons(alice, bob, charlie):
    game = napad_game(alice, bob)
    page = client_for(charlie).get(f"/games/{game.pk}/").content.decode()
    assert "Your hand" not in page
    assert 'name="action"' not in page
    assert game.seed not in page
    assert 'ws-connect="/ws/games/' in page


def test_anonymous_visitors_are_sent_to_log_in(alice, bob, client):
    game = napad_game(alice, bob)
    response = client.get(f"/games/{game.pk}/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    response = client.post(f"/games/{game.pk}/act", {"action": "{}", "version": 0})
    assert response.status_code == 302
    assert Game.objects.get(pk=game.pk).version == 0


def test_an_invite_only_table_is_hidden_from_others(alice, bob, charlie):
    game = napad_game(alice, bob, invite_only=True, invitees=[bob.player])
    assert client_for(charlie).get(f"/games/{game.pk}/").status_code == 404
    assert client_for(charlie).get(f"/games/{game.pk}/log").status_code == 404
    assert client_for(bob).get(f"/games/{game.pk}/").status_code == 200


def test_a_move_answers_with_the_fresh_board(alice, bob):
    game = napad_game(alice, bob)
    mover = user_to_move(game, [alice, bob])
    response = _post_move(client_for(mover), game, first_legal(game))
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="game-live"')
    assert 'data-version="1"' in html
    assert Game.objects.get(pk=game.pk).version == 1


def test_a_move_is_answered_from_the_game_the_service_saved(alice, bob, monkeypatch):
    game = napad_game(alice, bob)
    mover = user_to_move(game, [alice, bob])

    def no_second_read(game_id):
        raise AssertionError("the move's answer read the game again")

    monkeypatch.setattr("games.views.play.game_with_seats", no_second_read)
    html = _post_move(client_for(mover), game, first_legal(game)).content.decode()
    assert 'data-version="1"' in html and "Your hand" in html


@pytest.mark.django_db(transaction=True)
def test_a_game_moved_on_after_the_commit_is_read_again_for_the_answer(alice):
    from napad_site.celery import app

    # Real commits (no test transaction around them), so the bot plays on commit, inside the
    # request, as a standing order does on the site.
    app.conf.task_always_eager = True
    try:
        game = napad_game(alice, bot_seats={1: "random"})
        game.refresh_from_db()
        response = _post_move(client_for(alice), game, first_legal(game))
        moved_on = Game.objects.get(pk=game.pk).version
        assert moved_on > game.version + 1
        assert f'data-version="{moved_on}"' in response.content.decode()
    finally:
        app.conf.task_always_eager = False


@pytest.mark.parametrize(
    "action, version, message",
    [
        ({"type": "teleport"}, 0, "Unknown action"),
        ({"type": "play", "card": 99, "colour": "red"}, 0, "not in your hand"),
        (None, 0, "not valid JSON"),
        ({"type": "pass"}, "abc", "which version"),
    ],
)
def test_a_bad_move_answers_200_with_a_message_and_changes_nothing(
    alice, bob, action, version, message
):
    game = napad_game(alice, bob)
    mover = user_to_move(game, [alice, bob])
    state = Game.objects.get(pk=game.pk).state
    response = client_for(mover).post(
        f"/games/{game.pk}/act",
        {"action": "{not json" if action is None else json.dumps(action), "version": version},
        **HTMX,
    )
    assert response.status_code == 200
    assert message in response.content.decode()
    assert 'class="flash flash--error"' in response.content.decode()
    game.refresh_from_db()
    assert game.version == 0 and game.state == state


def test_a_double_click_is_applied_once(alice, bob):
    game = napad_game(alice, bob)
    client = client_for(user_to_move(game, [alice, bob]))
    action = first_legal(game)
    assert _post_move(client, game, action, 0).status_code == 200
    second = _post_move(client, game, action, 0)
    assert second.status_code == 200
    assert "The game moved on" in second.content.decode()
    assert GameEvent.objects.filter(game=game).count() == 1


def test_a_non_seated_member_cannot_move(alice, bob, charlie):
    game = napad_game(alice, bob)
    response = _post_move(client_for(charlie), game, first_legal(game))
    assert response.status_code == 200
    assert "no seat" in response.content.decode()
    assert Game.objects.get(pk=game.pk).version == 0


def test_a_plain_form_post_redirects_with_a_message(alice, bob):
    game = napad_game(alice, bob)
    client = client_for(user_to_move(game, [alice, bob]))
    response = client.post(
        f"/games/{game.pk}/act", {"action": json.dumps({"type": "bogus"}), "version": 0}
    )
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "Unknown action" in page


def test_the_page_fragment_for_htmx(alice, bob):
    game = napad_game(alice, bob)
    html = client_for(alice).get(f"/games/{game.pk}/", **HTMX).content.decode()
    assert html.lstrip().startswith('<div id="game-live"')
    assert "<html" not in html


# Measured: the page 5 queries (session, user with their player — games/web/backends.py —,
# game, seats, chat; the bell's count comes with the game), its HTMX fragment 4 (session, user,
# game, seats), a move 9 (session, user, savepoint, locked game, seats, guarded update, event,
# the turn clock's row, release; whether the game moved on since is asked only when a bot or a
# standing order may have moved it) — the same on SQLite and PostgreSQL. The log's
# last lines come with the game's row (games/selectors/log_copy.py; they were a query of their
# own on each). The bounds leave no room for a query per move.
# The turn clocks add a fixed few (games/services/clocks): on the page the clock panel's
# leave, notices and "+24 h" lookups; on a move the clock row, notices and "+24 h" — the
# next decision's leave is one read, shared by the turn clock and the answer's clock panel
# (games/selectors/tables.py read_once; it was two).
# 5 for the table, 3 for the clock panel, 2 for "since your last visit" (the member's visit is
# read with the game and written when the table moved on; its events are read when the panel
# reaches further back than the log's kept lines). A move adds nothing for it. The ratings'
# expected places and the league fixture come with the game's and seats' queries (they were
# 2 more). The clock panel's 3 are a bound: the
# game's query (on a move, its locked read) says whether there is any leave, notice, "+24 h"
# or standing order, and a table with none reads none of them —
# most tables (QUIET_PAGE_QUERIES, QUIET_MOVE_QUERIES). On a move the locked read of the game
# says so too, so a quiet table's turn clock reads no leave: its only clock query is the
# clock row's update.
PAGE_QUERIES = 5 + 3 + 2
MOVE_QUERIES = 9 + 3
QUIET_PAGE_QUERIES = 5
QUIET_FRAGMENT_QUERIES = 4
QUIET_MOVE_QUERIES = 9


def test_the_log_names_the_member_beside_their_gang(alice, bob):
    game = napad_game(alice, bob)
    mover = user_to_move(game, [alice, bob])
    action = first_legal(game)
    seat = game.to_move[0]
    gang = game.seats.get(position=seat).identity
    assert play_one(game, [alice, bob]).ok
    # The marker holder opens a round and may not pass: the first legal action is a play.
    assert action["type"] == "play"
    page = client_for(alice).get(f"/games/{game.pk}/").content.decode()
    # One member is one subject: "Bob (deserters) sends gold 5 (card gold 5 / dynamite 3)."
    gang_name = {"mexicans": "Mexicans", "indians": "Indians"}.get(gang, gang)
    assert f"{mover.player.display_name} ({gang_name}) sends " in page


def test_the_game_page_shows_the_places_the_ratings_expect(alice, bob):
    game = napad_game(alice, bob)
    page = client_for(alice).get(f"/games/{game.pk}/").content.decode()
    assert "The places the ratings expect" in page
    assert page.count('class="expected-places"') == 1


def test_the_game_page_costs_the_same_queries_early_and_late(
    alice, bob, django_assert_max_num_queries
):
    game = napad_game(alice, bob)
    client = client_for(alice)
    play_one(game, [alice, bob])
    with django_assert_max_num_queries(PAGE_QUERIES):
        assert client.get(f"/games/{game.pk}/").status_code == 200
    for _ in range(30):
        play_one(game, [alice, bob])
    with django_assert_max_num_queries(PAGE_QUERIES):
        assert client.get(f"/games/{game.pk}/").status_code == 200


def test_a_move_costs_the_same_queries_early_and_late(alice, bob, django_assert_max_num_queries):
    game = napad_game(alice, bob)
    users = [alice, bob]
    clients = {user.pk: client_for(user) for user in users}
    for expected_version in (0, 30):
        while Game.objects.get(pk=game.pk).version < expected_version:
            play_one(game, users)
        game.refresh_from_db()
        client = clients[user_to_move(game, users).pk]
        action = first_legal(game)
        with django_assert_max_num_queries(MOVE_QUERIES):
            response = _post_move(client, game, action)
        assert f'data-version="{expected_version + 1}"' in response.content.decode()


def test_a_move_and_its_answer_parse_the_state_once(alice, bob, monkeypatch):
    # The answer's board is rendered from the state the move just computed: one parse per move,
    # to apply it (it was one more for the answer), early and late alike — and the state is
    # never copied through JSON again (the row's own dict is read, the engine's answer stored).
    game = napad_game(alice, bob)
    engine_class = type(get_engine("napad"))
    parses, copies = [], []

    def counting(name, calls):
        real = getattr(engine_class, name)

        def counted(self, data):
            calls.append(name)
            return real(self, data)

        monkeypatch.setattr(engine_class, name, counted)

    clients = {user.pk: client_for(user) for user in (alice, bob)}
    for _ in range(2):
        action = first_legal(game)
        client = clients[user_to_move(game, [alice, bob]).pk]
        counting("from_stored", parses)
        counting("from_json", copies)
        counting("to_json", copies)
        parses.clear()
        copies.clear()
        response = _post_move(client, game, action)
        monkeypatch.undo()
        assert f'data-version="{game.version + 1}"' in response.content.decode()
        assert parses == ["from_stored"]
        assert copies == []
        while game.version < 12:  # a 2-seat game lasts longer than this
            play_one(game, [alice, bob])
        game.refresh_from_db()


def test_a_moves_answer_asks_again_only_if_a_bot_or_an_order_may_have_moved_on(
    alice, bob, monkeypatch
):
    # The answer is rendered from the game the move saved. Asking whether the game moved on since
    # (a query) is owed only when the move queued something that may move it right after
    # commit: the bot to move next, a standing order (Colt Express). Between two members
    # nothing can: the next move is the other member's, made from their page later.
    import games.views.play as play_views
    from games.services.turns import bot_move_play

    asked = []
    real = play_views.game_unchanged

    def counted(game):
        asked.append(game.pk)
        return real(game)

    monkeypatch.setattr(play_views, "game_unchanged", counted)
    members = napad_game(alice, bob)
    mover = user_to_move(members, [alice, bob])
    response = _post_move(client_for(mover), members, first_legal(members))
    assert f'data-version="{members.version + 1}"' in response.content.decode()
    assert asked == []

    with_bot = napad_game(alice, bot_seats={1: "random"})
    if with_bot.to_move != [0]:
        bot_move_play(with_bot.pk, with_bot.version)  # the bot opened: alice's turn now
        with_bot.refresh_from_db()
    response = _post_move(client_for(alice), with_bot, first_legal(with_bot))
    # The bot is to move: it may have played before the answer is rendered.
    assert f'data-version="{with_bot.version + 1}"' in response.content.decode()
    assert asked == [with_bot.pk]


def test_the_log_shows_my_private_events_only(alice, bob):
    game = napad_game(alice, bob)
    while Game.objects.get(pk=game.pk).version < 25:
        play_one(game, [alice, bob])
    alice_seat = game.seats.get(player__user=alice).position
    private = [e for ev in GameEvent.objects.filter(game=game) for e in ev.private_events]
    mine = {escape(event_text(e, kind="napad")) for e in private if alice_seat in e["private_to"]}
    theirs = {
        escape(event_text(e, kind="napad")) for e in private if alice_seat not in e["private_to"]
    }
    assert mine and theirs - mine
    page = client_for(alice).get(f"/games/{game.pk}/log").content.decode()
    assert all(text in page for text in mine)
    assert not any(text in page for text in theirs - mine)
    assert "Round 2 begins" in page


def test_chat_is_escaped_and_only_for_players(alice, bob, charlie):
    game = napad_game(alice, bob)
    response = client_for(alice).post(
        f"/games/{game.pk}/chat", {"text": "<script>alert(1)</script>"}, **HTMX
    )
    assert response.status_code == 200
    assert "&lt;script&gt;" in response.content.decode()
    assert "<script>alert" not in response.content.decode()
    refused = client_for(charlie).post(f"/games/{game.pk}/chat", {"text": "hi"}, **HTMX)
    assert "Only the players at this table can chat here." in refused.content.decode()
    empty = client_for(bob).post(f"/games/{game.pk}/chat", {"text": "   "}, **HTMX)
    assert "Write something first." in empty.content.decode()
    assert ChatMessage.objects.filter(game=game).count() == 1
    page = client_for(bob).get(f"/games/{game.pk}/").content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_a_whole_game_through_the_client_to_the_end_screen(alice, bob):
    creator = client_for(alice)
    response = creator.post(
        "/games/new",
        {
            "ruleset": napad_ruleset().pk,
            "seats": 2,
            "turn_time_limit": "1h",
            "invitees": "",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    game = Game.objects.get()
    joiner = client_for(bob)
    assert joiner.post(f"/games/{game.pk}/join", **HTMX).status_code == 200
    started = creator.post(f"/games/{game.pk}/start", **HTMX)
    assert "The game has started." in started.content.decode()
    clients = {alice.pk: creator, bob.pk: joiner}
    for _ in range(500):
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            break
        client = clients[user_to_move(game, [alice, bob]).pk]
        # Play what the page offers: the first action button of the fragment.
        html = client.get(f"/games/{game.pk}/", **HTMX).content.decode()
        marker = 'name="action" value="'
        start = html.index(marker) + len(marker)
        action = unescape(html[start : html.index('"', start)])
        response = _post_move(client, game, json.loads(action))
        assert "flash--error" not in response.content.decode()
    assert game.status == Game.Status.FINISHED
    end = creator.get(f"/games/{game.pk}/").content.decode()
    assert "Final ranking" in end and "Score breakdown" in end
    assert game.seed in end
    verify = joiner.post(f"/games/{game.pk}/verify", **HTMX).content.decode()
    assert "Verified" in verify and "flash--ok" in verify


def test_verify_flags_a_tampered_game(alice, bob):
    game = play_to_end(napad_game(alice, bob), [alice, bob])
    state = dict(game.state)
    state["captured"] = [[], []]
    Game.objects.filter(pk=game.pk).update(state=state)
    verify = client_for(alice).post(f"/games/{game.pk}/verify", **HTMX).content.decode()
    assert "different game" in verify and "flash--error" in verify


def test_the_replay_of_a_finished_game_shows_any_seat(alice, bob, charlie):
    game = play_to_end(napad_game(alice, bob), [alice, bob])
    client = client_for(charlie)
    response = client.get(f"/games/{game.pk}/replay?step=3&seat=1")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Step 3 of" in html and "Your hand" in html
    everyone = client.get(f"/games/{game.pk}/replay?step=3").content.decode()
    assert "Every hand at this step" in everyone
    state = game_replay_state(game, game_events(game), 3)
    assert everyone.count('class="gang-card"') == sum(len(hand) for hand in state["hands"])
    assert client.get(f"/games/{game.pk}/replay?step=9999").status_code == 200
    assert client.get(f"/games/{game.pk}/replay?step=-4&seat=x").status_code == 200


def test_a_running_game_replays_only_as_my_seat_saw_it(alice, bob, charlie):
    game = napad_game(alice, bob)
    for _ in range(4):
        play_one(game, [alice, bob])
    assert client_for(charlie).get(f"/games/{game.pk}/replay").status_code == 404
    alice_seat = game.seats.get(player__user=alice).position
    bob_seat = 1 - alice_seat
    response = client_for(alice).get(f"/games/{game.pk}/replay?step=2&seat={bob_seat}")
    html = response.content.decode()
    assert response.status_code == 200
    assert "Your hand" in html
    # Asking for bob's seat changes nothing: alice's own seat is the only view.
    assert "See the table as" not in html
    assert game.seed not in html


def test_a_quiet_table_reads_nothing_for_its_clock_panel(alice, bob, django_assert_max_num_queries):
    # No leave, notice, "+24 h" or standing order: the game's own query says so, and neither
    # the page, its fragment nor a move's answer asks again.
    game = napad_game(alice, bob)
    play_one(game, [alice, bob])
    client = client_for(alice)
    client.get(f"/games/{game.pk}/")  # the first visit writes the member's TableVisit
    with django_assert_max_num_queries(QUIET_PAGE_QUERIES):
        assert client.get(f"/games/{game.pk}/").status_code == 200
    with django_assert_max_num_queries(QUIET_FRAGMENT_QUERIES):
        assert client.get(f"/games/{game.pk}/", **HTMX).status_code == 200
    game.refresh_from_db()
    mover, action = client_for(user_to_move(game, [alice, bob])), first_legal(game)
    with django_assert_max_num_queries(QUIET_MOVE_QUERIES):
        assert _post_move(mover, game, action).status_code == 200


def test_a_quiet_panel_is_drawn_and_a_notice_shows_on_it(alice, bob):
    # The member to move: nobody to give "+24 h" to, no leave, no notice — an empty panel
    # (tests/clocks/test_clock_panel.py pins what it shows); a notice posted then is on the
    # next fragment.
    from games.services.notifications import table_notice_post

    game = napad_game(alice, bob)
    play_one(game, [alice, bob])
    client = client_for(user_to_move(game, [alice, bob]))

    def panel(html):
        start = html.index('<div id="clock-panel"')
        return html[start : html.index("</div>", start) + len("</div>")]

    quiet = panel(client.get(f"/games/{game.pk}/", **HTMX).content.decode())
    assert "<li>" not in quiet and "<form" not in quiet
    table_notice_post(game=game, kind="info", text="The clock moved for a test.")
    noticed = panel(client.get(f"/games/{game.pk}/", **HTMX).content.decode())
    assert "The clock moved for a test." in noticed


def test_the_clock_panel_shows_a_leave_and_a_notice_the_game_query_found(alice, bob):
    # The EXISTS in the game's query must not hide what a table does have.
    from games.services.clocks.leave import leave_declare, player_today
    from games.services.notifications import table_notice_post

    game = napad_game(alice, bob)
    play_one(game, [alice, bob])
    table_notice_post(game=game, kind="info", text="The clock moved for a test.")
    today = player_today(bob.player)
    leave_declare(player=bob.player, start=today, end=today + timedelta(days=2))
    client = client_for(alice)
    for extra in ({}, HTMX):
        html = client.get(f"/games/{game.pk}/", **extra).content.decode()
        assert "The clock moved for a test." in html
        assert "clock-panel__leave" in html
