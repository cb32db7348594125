"""A Celery worker is killed (SIGKILL) in the middle of a bot's move and started again: the
bot moves within 30 s of the new worker being ready, exactly once, and the game's log has no
gap. Once on Redis + PostgreSQL (the scaled setup), once on the embedded ``filesystem://``
broker + SQLite, with real processes: the worker, beat (which keeps running, as it does in a
club), and the game's setup, all from tests/reliability/bot_worker.py on a queue of their own.

What makes it work is the database, not the broker: the move that made the bot's turn wrote
``Game.auto_move_due_at`` in its transaction; the killed move's transaction rolled back, so
the row still says the bot owes its move, and beat's followups sweep (every 10 s) claims it
and queues it again (games/services/followups.py). Redis would hand the killed worker's
message out again only after its visibility timeout; the filesystem broker never would.

"Exactly once" is shown by ordering, not by waiting: beat is stopped, then a marker task is
queued behind whatever the sweeps queued; once the marker has run, so has everything before
it, and the log still holds one bot move."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(__file__).with_name("bot_worker.py")
BOT = 1
# What the issue asks of a restart; the waits around it are generous (a busy machine).
RECOVERY_SECONDS = 30
PROCESS_START_SECONDS = 120


class Harness:
    """The processes of one run, on one queue, with their output kept for failures."""

    def __init__(self, tmp_path: Path, env: dict[str, str]):
        self.tmp = tmp_path
        self.queue = f"bot-test-{uuid.uuid4().hex[:10]}"
        self.env = {**env, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
        self.processes: list[tuple[subprocess.Popen, Path]] = []

    def run(self, *args: str) -> dict:
        done = subprocess.run(
            [sys.executable, str(SCRIPT), *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=PROCESS_START_SECONDS,
        )
        assert done.returncode == 0, done.stderr[-3000:]
        return json.loads(done.stdout.strip().splitlines()[-1])

    def start(self, name: str, *args: str) -> tuple[subprocess.Popen, Path]:
        log = self.tmp / f"{name}-{len(self.processes)}.log"
        process = subprocess.Popen(
            [sys.executable, str(SCRIPT), name, self.queue, *args],
            cwd=ROOT,
            env=self.env,
            stdout=log.open("w"),
            stderr=subprocess.STDOUT,
        )
        self.processes.append((process, log))
        return process, log

    def logs(self) -> str:
        return "\n".join(f"--- {log.name}\n{log.read_text()[-2500:]}" for _p, log in self.processes)

    def wait_for(self, what: str, predicate, seconds: float) -> float:
        """Poll until ``predicate()``; returns the seconds it took."""
        started = time.monotonic()
        while time.monotonic() - started < seconds:
            if predicate():
                return time.monotonic() - started
            time.sleep(0.2)
        raise AssertionError(f"timed out waiting for {what}\n{self.logs()}")

    def stop_all(self) -> None:
        for process, _log in self.processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process, _log in self.processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _killed_mid_move_and_restarted(harness: Harness) -> None:
    game = str(harness.run("setup", harness.queue)["game"])
    hang = harness.tmp / "hanging"
    harness.start("beat", str(harness.tmp / "beat-schedule"))
    first, _log = harness.start("worker", str(hang))
    # The worker takes the bot's move (queued after the setup's commit) and stops inside it.
    harness.wait_for("the bot's move to begin", hang.exists, PROCESS_START_SECONDS)
    assert harness.run("events", game)["events"] == []
    first.send_signal(signal.SIGKILL)
    first.wait(timeout=30)
    # The killed move's transaction is gone with it: the bot still owes its move.
    state = harness.run("events", game)
    assert state["events"] == [] and state["version"] == 0 and state["move_owed"], state

    _second, log = harness.start("worker")
    harness.wait_for(
        "the new worker to be ready", lambda: " ready." in log.read_text(), PROCESS_START_SECONDS
    )
    took = harness.wait_for(
        "the bot to move",
        lambda: harness.run("events", game)["events"] != [],
        RECOVERY_SECONDS,
    )
    print(f"the bot moved {took:.1f} s after the restarted worker was ready")

    # Ordering: no more sweeps, then a marker behind anything they queued.
    beat_process = harness.processes[0][0]
    beat_process.send_signal(signal.SIGTERM)
    beat_process.wait(timeout=30)
    reached = harness.tmp / "marker"
    harness.run("marker", harness.queue, str(reached))
    harness.wait_for("the marker task", reached.exists, PROCESS_START_SECONDS)
    state = harness.run("events", game)
    assert state["events"] == [[1, BOT, False]], state
    assert state["version"] == 1 and state["to_move"] == [0] and not state["move_owed"], state


def _kill_and_restart(tmp_path: Path, *, after=None, **env: str) -> None:
    """One run with the club's processes in ``env`` (besides a clean environment);
    ``after(queue)`` cleans up once they are stopped."""
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "NAPAD_")) and k not in {"DATABASE_URL", "REDIS_URL"}
    }
    clean.update(DJANGO_SETTINGS_MODULE="napad_site.settings", NAPAD_VAR_DIR=str(tmp_path / "var"))
    harness = Harness(tmp_path, {**clean, **env})
    try:
        _killed_mid_move_and_restarted(harness)
    finally:
        harness.stop_all()
        if after is not None:
            after(harness.queue)


@pytest.mark.slow
def test_a_bot_move_killed_with_its_worker_is_made_once_after_a_restart_embedded(tmp_path):
    _kill_and_restart(tmp_path)


def _database_url() -> str:
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db["PASSWORD"] else ""
    return f"postgres://{db['USER']}{password}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.mark.slow
@pytest.mark.scaled
@pytest.mark.django_db(transaction=True)
def test_a_bot_move_killed_with_its_worker_is_made_once_after_a_restart_on_redis(tmp_path):
    from napad_site.celery import app

    assert connection.vendor == "postgresql"

    def queue_delete(queue: str) -> None:
        # Leave no messages behind on a shared Redis.
        with app.connection_for_write() as broker:
            broker.default_channel.queue_delete(queue)

    _kill_and_restart(
        tmp_path,
        after=queue_delete,
        DJANGO_HTTPS="false",
        DATABASE_URL=_database_url(),
        REDIS_URL=os.environ["REDIS_URL"],
    )
