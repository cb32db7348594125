"""Exactly once under real concurrency: two sweeps in two threads, on PostgreSQL with its row
locks (the scaled run). Each reminder is sent once and each timeout is applied once.

The embedded run proves the same with overlapping sweeps one after the other
(``test_clocks_reminders`` and ``test_clocks_timeouts``): SQLite serialises writers anyway.
"""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from clockkit import started_game
from django.db import connection
from django.utils import timezone

from games.models import Game, GameEvent, Notification, ReminderSent, Seat, TurnClock
from games.services.turns import turns_sweep

GAMES = 12


def _run_together(target, count: int = 2) -> list:
    results: list = []
    errors: list = []
    start = threading.Barrier(count)

    def run() -> None:
        try:
            start.wait()
            results.append(target())
        except Exception as error:  # reported below, with the thread's failure
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors, errors
    return results


@pytest.mark.scaled
@pytest.mark.django_db(transaction=True)
def test_two_sweeps_at_once_send_each_reminder_and_apply_each_timeout_once(alice, bob, mailoutbox):
    now = timezone.now()
    limit = timedelta(hours=10)
    games = [started_game(alice, bob, limit=limit) for _ in range(GAMES)]
    due_reminder = games[: GAMES // 2]
    due_timeout = games[GAMES // 2 :]
    for game in due_reminder:
        # Half the turn time has gone: the first reminder is due.
        started = now - limit / 2 - timedelta(seconds=1)
        Game.objects.filter(pk=game.pk).update(deadline=started + limit)
        TurnClock.objects.filter(game=game).update(
            started_at=started, next_reminder_at=started + limit / 2
        )
    for game in due_timeout:
        started = now - limit - timedelta(seconds=1)
        Game.objects.filter(pk=game.pk).update(deadline=started + limit)
        TurnClock.objects.filter(game=game).update(
            started_at=started, next_reminder_at=started + limit * 0.95
        )
    versions = {game.pk: Game.objects.get(pk=game.pk).version for game in due_timeout}

    results = _run_together(lambda: turns_sweep(now=timezone.now()))

    assert len(results) == 2
    for game in due_timeout:
        clocked = GameEvent.objects.filter(game=game, by_clock=True)
        assert clocked.count() == 1
        assert clocked.get().seq == versions[game.pk] + 1
    assert sum(Seat.objects.filter(game__in=due_timeout).values_list("timeouts", flat=True)) == len(
        due_timeout
    )
    for game in due_reminder:
        assert ReminderSent.objects.filter(game=game).count() == 1
        assert Notification.objects.filter(game=game, kind="turn_reminder").count() == 1
    assert len(mailoutbox) == len(due_reminder)
