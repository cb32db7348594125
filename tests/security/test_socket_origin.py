"""The sockets open only for the site's own pages: the handshake's ``Origin`` must be the
site's by scheme, host *and* port (napad_site/websocket_origin.py). A page on the same host
but another port (another service, another user's dev server) or over the other scheme gets
no socket speaking for the member whose cookie the browser sends along."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.conf import settings
from django.db import connections
from django.test import Client, override_settings

from napad_site.asgi import application
from tests.socketkit import Socket, session_of

pytestmark = pytest.mark.django_db(transaction=True)


async def _handshake(path: str, session: str, origin: str | None, host: str, **extra) -> bool:
    headers = [(b"host", host.encode())]
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    headers += [(name.encode(), value.encode()) for name, value in extra.items()]
    headers.append((b"cookie", f"{settings.SESSION_COOKIE_NAME}={session}".encode()))
    socket = Socket(application, path, headers=headers)
    connected, _code = await socket.connect()
    if connected:
        await socket.disconnect()
    return connected


def _session(user) -> str:
    client = Client()
    client.force_login(user)
    return session_of(client)


@pytest.fixture
def opens(world):
    """``opens(origin, host=...)``: whether both sockets open for the seat's member."""
    session = _session(world["users"]["seat"])
    paths = ("/ws/notifications/", f"/ws/games/{world['game_id']}/")

    def opens(origin: str | None, host: str = "localhost", **extra) -> bool:
        results = {async_to_sync(_handshake)(p, session, origin, host, **extra) for p in paths}
        assert len(results) == 1, "the two sockets disagree"
        return results.pop()

    yield opens
    async_to_sync(sync_to_async(connections.close_all))()


@override_settings(NAPAD_SITE_URL="http://127.0.0.1:8000", CSRF_TRUSTED_ORIGINS=[])
def test_only_the_handshakes_own_origin_opens_a_socket(opens):
    assert opens("http://localhost") is True
    assert opens("http://localhost:80") is True  # the scheme's default port, spelled out
    assert opens("http://LOCALHOST") is True  # host names are case-blind
    assert opens("http://localhost:6666", host="localhost:6666") is True

    assert opens("http://localhost:6666") is False  # same host, another port
    assert opens("http://localhost", host="localhost:8000") is False
    assert opens("https://localhost") is False  # another scheme
    assert opens("https://localhost:80") is False
    assert opens("http://127.0.0.1") is False  # another allowed host, not this one
    assert opens("http://evil.example") is False
    assert opens("null") is False
    assert opens(None) is False
    assert opens("http://user@localhost") is False
    assert opens("http://localhost/path") is False
    assert opens("http://localhost:99999") is False


@override_settings(
    NAPAD_SITE_URL="https://localhost:8443/club",
    CSRF_TRUSTED_ORIGINS=["https://127.0.0.1:9443"],
)
def test_the_configured_origins_open_a_socket_on_their_own_port_and_scheme(opens):
    # Behind a TLS proxy the handshake reaches daphne as plain ws:, so the site's configured
    # address (and the CSRF-trusted origins) are what the browser's https: origin matches.
    assert opens("https://localhost:8443") is True
    assert opens("https://127.0.0.1:9443") is True

    assert opens("https://localhost") is False
    assert opens("http://localhost:8443") is False
    assert opens("https://localhost:8444") is False
    assert opens("https://127.0.0.1") is False
    assert opens("http://127.0.0.1:9443") is False


@override_settings(
    NAPAD_SITE_URL="http://127.0.0.1:8000",
    SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"),
)
def test_the_proxys_word_on_https_is_taken_as_django_takes_it(opens):
    assert opens("https://localhost", **{"x-forwarded-proto": "https"}) is True
    assert opens("http://localhost", **{"x-forwarded-proto": "https"}) is False
    assert opens("https://localhost", **{"x-forwarded-proto": "http"}) is False
    assert opens("https://localhost") is False
