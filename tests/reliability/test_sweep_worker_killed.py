"""A Celery worker is killed (SIGKILL) in the middle of the deadline sweep, twice — once
among the timeouts, once among the reminders — and started again: in the end every timeout
and every reminder was applied exactly once. No game timed out twice or not at all, no
reminder is missing or doubled in the ledger, on the bell or in the mail.

The sweep beat runs fans out one task per due item (games/services/turns/sweep.py). A
killed worker loses the item it was in the middle of (its transaction rolls back; Redis
would redeliver the unacknowledged message only after the visibility timeout) and leaves the
rest queued: the restarted worker takes those, and the next minute's sweep queues again
whatever is still due — items queued twice must find themselves claimed. The last round runs
two workers at once, as a scaled club does.

The worker is a separate process (tests/reliability/sweep_worker.py) on the configured
broker (Redis) and this test's PostgreSQL database, on a queue of its own so no other
worker on the machine takes its tasks. It is made slow per item (an environment variable
read only by that script), so "in the middle" is a moment the test picks, not luck."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections import Counter
from datetime import timedelta
from pathlib import Path

import pytest
import time_machine
from django.core import mail
from django.db import connection
from django.db.models import Count
from django.utils import timezone
from reliakit import started_game

from games.models import Game, GameEvent, Notification, ReminderSent, Seat, TurnClock
from games.services.clocks.reminders import (
    EMAIL_CLAIM_LEASE,
    reminder_emails_retry,
    stable_message_id,
)
from games.services.turns import turns_sweep
from games.tasks import turns_sweep_task
from napad_site.celery import app

pytestmark = [pytest.mark.scaled, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT_GAMES = 24
REMINDER_GAMES = 24
ITEM_DELAY = "0.1"


def _database_url() -> str:
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db["PASSWORD"] else ""
    return f"postgres://{db['USER']}{password}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}"


class Worker:
    """One ``sweep_worker.py`` process; its output goes to a log file for failures."""

    def __init__(self, queue: str, var_dir: Path, *, delay: str = ""):
        env = dict(os.environ)
        env.update(
            DATABASE_URL=_database_url(),
            NAPAD_VAR_DIR=str(var_dir),
            NAPAD_TEST_SWEEP_ITEM_DELAY=delay,
            PYTHONPATH=str(ROOT),
        )
        self.log = var_dir / f"worker-{uuid.uuid4().hex[:6]}.log"
        self.process = subprocess.Popen(
            [sys.executable, str(Path(__file__).with_name("sweep_worker.py")), queue],
            cwd=ROOT,
            env=env,
            stdout=self.log.open("w"),
            stderr=subprocess.STDOUT,
        )

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        # A warm shutdown: the task at hand finishes first.
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.kill()


def _wait_for(predicate, worker: Worker, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return
        assert worker.process.poll() is None, worker.log.read_text()[-3000:]
        time.sleep(0.02)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pid, state, wait_event, left(query, 80) FROM pg_stat_activity")
        activity = cursor.fetchall()
    raise AssertionError(
        f"timed out waiting ({_timeouts_done()} timeouts, {_reminders_done()} reminders); "
        f"database: {activity}; worker log:\n{worker.log.read_text()[-3000:]}"
    )


def _timeouts_done() -> int:
    return GameEvent.objects.filter(by_clock=True).count()


def _reminders_done() -> int:
    return ReminderSent.objects.count()


def _due_games(alice, bob) -> tuple[list[Game], list[Game]]:
    """Games whose deadline has passed, and games whose first reminder (50 %) is due."""
    limit = timedelta(hours=10)
    timeout_games = [started_game(alice, bob, limit=limit) for _ in range(TIMEOUT_GAMES)]
    reminder_games = [started_game(alice, bob, limit=limit) for _ in range(REMINDER_GAMES)]
    now = timezone.now()
    # As if each clock had started long enough ago (the sweep reads the real time).
    expired_start = now - limit - timedelta(seconds=1)
    for game in timeout_games:
        Game.objects.filter(pk=game.pk).update(deadline=expired_start + limit)
        TurnClock.objects.filter(game=game).update(
            started_at=expired_start, next_reminder_at=None, next_step=3
        )
    half_start = now - timedelta(hours=6)
    for game in reminder_games:
        Game.objects.filter(pk=game.pk).update(deadline=half_start + limit)
        TurnClock.objects.filter(game=game).update(
            started_at=half_start, next_reminder_at=half_start + limit / 2
        )
    return timeout_games, reminder_games


def test_a_worker_killed_mid_sweep_and_restarted_applies_everything_exactly_once(
    alice, bob, tmp_path
):
    assert connection.vendor == "postgresql"
    assert app.conf.broker_url.startswith("redis")
    app.conf.task_always_eager = False
    timeout_games, reminder_games = _due_games(alice, bob)
    queue = f"sweep-test-{uuid.uuid4().hex}"
    try:
        _kill_restart_and_finish(queue, tmp_path)
    finally:
        # Leave no messages behind on a shared Redis.
        with app.connection_for_write() as broker:
            broker.default_channel.queue_delete(queue)
    _assert_everything_applied_once(timeout_games, reminder_games, tmp_path)


def _kill_restart_and_finish(queue: str, tmp_path: Path) -> None:
    # 1. Killed among the timeouts (they come first in a sweep).
    worker = Worker(queue, tmp_path, delay=ITEM_DELAY)
    turns_sweep_task.apply_async(queue=queue)
    _wait_for(lambda: _timeouts_done() >= 5, worker)
    worker.kill()
    assert 5 <= _timeouts_done() < TIMEOUT_GAMES and _reminders_done() == 0

    # 2. Restarted (beat sends the next sweep a minute later), killed among the reminders.
    worker = Worker(queue, tmp_path, delay=ITEM_DELAY)
    turns_sweep_task.apply_async(queue=queue)
    _wait_for(lambda: _reminders_done() >= 5, worker)
    worker.kill()
    # The timeout lost with the first worker is queued again by this sweep, behind the
    # reminders the first one queued: it may still be waiting.
    assert _timeouts_done() >= TIMEOUT_GAMES - 1 and 5 <= _reminders_done() < REMINDER_GAMES

    # 3. Two workers at full speed, and two more sweeps.
    workers = [Worker(queue, tmp_path), Worker(queue, tmp_path)]
    turns_sweep_task.apply_async(queue=queue)
    turns_sweep_task.apply_async(queue=queue)
    _wait_for(lambda: _reminders_done() == REMINDER_GAMES, workers[0])
    for worker in workers:
        worker.stop()


def _assert_everything_applied_once(timeout_games, reminder_games, tmp_path: Path) -> None:
    # Nothing is left for a sweep to do, and a sweep now does nothing again.
    again = turns_sweep()
    assert again["timeouts"] == {} and again["reminders"] == {}, again

    for game in timeout_games:
        events = list(GameEvent.objects.filter(game=game).values_list("seq", "by_clock"))
        assert events == [(1, True)], (game.pk, events)
        game.refresh_from_db()
        assert game.version == 1 and game.deadline > timezone.now()
        timed_out = Seat.objects.filter(game=game, timeouts__gt=0)
        assert list(timed_out.values_list("timeouts", flat=True)) == [1]
    for game in reminder_games:
        assert not GameEvent.objects.filter(game=game).exists()
        assert list(ReminderSent.objects.filter(game=game).values_list("version", "step")) == [
            (0, 0)
        ]

    by_kind = dict(
        Notification.objects.values_list("kind").annotate(n=Count("pk")).values_list("kind", "n")
    )
    assert by_kind == {"timeout": TIMEOUT_GAMES, "turn_reminder": REMINDER_GAMES}
    per_game = Notification.objects.values("game", "kind").annotate(n=Count("pk"))
    assert {row["n"] for row in per_game} == {1}

    # Emails: sent by the workers into their mail folder, each with its ledger row's own
    # Message-ID. Sending and marking "sent" are two steps: a worker killed between them
    # leaves a sent email unmarked, and its retry goes out again with the same Message-ID (the
    # same message, not a new one). One killed between claiming and sending leaves it unsent
    # until its claim goes stale; then the next sweep sends it.
    rows = dict(ReminderSent.objects.filter(email_due=True).values_list("pk", "email_sent_at"))
    assert len(rows) == REMINDER_GAMES
    by_workers = Counter(
        _message_ids("".join(path.read_text() for path in sorted(tmp_path.glob("mail/*.log"))))
    )
    assert set(by_workers) <= {stable_message_id("reminder", pk) for pk in rows}
    for pk, sent_at in rows.items():
        if sent_at is not None:
            assert by_workers[stable_message_id("reminder", pk)] == 1, pk
    # Only the one email a kill caught between its commit and its mark can be unmarked.
    unmarked = [pk for pk, sent_at in rows.items() if sent_at is None]
    assert len(unmarked) <= 1, unmarked
    mail.outbox.clear()
    with time_machine.travel(timezone.now() + EMAIL_CLAIM_LEASE + timedelta(seconds=1)):
        reminder_emails_retry(timezone.now())
    retried = Counter(message.extra_headers["Message-ID"] for message in mail.outbox)
    assert set(retried) == {stable_message_id("reminder", pk) for pk in unmarked}
    assert set(by_workers) | set(retried) == {stable_message_id("reminder", pk) for pk in rows}
    # ... and only that one can have gone out twice.
    assert sum(count - 1 for count in (by_workers + retried).values()) <= len(unmarked)
    assert ReminderSent.objects.filter(email_due=True, email_sent_at__isnull=True).count() == 0


def _message_ids(mailbox: str) -> list[str]:
    """The Message-ID header of every email in the file backend's mail logs."""
    return [
        line.split(":", 1)[1].strip()
        for line in mailbox.splitlines()
        if line.lower().startswith("message-id:")
    ]
