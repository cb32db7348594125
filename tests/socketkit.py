"""WebSocket tests' communicator: Channels' own, with waits generous enough for a busy machine.

``WebsocketCommunicator`` waits 1 s by default for a connection or a message; on the shared
CI machine a loaded core made ``connect()`` time out (the consumer was simply slow). Every
wait here is ``SOCKET_TIMEOUT``: a test that should get a message gets it long before, and one
that should get nothing proves it by ordering (a later marker arrives first), never by waiting.
"""

from __future__ import annotations

import time

import time_machine
from channels.testing import WebsocketCommunicator

SOCKET_TIMEOUT = 30.0


class Socket(WebsocketCommunicator):
    async def connect(self, timeout: float = SOCKET_TIMEOUT):
        return await super().connect(timeout)

    async def receive_from(self, timeout: float = SOCKET_TIMEOUT):
        return await super().receive_from(timeout)

    async def receive_json_from(self, timeout: float = SOCKET_TIMEOUT):
        return await super().receive_json_from(timeout)

    async def disconnect(self, code: int = 1000, timeout: float = SOCKET_TIMEOUT):
        return await super().disconnect(code, timeout)


async def layer_send_marker(layer, channel: str, marker: dict) -> None:
    """Send ``marker`` to ``channel`` after everything sent to it so far. Redis keeps a
    channel's messages ordered by the time they were sent; under a frozen test clock they
    would all have one time, and equal times come out in no set order, so the marker goes a
    second later."""
    with time_machine.travel(time.time() + 1, tick=False):
        await layer.send(channel, marker)


async def layer_receive_until_marker(layer, channel: str, marker: dict) -> list[dict]:
    """Everything ``channel`` received before ``marker`` (sent to it after whatever is being
    checked): the layer is first in, first out, so this is all that came before."""
    received = []
    while True:
        message = await layer.receive(channel)
        if message == marker:
            return received
        received.append(message)
