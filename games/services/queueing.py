"""Sending Celery tasks once a transaction commits, without ever failing the request.

The change is already committed when the message is sent, so a broker that is away must not
turn the member's answer into a 500: the failure is logged, and what the task would have done
is caught up later from the database — a bot's move and a finished game's results by the
followups sweep (games/services/followups.py), a timeout by the clock's sweep.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import transaction

logger = logging.getLogger(__name__)


def task_queue_on_commit(task_name: str, args: tuple, *, countdown: float | None = None) -> None:
    """After commit, send ``games.tasks.<task_name>`` with ``args``."""

    def send() -> None:
        # Imported here: the task module imports the services.
        from games import tasks

        try:
            getattr(tasks, task_name).apply_async(args, countdown=countdown)
        except Exception:
            logger.exception("could not queue %s%r; it will be caught up later", task_name, args)

    transaction.on_commit(send)


def bot_move_queue_on_commit(game_id: int, version: int) -> None:
    """The bot to move plays, a short delay after commit so people can follow."""
    task_queue_on_commit(
        "bot_move_play_task", (game_id, version), countdown=settings.NAPAD_BOT_MOVE_DELAY
    )
