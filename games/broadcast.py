"""Telling open pages that something changed, always after the transaction commits.

Messages carry no secrets — only "game N is at version V" or "user N has news" — and each
consumer renders what its own user may see (style.md: never one shared payload).

Every send also carries ``sent``, an id of its own: the sockets that receive the same send may
share the database read (and viewers in the same position the render) it calls for, because
all of them read after the same commit (games/realtime/consumers.py).

A send is the channel layer's own public ``group_send``. It comes from synchronous code (a view
after its commit, a Celery task), so it runs on one event loop the process keeps in a daemon
thread (``LayerLoop``) rather than through ``async_to_sync``, which would start a loop per
call — and channels-redis keeps its Redis connections per loop, so each move would also connect
afresh. The in-memory layer of the tests lives in the loop that reads it: it is sent to with
``async_to_sync``, which runs the send on the test's own loop when there is one.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import os
import threading
import uuid
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import ThreadSensitiveContext, async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)

# Generous: a send is a Redis round trip or an INSERT in the embedded SQLite file, but a busy
# SQLite writer may hold the file for seconds. A send still waiting after this is given up
# (and logged): pages catch up on reconnect.
SEND_TIMEOUT_SECONDS = 30.0


class LayerLoop:
    """One event loop in a daemon thread, running coroutines for synchronous callers.

    Its coroutines' thread-sensitive ``sync_to_async`` calls (channels-lite's ORM queries) run
    on one worker thread of its own, not on the caller's: the caller is blocked waiting for the
    result, and a query sent to its thread (or to asgiref's shared one, which the caller may be
    occupying) would wait for it forever.
    """

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.loop = asyncio.new_event_loop()
        self._context: contextvars.Context | None = None
        self._ready = threading.Event()
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="napad-layer-sync")
        self.thread = threading.Thread(target=self._run, name="napad-layer-loop", daemon=True)
        self.thread.start()
        self._ready.wait()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self._serve())

    async def _serve(self) -> None:
        async with ThreadSensitiveContext(executor=self._worker):
            # Every coroutine runs in a copy of this context, so inside the block above.
            self._context = contextvars.copy_context()
            self._ready.set()
            await asyncio.Event().wait()  # for the life of the process

    async def _in_context(self, coroutine: Coroutine[Any, Any, Any]) -> Any:
        assert self._context is not None
        return await asyncio.create_task(coroutine, context=self._context.copy())

    def run(self, coroutine: Coroutine[Any, Any, Any], timeout: float = SEND_TIMEOUT_SECONDS):
        """Run ``coroutine`` on the loop and return its result (or raise its exception)."""
        if threading.current_thread() is self.thread:
            coroutine.close()
            raise RuntimeError("LayerLoop.run called from its own loop: it would wait forever")
        future = asyncio.run_coroutine_threadsafe(self._in_context(coroutine), self.loop)
        try:
            return future.result(timeout)
        except TimeoutError:
            future.cancel()
            raise


_loop: LayerLoop | None = None
_loop_lock = threading.Lock()


def layer_loop() -> LayerLoop:
    """This process's ``LayerLoop``, started on first use. A loop inherited through a fork
    (a Celery or gunicorn worker) has no thread in the child: the child starts its own."""
    global _loop
    current = _loop
    if current is not None and current.pid == os.getpid():
        return current
    with _loop_lock:
        if _loop is None or _loop.pid != os.getpid():
            _loop = LayerLoop()
        return _loop


def _after_fork_in_child() -> None:
    # Another thread of the parent may have held the lock at the fork: the child's copy would
    # stay locked for ever.
    global _loop_lock
    _loop_lock = threading.Lock()


os.register_at_fork(after_in_child=_after_fork_in_child)


def layer_call(layer: Any, coroutine: Coroutine[Any, Any, Any]) -> Any:
    """Await ``coroutine`` — a call of ``layer``'s API — from synchronous code and return its
    result: on the process's ``LayerLoop``, or for the in-memory layer through
    ``async_to_sync`` (see the module's docstring)."""
    if isinstance(layer, InMemoryChannelLayer):

        async def awaited() -> Any:
            return await coroutine

        return async_to_sync(awaited)()
    return layer_loop().run(coroutine)


def game_group(game_id: int) -> str:
    return f"game-{game_id}"


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def send_now(group: str, message: dict) -> None:
    """Send ``message`` to ``group`` at once (callers wait for their commit first). A failed
    send is logged, never raised."""
    layer = get_channel_layer()
    if layer is None:
        return
    message = {**message, "sent": uuid.uuid4().hex}
    try:
        layer_call(layer, layer.group_send(group, message))
    except Exception:
        # A lost broadcast costs a live update, never the move: pages catch up on reconnect.
        logger.exception("broadcast to %s failed", group)


def game_updated_on_commit(game_id: int, version: int) -> None:
    transaction.on_commit(
        lambda: send_now(game_group(game_id), {"type": "game.updated", "version": version})
    )


def user_notified_on_commit(user_id: int) -> None:
    transaction.on_commit(lambda: send_now(user_group(user_id), {"type": "user.notified"}))
