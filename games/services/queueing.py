"""Sending Celery tasks once a transaction commits, without ever failing the request.

The change is already committed when the message is sent, so a broker that is away must not
turn the member's answer into a 500: the failure is logged, and what the task would have done
is caught up later from the database — a bot's move and a finished game's results by the
followups sweep (games/services/followups.py), a timeout by the clock's sweep.
"""

from __future__ import annotations

import logging

from celery import signature
from django.conf import settings
from django.db import transaction

logger = logging.getLogger(__name__)


def task_send(task_name: str, args: tuple, *, countdown: float | None = None) -> None:
    """Send the Celery task registered as ``task_name`` (``games.tasks`` names them).

    Sent by name, so the services never import the task module (which imports them). A
    signature runs the registered task's own ``apply_async``, so an eager configuration (the
    tests, ``CELERY_TASK_ALWAYS_EAGER``) still runs it in place: GamesConfig.ready registers
    the tasks in every process.
    """
    signature(task_name, args=args).apply_async(countdown=countdown)


def task_queue_on_commit(task_name: str, args: tuple, *, countdown: float | None = None) -> None:
    """After commit, send the task ``task_name`` with ``args``."""

    def send() -> None:
        try:
            task_send(task_name, args, countdown=countdown)
        except Exception:
            logger.exception("could not queue %s%r; it will be caught up later", task_name, args)

    transaction.on_commit(send)


def bot_move_queue_on_commit(game_id: int, version: int) -> None:
    """The bot to move plays, a short delay after commit so people can follow."""
    task_queue_on_commit(
        "games.bot_move_play", (game_id, version), countdown=settings.NAPAD_BOT_MOVE_DELAY
    )
