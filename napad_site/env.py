"""Reading settings from environment variables: small helpers that fail loudly.

A bad value stops the site at start with a message naming the variable, instead of a
confusing error later (the habit healthchecks' settings follow).
"""

from __future__ import annotations

import os
import re

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r}: expected one of 1/0, true/false, yes/no, on/off")


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r}: expected a whole number") from None
    if minimum is not None and value < minimum:
        raise ImproperlyConfigured(f"{name}={raw!r}: must be at least {minimum}")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    items = [item.strip() for item in raw.split(",") if item.strip()]
    if not items:
        raise ImproperlyConfigured(f"{name}={raw!r}: expected a comma-separated list")
    return items


def env_url(name: str, schemes: tuple[str, ...]) -> str:
    """A URL whose scheme is one of ``schemes``, or "" when the variable is unset."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return ""
    scheme, sep, rest = raw.partition("://")
    if not sep or scheme not in schemes or not rest:
        allowed = ", ".join(f"{s}://" for s in schemes)
        raise ImproperlyConfigured(f"{name}: expected a URL starting with {allowed}")
    return raw


# A DNS name: letters, digits and hyphens in dot-separated labels, the last one not a number
# (so no IP address in any of its spellings can pass for one).
HOST_NAME = re.compile(
    r"(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?\Z"
)


def env_host_names(name: str, default: list[str]) -> list[str]:
    """Host names (``fcm.googleapis.com``), lower case; no scheme, port, pattern or address."""
    hosts = [host.lower() for host in env_list(name, default)]
    for host in hosts:
        if not HOST_NAME.match(host):
            raise ImproperlyConfigured(
                f"{name}: {host!r} is not a host name (write push.example.com: no scheme, "
                "no port, no '*'; subdomains of a name are included)"
            )
    return hosts


def env_origins(name: str) -> list[str]:
    """Exact origins (``http://127.0.0.1:8081``): a scheme, a host and an optional port."""
    origins = env_list(name, [])
    for origin in origins:
        if not re.fullmatch(r"https?://[A-Za-z0-9.\-\[\]:]+", origin):
            raise ImproperlyConfigured(
                f"{name}: {origin!r} is not an origin (scheme://host or scheme://host:port)"
            )
    return origins


_RATE_PERIODS = {"s", "m", "h", "d"}


def env_rate(name: str, default: str) -> str:
    """A rate such as ``10/h`` or ``5/15m`` (a count per period of s, m, h or d, optionally
    a multiple of it), the way django-ratelimit reads it."""
    raw = os.environ.get(name)
    value = default if raw is None or raw.strip() == "" else raw.strip()
    count, sep, period = value.partition("/")
    multiple, unit = period[:-1], period[-1:]
    if (
        not sep
        or not count.isdigit()
        or int(count) < 1
        or unit not in _RATE_PERIODS
        or (multiple and (not multiple.isdigit() or int(multiple) < 1))
    ):
        raise ImproperlyConfigured(
            f"{name}={value!r}: expected a count per period, such as 10/h, 5/m or 3/15m"
        )
    return value
