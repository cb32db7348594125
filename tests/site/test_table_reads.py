"""The table's reads (games/selectors/tables.py): each game comes with its own seats, ruleset,
visit, ratings, chat and bell, in a fixed number of queries on every database, and an id that finds
no game — however large — reads as no game."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from playkit import napad_game

from games.models import (
    ChatMessage,
    Game,
    Notification,
    PushSubscription,
    Rating,
    Seat,
    TableVisit,
)
from games.selectors.tables import (
    CHAT_LINES,
    game_chat,
    game_locked_for_move,
    game_recent_events,
    game_seats,
    game_with_seats,
    table_access_known,
    unread_notifications_count,
)

pytestmark = pytest.mark.django_db


def _seats(game: Game) -> list[tuple[int, str, int]]:
    # A table knows its members by user id and names them by display name: the users' own
    # rows are not read (each seat's would be another model object built on every read).
    return [(s.position, s.player.display_name, s.player.user_id) for s in game_seats(game)]


def test_each_game_gets_its_own_seats_and_its_own_ruleset_with_no_further_query(
    alice, bob, charlie
):
    first = napad_game(alice, bob)
    second = napad_game(charlie, alice, bob)
    # Read one after the other: the second must not be answered with the first's values.
    for game in (first, second, first):
        with CaptureQueriesContext(connection) as queries:
            read = game_with_seats(game.pk)
            seats = _seats(read)
            ruleset_name = read.ruleset.name
            seat_games = {seat.game.pk for seat in game_seats(read)}
        # The game with its ruleset, and its seats with players: two queries.
        assert len(queries) == 2
        assert read.pk == game.pk
        assert read.state == Game.objects.get(pk=game.pk).state
        assert seats == [
            (s.position, s.player.display_name, s.player.user_id)
            for s in Seat.objects.filter(game=game).order_by("position")
        ]
        assert ruleset_name == game.ruleset.name
        assert seat_games == {game.pk}


def test_the_visit_read_with_the_page_is_the_visitors_own(alice, bob):
    game = napad_game(alice, bob)
    TableVisit.objects.create(
        game=game, player=alice.player, seen_version=3, since_version=2, seen_at=timezone.now()
    )
    for_alice = game_with_seats(game.pk, visit_of=alice.player, page=True)
    for_bob = game_with_seats(game.pk, visit_of=bob.player, page=True)
    assert (for_alice.visit_seen, for_alice.visit_since) == (3, 2)
    assert (for_bob.visit_seen, for_bob.visit_since) == (None, None)


def test_the_page_shows_each_seats_rating_in_the_games_own_kind(alice, bob):
    game = napad_game(alice, bob)
    Rating.objects.create(player=alice.player, kind="napad", mu=31.5, sigma=4.0)
    Rating.objects.create(player=alice.player, kind="colt", mu=12.0, sigma=2.0)
    Rating.objects.create(player=bob.player, kind="colt", mu=40.0, sigma=1.0)
    read = game_with_seats(game.pk, page=True)
    ratings = {s.player_id: (s.rating_mu, s.rating_sigma) for s in game_seats(read)}
    assert ratings == {alice.player.pk: (31.5, 4.0), bob.player.pk: (None, None)}


def test_the_page_reads_the_chats_last_lines_with_the_game_oldest_first(alice, bob, charlie):
    game = napad_game(alice, bob)
    other = napad_game(bob, charlie)
    for n in range(CHAT_LINES + 5):
        ChatMessage.objects.create(game=game, player=(alice, bob)[n % 2].player, text=f"line {n}")
    ChatMessage.objects.create(game=other, player=bob.player, text="elsewhere")
    with CaptureQueriesContext(connection) as queries:
        read = game_with_seats(game.pk, visit_of=alice.player, page=True)
        lines = [(line.text, line.player.display_name) for line in game_chat(read)]
        seats = _seats(read)
    # The game, its seats and its chat: three queries.
    assert len(queries) == 3
    names = [alice.player.display_name, bob.player.display_name]
    assert lines == [(f"line {n}", names[n % 2]) for n in range(5, CHAT_LINES + 5)]
    assert [position for position, _name, _user in seats] == [0, 1]
    # A table with no chat (and the same read for it) has none.
    assert game_chat(game_with_seats(other.pk, page=True))[0].text == "elsewhere"
    assert game_chat(game_with_seats(napad_game(alice, charlie).pk, page=True)) == []


def test_a_moves_locked_read_brings_the_seats_with_their_push_devices(alice, bob):
    game = napad_game(alice, bob)
    PushSubscription.objects.create(
        player=bob.player, endpoint="https://push.example/bob", p256dh="k", auth="a"
    )
    with CaptureQueriesContext(connection) as queries:
        locked = game_locked_for_move(game.pk)
        seats = [(s.position, s.player.user_id, s.push_devices) for s in game_seats(locked)]
    # The locked game and its seats: two queries.
    assert len(queries) == 2
    assert "FOR UPDATE" in queries[0]["sql"] or connection.vendor != "postgresql"
    assert seats == [(0, alice.pk, False), (1, bob.pk, True)]
    assert game_locked_for_move(game.pk + 1000) is None


# Beyond the 64-bit integer the database's id column holds, on either side: no such game,
# never a crash (the URL layer may refuse such ids first; the reads must not rely on it).
OUT_OF_RANGE_IDS = [2**63, 2**64 + 5, 10**40, -(2**63) - 1]


@pytest.mark.parametrize("game_id", OUT_OF_RANGE_IDS)
def test_an_id_out_of_the_databases_range_reads_as_no_game(alice, bob, game_id):
    napad_game(alice, bob)
    assert game_with_seats(game_id) is None
    assert game_with_seats(game_id, page=True) is None
    assert game_with_seats(game_id, visit_of=alice.player, page=True) is None
    assert game_locked_for_move(game_id) is None


def test_the_page_of_an_id_out_of_range_is_not_found(alice, bob):
    napad_game(alice, bob)
    client = Client()
    client.force_login(alice)
    for game_id in OUT_OF_RANGE_IDS[:3]:
        assert client.get(f"/games/{game_id}/").status_code == 404
        assert client.get(f"/games/{game_id}/", HTTP_HX_REQUEST="true").status_code == 404


def test_a_table_without_seats_is_read_with_none(alice, bob):
    game = napad_game(alice, bob)
    Seat.objects.filter(game=game).delete()
    for page in (False, True):
        read = game_with_seats(game.pk, page=page)
        assert read is not None and read.pk == game.pk
        assert game_seats(read) == []


def test_a_missing_game_is_none_and_the_log_limit_is_honoured(alice, bob):
    game = napad_game(alice, bob)
    assert game_with_seats(game.pk + 1000) is None
    assert game_with_seats(game.pk + 1000, page=True) is None
    game.events.create(seq=1, seat=0, action={"type": "x"})
    game.events.create(seq=2, seat=1, action={"type": "y"})
    game.events.create(seq=3, seat=0, action={"type": "z"})
    fresh = Game.objects.get(pk=game.pk)
    assert [e.seq for e in game_recent_events(fresh, limit=2)] == [2, 3]
    assert [e.seq for e in game_recent_events(fresh, limit=3)] == [1, 2, 3]


def test_the_logs_last_lines_are_read_without_the_submitted_actions(alice, bob):
    # A submitted action may name a face-down card: the table's log never even loads it.
    game = napad_game(alice, bob)
    game.events.create(
        seq=1, seat=0, action={"type": "play", "card": 3}, public_events=[{"type": "a"}]
    )
    fresh = Game.objects.get(pk=game.pk)
    (event,) = game_recent_events(fresh, limit=20)
    assert event.public_events == [{"type": "a"}]
    assert "action" in event.get_deferred_fields()


def test_each_member_bell_counts_only_their_own_unread_notifications(alice, bob, charlie):
    for n, read_at in enumerate([None, None, timezone.now()]):
        Notification.objects.create(
            player=alice.player, kind="t", text="t", key=f"a{n}", read_at=read_at
        )
    Notification.objects.create(player=bob.player, kind="t", text="t", key="b")
    counts = [unread_notifications_count(u.player) for u in (alice, bob, charlie, alice)]
    assert counts == [2, 1, 0, 2]


def test_the_game_pages_bell_counts_the_visitors_own_unread_notifications(alice, bob, charlie):
    # The count comes with the game's query (games/selectors/tables.py _game_for_visitor).
    game = napad_game(alice, bob)
    for n, read_at in enumerate([None, None, timezone.now()]):
        Notification.objects.create(
            player=alice.player, kind="t", text="t", key=f"a{n}", read_at=read_at
        )
    Notification.objects.create(player=bob.player, kind="t", text="t", key="b")
    for user, words in [
        (alice, "2 unread notifications"),
        (bob, "1 unread notification<"),
        (charlie, "0 unread notifications"),
    ]:
        client = Client()
        client.force_login(user)
        page = client.get(f"/games/{game.pk}/").content.decode()
        assert words in page.replace("</span>", "<")


def test_a_sockets_access_needs_no_query_only_when_the_seats_came_with_the_game(
    alice, bob, charlie, django_assert_num_queries
):
    # A socket works out access on its event loop when that needs no query
    # (games/realtime/consumers.py): the seats read with the game, the member's profile loaded.
    game = napad_game(alice, bob)
    users = {
        user.pk: get_user_model().objects.select_related("player").get(pk=user.pk)
        for user in (alice, bob, charlie)
    }
    read = game_with_seats(game.pk)
    with django_assert_num_queries(0):
        known = {pk: table_access_known(read, user) for pk, user in users.items()}
    seats = {seat.player.user_id: seat.position for seat in game_seats(read)}
    assert {pk: (a.may_view, a.position) for pk, a in known.items()} == {
        alice.pk: (True, seats[alice.pk]),
        bob.pk: (True, seats[bob.pk]),
        charlie.pk: (True, None),  # an open table: anyone may watch
    }
    # A copy read without its seats would need a query: not known here.
    plain = Game.objects.get(pk=game.pk)
    with django_assert_num_queries(0):
        assert table_access_known(plain, users[alice.pk]) is None
