"""Fixtures for the clock tests: a listener on the in-memory channel layer (eager Celery for
bot moves is ``eager_celery`` in tests/conftest.py)."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games.broadcast import user_group
from tests.socketkit import layer_receive_until_marker, layer_send_marker


@pytest.fixture
def bell_listener():
    """Subscribe to a member's personal group; ``received()`` is what was pushed so far (up to
    a marker sent after it: nothing is waited for)."""
    layer = get_channel_layer()

    def listen(user) -> str:
        name = async_to_sync(layer.new_channel)()
        async_to_sync(layer.group_add)(user_group(user.pk), name)
        return name

    def received(name: str) -> list[dict]:
        marker = {"type": "test.marker"}
        async_to_sync(layer_send_marker)(layer, name, marker)
        return async_to_sync(layer_receive_until_marker)(layer, name, marker)

    listen.received = received
    return listen
