"""A move's writes (games/services/moves.py): the game row, only if it is still at the version
the move was computed from, and its log event — plain ORM writes, so they behave the same on
SQLite and PostgreSQL: the same rows, the same refusal when another writer came first, the
same model signals."""

from __future__ import annotations

import json

import pytest
from django.db.models import F
from django.db.models.signals import post_save, pre_save
from playkit import first_legal, napad_game, play_one, user_to_move

from games.models import Game, GameEvent, TurnClock
from games.services import moves
from games.services.play import move_submit

pytestmark = pytest.mark.django_db

MOVED_ON = "The game moved on since your page was drawn"


def test_a_move_sends_the_same_model_signals_on_every_database(alice, bob):
    game = napad_game(alice, bob)
    version = game.version
    sent: list[tuple[str, str, int | None, bool | None]] = []

    def record(signal_name):
        def receiver(sender, instance, **kwargs):
            if sender in (Game, GameEvent):
                seq = getattr(instance, "seq", None)
                sent.append((signal_name, sender.__name__, seq, kwargs.get("created")))

        return receiver

    on_pre, on_post = record("pre_save"), record("post_save")
    pre_save.connect(on_pre, weak=False)
    post_save.connect(on_post, weak=False)
    try:
        assert play_one(game, [alice, bob]).ok
    finally:
        pre_save.disconnect(on_pre)
        post_save.disconnect(on_post)
    # The game row's guarded update() sends none; the event's save() sends both, as new.
    assert sent == [
        ("pre_save", "GameEvent", version + 1, None),
        ("post_save", "GameEvent", version + 1, True),
    ]


def test_a_move_saves_the_row_and_its_event(alice, bob):
    game = napad_game(alice, bob)
    version, position = game.version, game.to_move[0]
    user, action = user_to_move(game, [alice, bob]), first_legal(game)
    action.pop("label", None)  # what the button says, not part of the move
    result = move_submit(
        game_id=game.pk, user=user, action=json.dumps(action), expected_version=version
    )
    assert result.ok
    stored = Game.objects.get(pk=game.pk)
    assert stored.version == version + 1
    assert (stored.state, stored.to_move) == (result.game.state, result.game.to_move)
    event = GameEvent.objects.get(game=game, seq=version + 1)
    assert (event.seat, event.action, event.by_clock) == (position, action, False)
    assert TurnClock.objects.get(game=game).version == version + 1


def test_a_move_computed_on_a_version_another_writer_replaced_writes_nothing(
    alice, bob, monkeypatch
):
    # Where the row lock is not real (SQLite), another writer can save between the move's
    # read and its write: the write is a compare-and-set on the version, so it finds no row,
    # and the member is told the game moved on — no event, no second state.
    game = napad_game(alice, bob)
    version = game.version
    computed = moves.auto_move_due

    def another_writer_first(*args, **kwargs):
        Game.objects.filter(pk=game.pk).update(version=F("version") + 1, state={"theirs": 1})
        return computed(*args, **kwargs)

    monkeypatch.setattr(moves, "auto_move_due", another_writer_first)
    result = play_one(game, [alice, bob])
    assert not result.ok and MOVED_ON in result.message
    # The refusal rolls the move's transaction back (the other writer's update in this test
    # with it, as it ran on the same connection): the table is as it was.
    stored = Game.objects.get(pk=game.pk)
    assert (stored.version, stored.state) == (version, game.state)
    assert not GameEvent.objects.filter(game=game, seq=version + 1).exists()


def test_the_turn_clock_follows_every_move_of_its_own_game_only(alice, bob):
    game, other = napad_game(alice, bob), napad_game(bob, alice)
    others_clock = TurnClock.objects.get(game=other)
    for _ in range(3):
        assert play_one(game, [alice, bob]).ok
    game.refresh_from_db()
    clock = TurnClock.objects.get(game=game)
    assert (clock.version, clock.next_step) == (game.version, 0)
    assert clock.started_at == game.deadline - game.turn_time_limit
    assert TurnClock.objects.get(game=other).version == others_clock.version
