"""Fixtures for the clock tests: a listener on the in-memory channel layer (eager Celery for
bot moves is ``eager_celery`` in tests/conftest.py)."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games.broadcast import user_group


@pytest.fixture
def bell_listener():
    """Subscribe to a member's personal group; ``received()`` drains what was pushed."""
    layer = get_channel_layer()
    channels = []

    def listen(user) -> str:
        name = async_to_sync(layer.new_channel)()
        async_to_sync(layer.group_add)(user_group(user.pk), name)
        channels.append(name)
        return name

    def received(name: str) -> list[dict]:
        messages = []
        while True:
            try:
                messages.append(
                    async_to_sync(_receive_now)(layer, name),
                )
            except TimeoutError:
                return messages

    listen.received = received
    return listen


async def _receive_now(layer, name: str) -> dict:
    import asyncio

    return await asyncio.wait_for(layer.receive(name), timeout=0.2)
