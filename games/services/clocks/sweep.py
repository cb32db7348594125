"""The sweep: run every minute by Celery beat (``games.turns_sweep``) or by hand
(``manage.py sweep_turns``). It reads only what is due, through two indexes —
``TurnClock.next_reminder_at`` for reminders and ``Game.deadline`` for timeouts — so its cost
grows with the work to do, not with the number of games. Each item is claimed with a
conditional UPDATE (and a unique ledger row), so overlapping sweeps, several workers or a
retried task act on it once; nothing is scheduled hours ahead as a Celery ETA task.
"""

from __future__ import annotations

import time
from datetime import datetime

from django.conf import settings
from django.utils import timezone

from .reminders import reminder_emails_retry, reminders_due_send
from .timeouts import timeouts_expired_apply

DEFAULT_BATCH = 1000


def turns_sweep(*, now: datetime | None = None, batch: int | None = None) -> dict:
    """Send due reminders, apply expired deadlines, retry unsent reminder emails."""
    started = time.perf_counter()
    now = now or timezone.now()
    batch = batch or getattr(settings, "NAPAD_SWEEP_BATCH", DEFAULT_BATCH)
    # Timeouts first: a decision that has expired needs no reminder any more.
    timeouts = timeouts_expired_apply(now, batch=batch)
    reminders = reminders_due_send(now, batch=batch)
    emails_retried = reminder_emails_retry(now)
    return {
        "timeouts": timeouts,
        "reminders": reminders,
        "emails_retried": emails_retried,
        "seconds": round(time.perf_counter() - started, 4),
    }
