"""Escaping for the markup the board and log tags draw in Python.

``escaped(value)`` gives what ``django.utils.html.conditional_escape`` gives (safe strings as
they are, anything else as text with ``& < > " '`` escaped), as a plain ``str``, without
Django's lazy-argument check and the safe-string wrapper around every call: a board's tags
escape a few hundred values per render, and those two were most of the escaping's cost.
The tags mark their finished markup safe once. ``localized(value)`` is ``localize`` with a
shortcut for the numbers they print most.
"""

from __future__ import annotations

from html import escape
from typing import Any

from django.conf import settings
from django.utils.formats import localize


def escaped(value: Any) -> str:
    if type(value) is int:
        return str(value)  # nothing to escape in a number (the most common value)
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
