"""The table's reads compiled once (games/compiled.py): a run answers exactly what the queryset
answers, for whichever game and member it is asked about, on whichever thread asks."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from playkit import napad_game

from games.compiled import CompiledQuery
from games.models import (
    ChatMessage,
    Game,
    Notification,
    PushSubscription,
    Rating,
    Seat,
    TableVisit,
)
from games.selectors import (
    CHAT_LINES,
    game_chat,
    game_locked_for_move,
    game_recent_events,
    game_with_seats,
    unread_notifications_count,
)

pytestmark = pytest.mark.django_db


def _seats(game: Game) -> list[tuple[int, str, int]]:
    # A table knows its members by user id and names them by display name: the users' own
    # rows are not read (each seat's would be another model object built on every read).
    return [(s.position, s.player.display_name, s.player.user_id) for s in game.seats.all()]


def test_each_game_gets_its_own_seats_and_its_own_ruleset_with_no_further_query(
    alice, bob, charlie
):
    first = napad_game(alice, bob)
    second = napad_game(charlie, alice, bob)
    # Compiled on the first read; the second must not be answered with the first's values.
    for game in (first, second, first):
        with CaptureQueriesContext(connection) as queries:
            read = game_with_seats(game.pk)
            seats = _seats(read)
            ruleset_name = read.ruleset.name
            seat_games = {seat.game.pk for seat in read.seats.all()}
        # The game with its ruleset, and its seats with players: one statement on PostgreSQL
        # (games/compiled.py read_together), one query after the other elsewhere.
        assert len(queries) == (1 if connection.vendor == "postgresql" else 2)
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
    ratings = {s.player_id: (s.rating_mu, s.rating_sigma) for s in read.seats.all()}
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
    # The game, its seats and its chat: one statement on PostgreSQL, three queries elsewhere.
    assert len(queries) == (1 if connection.vendor == "postgresql" else 3)
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
        seats = [(s.position, s.player.user_id, s.push_devices) for s in locked.seats.all()]
    # The locked game and its seats: one statement on PostgreSQL, two queries elsewhere.
    assert len(queries) == (1 if connection.vendor == "postgresql" else 2)
    assert "FOR UPDATE" in queries[0]["sql"] or connection.vendor != "postgresql"
    assert seats == [(0, alice.pk, False), (1, bob.pk, True)]
    assert game_locked_for_move(game.pk + 1000) is None


def test_a_table_without_seats_is_read_with_none(alice, bob):
    game = napad_game(alice, bob)
    Seat.objects.filter(game=game).delete()
    for page in (False, True):
        read = game_with_seats(game.pk, page=page)
        assert read is not None and read.pk == game.pk
        assert list(read.seats.all()) == []


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


def test_a_query_is_built_and_compiled_once_whatever_the_values(alice, bob, charlie):
    games = [napad_game(alice, bob), napad_game(bob, charlie)]
    built = []

    def build(*, game_id):
        built.append(game_id)
        return Seat.objects.filter(game_id=game_id).order_by("position")

    seats = CompiledQuery(Seat, build, "game_id")
    for game in games * 2:
        assert [s.pk for s in seats.run(game_id=game.pk)] == [
            s.pk for s in Seat.objects.filter(game=game).order_by("position")
        ]
    assert len(built) == 1


def test_a_value_the_queryset_does_not_pass_as_a_parameter_is_refused():
    # A limit is part of the SQL's text: it cannot be a slot (it must be the key).
    limited = CompiledQuery(Seat, lambda *, count: Seat.objects.all()[:count], "count")
    with pytest.raises(ValueError, match="no parameter for"):
        limited.run(count=3)
    with pytest.raises(TypeError):
        CompiledQuery(Seat, lambda *, game_id: Seat.objects.all(), "game_id").run(other=1)


@pytest.mark.django_db(transaction=True)
def test_a_run_on_another_thread_uses_that_threads_connection(alice, bob):
    game = napad_game(alice, bob)
    game_with_seats(game.pk)  # compiled on this thread
    answers = []

    def read():
        try:
            answers.append(_seats(game_with_seats(game.pk)))
        finally:
            connection.close()

    worker = threading.Thread(target=read)
    worker.start()
    worker.join(timeout=60)
    assert answers == [_seats(game_with_seats(game.pk))]


def test_each_member_bell_counts_only_their_own_unread_notifications(alice, bob, charlie):
    for n, read_at in enumerate([None, None, timezone.now()]):
        Notification.objects.create(
            player=alice.player, kind="t", text="t", key=f"a{n}", read_at=read_at
        )
    Notification.objects.create(player=bob.player, kind="t", text="t", key="b")
    counts = [unread_notifications_count(u.player) for u in (alice, bob, charlie, alice)]
    assert counts == [2, 1, 0, 2]


def test_the_game_pages_bell_counts_the_visitors_own_unread_notifications(alice, bob, charlie):
    # The count comes with the game's query (games/selectors.py _game_for_visitor).
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
