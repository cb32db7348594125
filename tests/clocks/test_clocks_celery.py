"""A real Celery worker (in this process, on the configured broker: ``filesystem://`` in a
temporary folder embedded, Redis in the scaled run) runs the sweep task: the timeout is played
and the bot that moves next plays through its own task, end to end."""

from __future__ import annotations

import os
import time
import uuid
from datetime import timedelta

import pytest
from celery.contrib.testing.worker import start_worker
from clockkit import started_game, user_to_move
from django.conf import settings
from django.db import OperationalError
from django.utils import timezone
from kombu import pools as kombu_pools

from games.models import Game, GameEvent, TurnClock
from games.tasks import turns_sweep_task
from napad_site.celery import app


def _reset_connections() -> None:
    """Drop pooled broker connections so the next message uses the broker now configured."""
    # app.pool is kombu's global pool for the broker URL: closing it without clearing kombu's
    # registry would leave a closed pool behind for the next message ("Acquire on closed pool").
    kombu_pools.reset()
    app._pool = None
    app.amqp._producer_pool = None


@pytest.fixture
def celery_worker(tmp_path):
    saved = app.conf.broker_url, dict(app.conf.broker_transport_options or {})
    own_folder = not os.environ.get("REDIS_URL")
    if own_folder:
        # A folder of our own, so no other worker (a running club) takes these messages.
        queue = tmp_path / "queue"
        processed = tmp_path / "processed"
        queue.mkdir()
        processed.mkdir()
        app.conf.broker_url = "filesystem://"
        app.conf.broker_transport_options = {
            "data_folder_in": str(queue),
            "data_folder_out": str(queue),
            "processed_folder": str(processed),
            "store_processed": False,
            "control_folder": str(tmp_path / "control"),
        }
        _reset_connections()
    app.conf.task_always_eager = False
    # A queue of our own too (the scaled run shares Redis with other workers on the machine).
    saved_queue = app.conf.task_default_queue
    app.conf.task_default_queue = f"clocks-test-{uuid.uuid4().hex[:8]}"
    with start_worker(
        app,
        pool="solo",
        perform_ping_check=False,
        shutdown_timeout=10,
        queues=[app.conf.task_default_queue],
    ) as worker:
        yield worker
    app.conf.task_default_queue = saved_queue
    if own_folder:
        app.conf.broker_url, app.conf.broker_transport_options = saved
        _reset_connections()


def _wait_for(predicate, seconds: float = 30.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if predicate():
                return True
        except OperationalError:
            # The embedded test database is SQLite in shared memory: a reader can find a
            # table locked while the worker's thread writes. Look again.
            pass
        time.sleep(0.1)
    return False


def test_the_beat_runs_the_sweep_every_minute_and_the_digest_hourly():
    schedule = {
        entry["task"]: entry["schedule"] for entry in settings.CELERY_BEAT_SCHEDULE.values()
    }
    assert schedule["games.turns_sweep"] == 60.0
    assert schedule["games.digests_send"] == 3600.0


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_worker_sweeps_a_timeout_and_the_bot_answers(alice, celery_worker):
    game = started_game(alice, bot_seats={1: "heuristic"}, limit=timedelta(minutes=5))
    # Wait for the bot if it begins (its move goes through the worker too).
    assert _wait_for(lambda: user_to_move(game, [alice]) == alice)
    game.refresh_from_db()
    version = game.version
    # Five minutes pass (the clock row and the deadline both moved back).
    expired = timezone.now() - timedelta(seconds=1)
    Game.objects.filter(pk=game.pk).update(deadline=expired)
    TurnClock.objects.filter(game=game).update(started_at=expired - game.turn_time_limit)

    turns_sweep_task.delay()

    def timed_out_and_bot_moved() -> bool:
        events = list(GameEvent.objects.filter(game=game, seq__gt=version).order_by("seq"))
        return (
            len(events) >= 2
            and events[0].by_clock
            and any(event.seat == 1 and not event.by_clock for event in events[1:])
        )

    assert _wait_for(timed_out_and_bot_moved), "the worker did not play the timeout and the bot"
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED or game.deadline > timezone.now()
    assert GameEvent.objects.filter(game=game, seq=version + 1, by_clock=True).count() == 1
