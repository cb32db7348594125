"""Telling open pages that something changed, always after the transaction commits.

Messages carry no secrets — only "game N is at version V" or "user N has news" — and each
consumer renders what its own user may see (style.md: never one shared payload).

Every send also carries ``sent``, an id of its own: the sockets that receive the same send may
share the database read (and viewers in the same position the render) it calls for, because
all of them read after the same commit (games/consumers.py).

A send costs one write to the channel layer, made synchronously over a connection the process
keeps (games/group_send.py): no event loop started, no Redis connection opened per move.
"""

from __future__ import annotations

import logging
import uuid

from channels.layers import get_channel_layer
from django.db import transaction

from .group_send import group_send

logger = logging.getLogger(__name__)


def game_group(game_id: int) -> str:
    return f"game-{game_id}"


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def _send(group: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        group_send(layer, group, {**message, "sent": uuid.uuid4().hex})
    except Exception:
        # A lost broadcast costs a live update, never the move: pages catch up on reconnect.
        logger.exception("broadcast to %s failed", group)


def game_updated_on_commit(game_id: int, version: int) -> None:
    transaction.on_commit(
        lambda: _send(game_group(game_id), {"type": "game.updated", "version": version})
    )


def user_notified_on_commit(user_id: int) -> None:
    transaction.on_commit(lambda: _send(user_group(user_id), {"type": "user.notified"}))
