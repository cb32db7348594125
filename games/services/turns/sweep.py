"""The sweep: run every minute by Celery beat (``games.turns_sweep``) or by hand
(``manage.py sweep_turns``). It reads only what is due, through two indexes —
``TurnClock.next_reminder_at`` for reminders and ``Game.deadline`` for timeouts — so its cost
grows with the work to do, not with the number of games. Each item is claimed with a
conditional UPDATE (and a unique ledger row), so overlapping sweeps, several workers or a
retried task act on it once; nothing is scheduled hours ahead as a Celery ETA task.

Two ways to run it: :func:`turns_sweep` does every item itself (the command, tests, a small
club); :func:`turns_sweep_fan_out` — what beat runs — only finds the due items and queues one
small task per item *now*, so however many workers the club runs share the work and the
sweep itself stays short. A message delivered twice (Redis redelivers after its visibility
timeout) or an item queued again by the next minute's sweep finds it claimed and does nothing.

It sits with the moves no member clicks (above the play service) because a timeout is a
move; the reminders and the clock's bookkeeping it reads are games/services/clocks/'s.
"""

from __future__ import annotations

import time
from datetime import datetime

from django.conf import settings
from django.utils import timezone

from ..clocks.reminders import reminder_emails_retry, reminders_due_ids, reminders_due_send
from ..clocks.timeouts import timeouts_expired
from ..push.sending import pushes_due_ids, pushes_due_send
from ..queueing import task_send
from .timeouts import timeouts_expired_apply

DEFAULT_BATCH = 1000


def turns_sweep(*, now: datetime | None = None, batch: int | None = None) -> dict:
    """Send due reminders, apply expired deadlines, retry unsent reminder emails, send the
    pushes that are owed (games/services/push/) and that no hint has sent."""
    started = time.perf_counter()
    now = now or timezone.now()
    batch = batch or getattr(settings, "NAPAD_SWEEP_BATCH", DEFAULT_BATCH)
    # Timeouts first: a decision that has expired needs no reminder any more.
    timeouts = timeouts_expired_apply(now, batch=batch)
    reminders = reminders_due_send(now, batch=batch)
    emails_retried = reminder_emails_retry(now)
    pushes = pushes_due_send(now, batch=batch)
    return {
        "timeouts": timeouts,
        "reminders": reminders,
        "emails_retried": emails_retried,
        "pushes": pushes,
        "seconds": round(time.perf_counter() - started, 4),
    }


def turns_sweep_fan_out(
    *, now: datetime | None = None, batch: int | None = None, queue=task_send
) -> dict:
    """Find what is due and queue one task per item for the workers to share."""
    started = time.perf_counter()
    now = now or timezone.now()
    batch = batch or getattr(settings, "NAPAD_SWEEP_BATCH", DEFAULT_BATCH)
    expired = timeouts_expired(now, batch=batch)
    for game_id, version, deadline in expired:
        queue("games.turn_timeout_apply", (game_id, version, deadline.isoformat()))
    reminders = reminders_due_ids(now, batch=batch)
    for game_id in reminders:
        queue("games.turn_reminder_send", (game_id,))
    emails_retried = reminder_emails_retry(now)
    pushes = pushes_due_ids(now, batch=batch)
    for message_id in pushes:
        queue("games.push_send", (message_id,))
    return {
        "timeouts_queued": len(expired),
        "reminders_queued": len(reminders),
        "emails_retried": emails_retried,
        "pushes_queued": len(pushes),
        "seconds": round(time.perf_counter() - started, 4),
    }
