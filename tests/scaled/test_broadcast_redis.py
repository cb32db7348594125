"""Broadcasts from synchronous code on the Redis channel layer (channels-redis), through its
public ``group_send`` on the process's long-lived event loop (games/broadcast.py): what the
layer's own readers receive — the group's channels and no other — over one connection kept
for every send, and from a process forked after the first send (a Celery or gunicorn worker),
which uses a loop and a connection of its own.

The sockets' side (a view's move and a Celery task's reaching a member's socket) is
tests/site/test_broadcast_from_sync.py, run here with ``REDIS_URL`` set.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import secrets

import pytest
import redis
from channels.layers import get_channel_layer

from games import broadcast
from tests.socketkit import layer_receive_until_marker

pytestmark = [pytest.mark.scaled]
MARKER = {"type": "test.marker"}


@pytest.fixture
def layer(settings):
    """The configured layer, with a key prefix and a connection name of its own (other runs
    share the server, and game ids start at 1 everywhere), and that connection name."""
    token = secrets.token_hex(4)
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                "hosts": [{"address": os.environ["REDIS_URL"], "client_name": f"test-{token}"}],
                "prefix": f"test-{token}",
            },
        }
    }
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    yield get_channel_layer(), f"test-{token}"
    for key in client.scan_iter(f"test-{token}*"):
        client.delete(key)
    client.close()


def _connections(name: str) -> set[int]:
    """The ids of the server's open connections named ``name`` (an id is never reused)."""
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    try:
        return {entry["id"] for entry in client.client_list() if entry["name"] == name}
    finally:
        client.close()


def _channels(layer, group: str, members: int, outside: int) -> list[str]:
    async def make():
        names = [await layer.new_channel() for _ in range(members + outside)]
        for name in names[:members]:
            await layer.group_add(group, name)
        return names

    return asyncio.run(make())


def _received(layer, channels: list[str]) -> list[list]:
    """What each channel got before a marker sent to it now."""

    async def drain():
        for name in channels:
            await layer.send(name, MARKER)
        return [await layer_receive_until_marker(layer, name, MARKER) for name in channels]

    return asyncio.run(asyncio.wait_for(drain(), 60))


def test_a_broadcast_reaches_every_channel_of_the_group_over_one_kept_connection(layer):
    layer, connection_name = layer
    first, second, outside = _channels(layer, "game-7", members=2, outside=1)
    broadcast.send_now("game-7", {"type": "game.updated", "version": 1})
    kept = _connections(connection_name)
    assert len(kept) == 1  # the loop's connection, still open after the send
    for version in (2, 3):
        broadcast.send_now("game-7", {"type": "game.updated", "version": version})
    assert _connections(connection_name) == kept  # no new connection per send

    got = _received(layer, [first, second, outside])
    assert [[m["version"] for m in messages] for messages in got] == [[1, 2, 3], [1, 2, 3], []]
    assert all(m["type"] == "game.updated" and m["sent"] for m in got[0])


def test_a_process_forked_after_a_broadcast_sends_from_its_own_loop(layer):
    layer, _connection_name = layer
    member, outside = _channels(layer, "game-8", members=1, outside=1)
    broadcast.send_now("game-8", {"type": "game.updated", "version": 1})
    child = multiprocessing.get_context("fork").Process(
        target=broadcast.send_now, args=("game-8", {"type": "game.updated", "version": 2})
    )
    child.start()
    child.join()
    assert child.exitcode == 0
    got = _received(layer, [member, outside])
    assert [[m["version"] for m in messages] for messages in got] == [[1, 2], []]
    # The parent's loop and connection serve on after the child is gone.
    broadcast.send_now("game-8", {"type": "game.updated", "version": 3})
    assert [m["version"] for m in _received(layer, [member])[0]] == [3]
