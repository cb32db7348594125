"""Broadcasts from synchronous code on the Redis channel layer (games/group_send.py): what
channels-redis's own readers receive — the group's channels, in order, each process's channels
in one message as the layer itself packs them — over one connection kept for every send, with
no event loop started.
"""

from __future__ import annotations

import asyncio
import os
import secrets

import pytest
from channels_redis.core import RedisChannelLayer

from games import group_send

pytestmark = [pytest.mark.scaled]


@pytest.fixture
def layer():
    # A prefix of its own: other runs share the server (game ids start at 1 everywhere).
    layer = RedisChannelLayer(
        hosts=[os.environ["REDIS_URL"]], prefix=f"test-{secrets.token_hex(4)}", capacity=3
    )
    yield layer
    asyncio.run(layer.flush())


def test_a_broadcast_reaches_every_channel_of_the_group_and_no_other(layer, monkeypatch):
    async def channels():
        names = [await layer.new_channel() for _ in range(3)]
        for name in names[:2]:
            await layer.group_add("game-7", name)
        return names

    first, second, outside = asyncio.run(channels())

    def refused(*args, **kwargs):
        raise AssertionError("group_send started an event loop")

    monkeypatch.setattr(group_send, "async_to_sync", refused)
    for version in (1, 2):
        group_send.group_send(layer, "game-7", {"type": "game.updated", "version": version})
    sender = layer._napad_group_sender
    assert isinstance(sender, group_send.RedisGroupSender)
    # One connection, made once and reused for every send.
    assert sender.clients[0].connection_pool._created_connections == 1

    async def received():
        await layer.send(outside, {"type": "marker"})
        return [
            [(await layer.receive(name))["version"] for _ in range(2)] for name in (first, second)
        ] + [await layer.receive(outside)]

    assert asyncio.run(asyncio.wait_for(received(), 60)) == [[1, 2], [1, 2], {"type": "marker"}]


def test_a_full_channel_drops_the_broadcast_as_the_layer_does(layer):
    async def channel():
        name = await layer.new_channel()
        await layer.group_add("game-8", name)
        return name

    name = asyncio.run(channel())
    for version in range(5):  # capacity 3
        group_send.group_send(layer, "game-8", {"type": "game.updated", "version": version})

    async def received():
        kept = [(await layer.receive(name))["version"] for _ in range(3)]
        # Versions 3 and 4 were dropped: the marker sent now is the next message.
        await layer.send(name, {"type": "marker"})
        return [*kept, await layer.receive(name)]

    assert asyncio.run(asyncio.wait_for(received(), 60)) == [0, 1, 2, {"type": "marker"}]
