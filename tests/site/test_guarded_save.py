"""A move's two writes (games/guarded_save.py): the game row, only if it is still at the
version the move was made on, and its log event — one statement on PostgreSQL, written
exactly as ``update()`` and ``save()`` would write them, and nothing at all when the guard
finds the game moved on."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from playkit import napad_game

from games.guarded_save import update_then_insert
from games.models import Game, GameEvent

pytestmark = pytest.mark.django_db


def _event(game: Game, seq: int) -> GameEvent:
    return GameEvent(
        game=game,
        seq=seq,
        seat=1,
        action={"type": "play", "card": 3, "colour": "gold", "note": "ł ó 'quoted'"},
        public_events=[{"type": "card_played", "text": "x", "args": {"seat": 1}}],
        private_events=[],
        by_clock=True,
        created_at=timezone.now() - timedelta(minutes=5),
    )


def test_the_row_and_its_event_are_saved_as_the_orm_would_save_them(alice, bob):
    game = napad_game(alice, bob)
    version = game.version
    deadline = timezone.now() + timedelta(hours=5)
    changes = {"version": version + 1, "to_move": [1], "deadline": deadline, "state": {"a": [1]}}
    event = _event(game, version + 1)
    with CaptureQueriesContext(connection) as queries:
        saved = update_then_insert(
            Game, {"pk": game.pk, "version": version}, changes, event, link="game"
        )
    assert saved
    # One statement on PostgreSQL; the update and the save one after the other elsewhere.
    assert len(queries) == (1 if connection.vendor == "postgresql" else 2)
    stored = Game.objects.get(pk=game.pk)
    assert (stored.version, stored.to_move, stored.deadline, stored.state) == (
        version + 1,
        [1],
        deadline,
        {"a": [1]},
    )
    assert event.pk is not None and not event._state.adding
    assert event.game_id == game.pk
    read = GameEvent.objects.get(pk=event.pk)
    assert [getattr(read, f.attname) for f in GameEvent._meta.concrete_fields] == [
        getattr(event, f.attname) for f in GameEvent._meta.concrete_fields
    ]


def test_nothing_is_written_when_the_game_moved_on(alice, bob):
    game = napad_game(alice, bob)
    stale = game.version
    Game.objects.filter(pk=game.pk).update(version=stale + 1)  # another writer came first
    event = _event(game, stale + 1)
    saved = update_then_insert(
        Game, {"pk": game.pk, "version": stale}, {"version": stale + 1}, event, link="game"
    )
    assert not saved
    assert event.pk is None
    assert not GameEvent.objects.filter(game=game, seq=stale + 1).exists()
    assert Game.objects.get(pk=game.pk).version == stale + 1


def test_another_games_row_is_not_touched(alice, bob):
    game, other = napad_game(alice, bob), napad_game(bob, alice)
    event = _event(game, game.version + 1)
    assert update_then_insert(
        Game, {"pk": game.pk, "version": game.version}, {"to_move": [0]}, event, link="game"
    )
    assert Game.objects.get(pk=other.pk).to_move == other.to_move
    assert list(GameEvent.objects.filter(game=other, seq=game.version + 1)) == []


def test_a_plain_update_counts_the_rows_it_changed_and_leaves_the_others(alice, bob):
    from games.guarded_save import update_rows
    from games.models import TurnClock

    game, other = napad_game(alice, bob), napad_game(bob, alice)
    started = timezone.now() - timedelta(hours=1)
    fields = {"version": 7, "started_at": started, "next_step": 2, "next_reminder_at": None}
    before = TurnClock.objects.get(game=other)
    assert update_rows(TurnClock, {"game": game.pk}, fields) == 1
    clock = TurnClock.objects.get(game=game)
    assert (clock.version, clock.started_at, clock.next_step, clock.next_reminder_at) == (
        7,
        started,
        2,
        None,
    )
    assert TurnClock.objects.get(game=other).version == before.version
    assert update_rows(TurnClock, {"game": game.pk + 1000}, fields) == 0
