"""Moves no member clicked — the clock's timeout, a standing order — run what every move owes:
the other pages hear of them, the next decision gets its clock, and a bot to move plays next.
(They call the play service's ``move_play_for_seat``, the move core and then ``after_move``.)"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from clockkit import (
    first_choice,
    seat_of,
    standing_order,
    started_game,
    stealin_his_move_then_hers,
)

from games.broadcast import game_group
from games.models import Game, GameEvent, StandingOrder, TurnClock
from games.services.play import move_play_for_seat
from games.services.turns import bot_move_play
from games.services.turns.timeouts import turn_timeout_apply
from tests.socketkit import layer_receive_until_marker, layer_send_marker

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
LIMIT = timedelta(hours=2)


@pytest.fixture
def table_listener():
    """Listen as an open page of a table does; ``heard()`` gives the versions announced so far
    (up to a marker sent after them: nothing is waited for)."""
    layer = get_channel_layer()
    channels = {}

    def listen(game: Game) -> None:
        channels[game.pk] = async_to_sync(layer.new_channel)()
        async_to_sync(layer.group_add)(game_group(game.pk), channels[game.pk])

    def heard(game: Game) -> list[int]:
        marker = {"type": "test.marker"}
        async_to_sync(layer_send_marker)(layer, channels[game.pk], marker)
        received = async_to_sync(layer_receive_until_marker)(layer, channels[game.pk], marker)
        return [m["version"] for m in received if m["type"] == "game.updated"]

    listen.heard = heard
    return listen


def test_the_clocks_timeout_is_announced_and_the_bot_then_plays(
    alice, table_listener, eager_celery, django_capture_on_commit_callbacks
):
    with time_machine.travel(T0, tick=False):
        # The bot's move queued at the start is not run here (no callbacks yet).
        game = started_game(alice, bot_seats={0: "heuristic"}, limit=LIMIT)
    game.refresh_from_db()
    mine = seat_of(game, alice).position
    if game.to_move != [mine]:
        with django_capture_on_commit_callbacks(execute=False):
            assert bot_move_play(game.pk, game.version).ok
        game.refresh_from_db()
    assert game.to_move == [mine]
    table_listener(game)
    timed_out = game.version + 1

    # The sweep at the deadline (its "now"; the channel layer keeps the real clock).
    with django_capture_on_commit_callbacks() as after_commit:
        outcome = turn_timeout_apply(game.pk, game.version, game.deadline, game.deadline)
    assert outcome == "timeout"
    clock_move = GameEvent.objects.get(game=game, seq=timed_out)
    assert clock_move.seat == mine and clock_move.by_clock
    game.refresh_from_db()
    bot_to_move = game.to_move == [0]
    with django_capture_on_commit_callbacks(execute=True):
        for callback in after_commit:
            callback()

    # Every open page heard of the clock's move.
    assert timed_out in table_listener.heard(game)
    if bot_to_move:
        # The pipeline queued the bot's move, and it played.
        assert GameEvent.objects.get(game=game, seq=timed_out + 1).seat == 0
    else:
        # Alice is to move again: her next decision has its clock.
        assert TurnClock.objects.get(game=game).version == game.version == timed_out


def test_a_standing_orders_move_is_announced_and_the_next_decision_gets_its_clock(
    alice, bob, charlie, table_listener, django_capture_on_commit_callbacks
):
    game = started_game(alice, bob, charlie, slug="colt-express")
    me, b, c = (seat_of(game, user).position for user in (alice, bob, charlie))
    stealin_his_move_then_hers(game, me, b, c)
    standing_order(game, alice, "move:caboose", django_capture_on_commit_callbacks, pile_index=1)
    game.refresh_from_db()
    table_listener(game)
    bob_choice = first_choice(game)

    with django_capture_on_commit_callbacks(execute=True):
        assert move_play_for_seat(
            game_id=game.pk,
            position=None,
            action=bob_choice,
            expected_version=game.version,
            user=bob,
        ).ok

    order_move = GameEvent.objects.filter(game=game).order_by("-seq").first()
    assert order_move.seat == me
    assert StandingOrder.objects.get(game=game).applied_seq == order_move.seq
    game.refresh_from_db()
    # Bob's move and then the order's were each announced to every open page.
    assert table_listener.heard(game) == [order_move.seq - 1, order_move.seq]
    # The decision after the order's move has its turn clock.
    assert TurnClock.objects.get(game=game).version == game.version == order_move.seq
