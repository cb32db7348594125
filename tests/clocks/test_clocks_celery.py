"""A real Celery worker (in this process, on the configured broker: ``filesystem://`` in a
temporary folder embedded, Redis in the scaled run) runs the sweep task: the timeout is played
and the bot that moves next plays through its own task, end to end."""

from __future__ import annotations

import json
import os
import time
import uuid
from datetime import timedelta

import pytest
from celery.contrib.testing.worker import start_worker
from clockkit import legal, started_game, user_to_move
from django.conf import settings
from django.db import OperationalError
from django.utils import timezone
from kombu import pools as kombu_pools

from games.models import Game, GameEvent, TurnClock
from games.tasks import followups_sweep_task, turns_sweep_task
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


# How often the waits below do the beat's work: the club's beat queues the followups sweep
# every 10 s, and no beat runs here.
BEAT_PERIOD = 10.0


def _wait_for(predicate, seconds: float = 30.0) -> bool:
    """Whether ``predicate`` comes true within ``seconds``, queueing the followups sweep to the
    worker every ``BEAT_PERIOD`` meanwhile, as the beat would.

    A task can fail on its way: the embedded test database is SQLite in shared memory, where
    a writer finds a table locked (at once, no busy timeout) while this thread reads it. The
    move it owed is still due in the game's row, and the sweep queues it again, which is
    what the club relies on too; the fast path is what runs first."""
    start = time.monotonic()
    deadline = start + seconds
    next_beat = start + BEAT_PERIOD
    while time.monotonic() < deadline:
        try:
            if predicate():
                return True
        except OperationalError:
            # The same shared-memory lock, met by this reader while the worker writes.
            pass
        if time.monotonic() >= next_beat:
            followups_sweep_task.delay()
            next_beat += BEAT_PERIOD
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
    assert _wait_for(lambda: game.refresh_from_db() or True)
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
    # The worker may still be writing the bot's next move: read when the table is free.
    assert _wait_for(lambda: game.refresh_from_db() or True)
    assert game.status == Game.Status.FINISHED or game.deadline > timezone.now()
    assert _wait_for(
        lambda: GameEvent.objects.filter(game=game, seq=version + 1, by_clock=True).count() == 1
    )


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_practice_tables_hard_bots_move_in_the_worker_not_in_the_request(
    alice, alice_client, celery_worker
):
    """The member's move answers at once, drawn before any bot played; the hard bots'
    searches run in the worker, through the same bot-move task as every bot."""
    from games.engines import get_engine
    from games.services.rulesets import rulesets_install_defaults

    rulesets_install_defaults()
    location = alice_client.post("/games/practice", {"table": "colt"})["Location"]
    game = Game.objects.get(pk=int(location.strip("/").split("/")[-1]))
    assert game.practice and game.seats.filter(bot_kind="search").count() == 3
    alice_seat = game.seats.get(player__user=alice).position
    engine = get_engine(game.kind)
    for _turn in range(20):
        # The bots before the member (if any) play first, in the worker.
        assert _wait_for(lambda: user_to_move(game, [alice]) == alice, seconds=120)
        assert _wait_for(lambda: game.refresh_from_db() or True)
        version = game.version
        action = legal(game)[0]
        after, _events = engine.apply(engine.from_json(game.state), alice_seat, action)
        response = alice_client.post(
            f"/games/{game.pk}/act",
            {"action": json.dumps(action), "version": str(version)},
            HTTP_HX_REQUEST="true",
        )
        assert response.status_code == 200
        # The answer is the board right after the member's own move.
        assert f'data-version="{version + 1}"' in response.content.decode()
        if engine.to_move(after) != [alice_seat]:
            break
    else:
        raise AssertionError("the bots never had a turn")

    def a_bot_answered() -> bool:
        return GameEvent.objects.filter(game=game, seq=version + 2, seat__in=[1, 2, 3]).exists()

    assert _wait_for(a_bot_answered, seconds=120), "no hard bot moved through the worker"
