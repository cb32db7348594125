"""The broadcast a committed move sends (``games.broadcast``), timed per call, beside its
floor: one Redis ``PUBLISH`` over a connection kept open — the least a message to another
process can cost. The group has a few listening channels, as an open table does.

On the in-process layer (the bench's default) there is no Redis to compare with: the figure
is reported alone, and ``--channel-layer configured`` gives the one that matters.
"""

from __future__ import annotations

import statistics
import time

from channels.layers import get_channel_layer
from django.conf import settings

from games import broadcast
from games.broadcast import layer_call

from .stats import spread

LISTENERS = 4
GROUP = "game-999999"


def _per_call_ms(send, calls: int) -> float:
    times = []
    for _ in range(calls):
        started = time.perf_counter()
        send()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def _publish_floor():
    """A function doing one PUBLISH on a reused connection, or None without Redis."""
    if not settings.REDIS_URL or "Redis" not in settings.CHANNEL_LAYERS["default"]["BACKEND"]:
        return None, None
    import redis

    client = redis.Redis.from_url(settings.REDIS_URL)
    client.ping()
    return (lambda: client.publish("napad-bench-floor", b"game 1 is at version 2")), client


def publish_measure(*, calls: int, repeats: int) -> dict:
    layer = get_channel_layer()
    channels = [layer_call(layer, layer.new_channel()) for _ in range(LISTENERS)]
    for channel in channels:
        layer_call(layer, layer.group_add(GROUP, channel))
    floor, client = _publish_floor()

    def send() -> None:
        broadcast.send_now(GROUP, {"type": "game.updated", "version": 1})

    try:
        send()  # the first call opens what later calls reuse
        sent_ms, floor_ms = [], []
        for _ in range(repeats):
            sent_ms.append(_per_call_ms(send, calls))
            if floor is not None:
                floor_ms.append(_per_call_ms(floor, calls))
        received = layer_call(layer, layer.receive(channels[0]))
    finally:
        for channel in channels:
            layer_call(layer, layer.group_discard(GROUP, channel))
        if hasattr(layer, "flush"):
            layer_call(layer, layer.flush())
        if client is not None:
            client.close()
    return {
        "channel_layer": type(layer).__name__,
        "listeners": LISTENERS,
        "calls_per_repeat": calls,
        "broadcast_ms": spread(sent_ms, 3),
        "publish_floor_ms": spread(floor_ms, 3) if floor_ms else None,
        "broadcast_over_floor": spread([s / f for s, f in zip(sent_ms, floor_ms)])
        if floor_ms
        else None,
        "received": received.get("type") == "game.updated",
        "target": "<= 2 ms per broadcast (on Redis)",
    }
