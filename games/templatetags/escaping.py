"""Escaping for the markup the board and log tags draw in Python.

``escaped(value)`` gives what ``django.utils.html.conditional_escape`` gives (safe strings as
they are, anything else as text with ``& < > " '`` escaped), as a plain ``str``, without
Django's lazy-argument check and the safe-string wrapper around every call: a board's tags
escape a few hundred values per render, and those two checks cost more than the escaping.
The tags mark their finished markup safe once, and a plain string escaped once is kept
(``_ESCAPED``). ``localized(value)`` is ``localize`` with a
shortcut for the numbers they print most.
"""

from __future__ import annotations

from html import escape
from typing import Any

from django.conf import settings
from django.utils.formats import localize

# Each plain string escaped, kept for the life of the process: a board escapes the same few
# dozen colours, cargoes, labels and names hundreds of times a render, and a log its lines on
# every page; looking one up is cheaper than escaping it again. Bounded; emptied when full.
_ESCAPED: dict[str, str] = {}
ESCAPED_KEPT = 8192


def escaped(value: Any) -> str:
    kind = type(value)
    if kind is int:
        return str(value)  # nothing to escape in a number (the most common value)
    if kind is str:
        done = _ESCAPED.get(value)
        if done is None:
            done = escape(value)
            if len(_ESCAPED) >= ESCAPED_KEPT:
                _ESCAPED.clear()
            _ESCAPED[value] = done
        return done
    if hasattr(value, "__html__"):
        return value.__html__()
    return escape(str(value))


def localized(value: Any) -> Any:
    """``django.utils.formats.localize(value)``, with an integer as its digits when the site
    groups no thousands (``USE_THOUSAND_SEPARATOR``): that is what ``localize`` gives then, in
    every language, after looking the language and its formats up — a log's sequence numbers
    and a board's counts ask it dozens of times a render."""
    if type(value) is int and not settings.USE_THOUSAND_SEPARATOR:
        return str(value)
    return localize(value)
