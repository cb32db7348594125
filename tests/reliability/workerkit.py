"""The processes of a reliability test (a Celery worker, beat, one-shot commands of a script
like bot_worker.py) on a queue of their own, with their output kept for failures."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
PROCESS_START_SECONDS = 120


def clean_environment(tmp_path: Path) -> dict[str, str]:
    """This environment without the site's settings, on the embedded default in ``tmp_path``."""
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "NAPAD_")) and k not in {"DATABASE_URL", "REDIS_URL"}
    }
    clean.update(DJANGO_SETTINGS_MODULE="napad_site.settings", NAPAD_VAR_DIR=str(tmp_path / "var"))
    return clean


def database_url() -> str:
    """The test database as a URL, for processes that must share it (PostgreSQL)."""
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db["PASSWORD"] else ""
    return f"postgres://{db['USER']}{password}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}"


class Harness:
    """The processes of one run, on one queue, with their output kept for failures."""

    def __init__(self, tmp_path: Path, env: dict[str, str], script: Path):
        self.tmp = tmp_path
        self.script = script
        self.queue = f"bot-test-{uuid.uuid4().hex[:10]}"
        self.env = {**env, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
        self.processes: list[tuple[subprocess.Popen, Path]] = []

    def run(self, *args: str) -> dict:
        done = subprocess.run(
            [sys.executable, str(self.script), *args],
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
            [sys.executable, str(self.script), name, self.queue, *args],
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


def run_embedded(tmp_path: Path, script: Path, scenario) -> None:
    """``scenario(harness)`` with the club's processes on the embedded default (SQLite and
    the filesystem broker in ``tmp_path``)."""
    harness = Harness(tmp_path, clean_environment(tmp_path), script)
    try:
        scenario(harness)
    finally:
        harness.stop_all()


def run_scaled(tmp_path: Path, script: Path, scenario) -> None:
    """``scenario(harness)`` with the club's processes on this test's PostgreSQL database and
    Redis; the test's queue is deleted afterwards, so nothing is left on a shared Redis."""
    from napad_site.celery import app

    assert connection.vendor == "postgresql"
    env = {
        **clean_environment(tmp_path),
        "DJANGO_HTTPS": "false",
        "DATABASE_URL": database_url(),
        "REDIS_URL": os.environ["REDIS_URL"],
    }
    harness = Harness(tmp_path, env, script)
    try:
        scenario(harness)
    finally:
        harness.stop_all()
        with app.connection_for_write() as broker:
            broker.default_channel.queue_delete(harness.queue)
