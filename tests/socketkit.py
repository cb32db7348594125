"""WebSocket tests' communicator: Channels' own, with waits generous enough for a busy machine.

``WebsocketCommunicator`` waits 1 s by default for a connection or a message; on the shared
CI machine a loaded core made ``connect()`` time out (the consumer was simply slow). Every
wait here is ``SOCKET_TIMEOUT``: a test that should get a message gets it long before, and one
that should get nothing proves it by ordering (a later marker arrives first), never by waiting.

``socket_headers(session)`` is the handshake a browser sends from one of the site's own pages
(its Origin and Host, and the member's session cookie); ``session_of(client)`` is the session
a logged-in test client holds.
"""

from __future__ import annotations

import time

import time_machine
from channels.testing import WebsocketCommunicator
from django.conf import settings

SOCKET_TIMEOUT = 30.0
# The tests' site: a page at http://localhost opens its sockets on the same host.
SITE_ORIGIN = b"http://localhost"
SITE_HOST = b"localhost"


def session_of(client) -> str:
    """The session key a logged-in test client's cookie holds."""
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def socket_headers(session: str | None = None) -> list[tuple[bytes, bytes]]:
    """The handshake's headers from a page of the site: its Origin and Host, and with a
    ``session`` the member's session cookie (none: an anonymous visitor)."""
    headers = [(b"origin", SITE_ORIGIN), (b"host", SITE_HOST)]
    if session is not None:
        headers.append((b"cookie", f"{settings.SESSION_COOKIE_NAME}={session}".encode()))
    return headers


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
