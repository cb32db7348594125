"""Which pages may open the site's WebSockets: only the site's own, by scheme, host *and* port.

A browser sends the page's origin with every WebSocket handshake, and the session cookie with
it, so a page of another site (or of another service on this host, on another port) must not
get a socket that speaks for the member. The handshake is accepted when its ``Origin`` is,
exactly — scheme, host and port, the default port implied by the scheme:

- the site's configured address (``NAPAD_SITE_URL``) or one of ``CSRF_TRUSTED_ORIGINS`` (a
  ``*.`` host there takes its subdomains, as Django's CSRF check reads it), or
- the handshake's own origin: the ``Host`` it was sent to, over HTTPS when the connection or
  the proxy says so (``SECURE_PROXY_SSL_HEADER``, as ``request.is_secure()`` reads it).

That is the rule Django's CSRF check applies to a form's POST. Channels'
``AllowedHostsOriginValidator`` still runs in front (asgi.py): the origin's host must also be one
of ``ALLOWED_HOSTS``, which keeps a rebound DNS name out. Anything else — another port, another
scheme, ``null``, no ``Origin`` at all — is refused at the handshake.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings

DEFAULT_PORTS = {"http": 80, "https": 443}

Origin = tuple[str, str, int]


def origin_of(url: str, *, path_allowed: bool = False) -> Origin | None:
    """``(scheme, host, port)`` of an http(s) origin, the scheme's default port filled in;
    None for anything else. An ``Origin`` header is only scheme, host and port
    (``path_allowed`` reads a configured address such as ``NAPAD_SITE_URL``, path ignored)."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    if parts.username is not None or parts.password is not None:
        return None
    if not path_allowed and (parts.path not in ("", "/") or parts.query or parts.fragment):
        return None
    return scheme, parts.hostname, DEFAULT_PORTS[scheme] if port is None else port


def configured_origins() -> list[Origin]:
    """The origins the settings name: the site's address and the CSRF-trusted origins."""
    addresses = [getattr(settings, "NAPAD_SITE_URL", ""), *settings.CSRF_TRUSTED_ORIGINS]
    origins = (origin_of(address, path_allowed=True) for address in addresses if address)
    return [origin for origin in origins if origin is not None]


def _header(scope: dict, name: bytes) -> str | None:
    for header, value in scope.get("headers", ()):
        if header == name:
            return value.decode("latin1")
    return None


def _secure(scope: dict) -> bool:
    if scope.get("scheme") in ("wss", "https"):
        return True
    proxy_header = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if not proxy_header:
        return False
    name, secure_value = proxy_header
    # Django names it as in request.META ("HTTP_X_FORWARDED_PROTO"); on the wire it is
    # "x-forwarded-proto". Only the first value counts, as in request.is_secure().
    wire_name = name.removeprefix("HTTP_").replace("_", "-").lower().encode("latin1")
    value = _header(scope, wire_name)
    return value is not None and value.split(",", 1)[0].strip() == secure_value


def own_origin(scope: dict) -> Origin | None:
    """The origin of the handshake itself: the host it was sent to, and its scheme."""
    host = _header(scope, b"host")
    if not host:
        return None
    return origin_of(f"{'https' if _secure(scope) else 'http'}://{host}")


def _matches(origin: Origin, allowed: Origin) -> bool:
    scheme, host, port = allowed
    if origin[0] != scheme or origin[2] != port:
        return False
    if host.startswith("*."):
        return origin[1] == host[2:] or origin[1].endswith(host[1:])
    return origin[1] == host


def origin_allowed(scope: dict) -> bool:
    """Whether the handshake's ``Origin`` is the site's own (module docstring)."""
    header = _header(scope, b"origin")
    origin = origin_of(header) if header is not None else None
    if origin is None:
        return False
    allowed = configured_origins()
    own = own_origin(scope)
    if own is not None:
        allowed.append(own)
    return any(_matches(origin, candidate) for candidate in allowed)


class SiteOriginValidator:
    """ASGI middleware: a WebSocket handshake whose ``Origin`` is not the site's own is
    refused (channels' ``WebsocketDenier``) before it reaches a consumer."""

    def __init__(self, application) -> None:
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] != "websocket":
            raise ValueError("SiteOriginValidator is for WebSocket connections only")
        if origin_allowed(scope):
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)
