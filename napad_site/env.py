"""Reading settings from environment variables: small helpers that fail loudly.

A bad value stops the site at start with a message naming the variable, instead of a
confusing error later (the habit healthchecks' settings follow).
"""

from __future__ import annotations

import os

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
