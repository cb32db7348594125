"""A real Celery worker process for test_sweep_worker_killed.py, on the configured broker
and database (from the environment). Its queue, given as the only argument, is also made the
default queue, so the per-item tasks the sweep fans out (games/services/turns/sweep.py) stay
on it too, away from any other worker on the machine.

With ``NAPAD_TEST_SWEEP_ITEM_DELAY`` (seconds) each timeout and each reminder the sweep
applies waits that long *inside its transaction* — after the move or the ledger row is
written, before the commit — so the test can kill the worker in the middle of a sweep, and
most likely in the middle of an item, at a moment it chooses. Nothing in the site reads it.
"""

from __future__ import annotations

import os
import sys
import time

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "napad_site.settings_test")

import django  # noqa: E402

django.setup()

from games.services.clocks import reminders  # noqa: E402
from games.services.turns import timeouts  # noqa: E402
from napad_site.celery import app  # noqa: E402


def _slowed(original, delay: float):
    def wrapper(*args, **kwargs):
        time.sleep(delay)
        return original(*args, **kwargs)

    return wrapper


def main(queue: str) -> None:
    delay = float(os.environ.get("NAPAD_TEST_SWEEP_ITEM_DELAY") or 0)
    if delay:
        # Both run inside the item's transaction (games/services/turns/timeouts.py and
        # games/services/clocks/reminders.py look them up as module globals at call time).
        timeouts.seat_timeout_record = _slowed(timeouts.seat_timeout_record, delay)
        reminders.notification_send = _slowed(reminders.notification_send, delay)
    app.conf.task_always_eager = False
    app.conf.task_default_queue = queue
    app.worker_main(
        [
            "worker",
            "--pool=solo",
            f"--queues={queue}",
            f"--hostname=sweep-test-{os.getpid()}@localhost",
            "--loglevel=INFO",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ]
    )


if __name__ == "__main__":
    main(sys.argv[1])
