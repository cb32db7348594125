"""Reading whole numbers that people and scripts send: ASCII digits, and nothing else.

Python is generous with digits: ``"²".isdigit()`` is true and ``int("²")`` raises, while
``int()`` happily reads ``"٣"`` (Arabic-Indic three), ``" 7 "``, ``"+5"`` and ``"1_000"``.
A form field, a query parameter or a JSON key holding any of those is not a number the site
asked for. :func:`strict_int` accepts an optional minus sign and ASCII digits, within the
range of a database integer column unless told otherwise (a number past it would fail the
query or the save), and answers ``None`` for anything else: the caller then refuses the
request with a clear message, instead of a 500 or a number that nobody typed. Every view,
service, API helper, model check, admin page and command that reads a number from text
uses it.
"""

from __future__ import annotations

import re

_WHOLE_NUMBER = re.compile(r"-?[0-9]{1,18}")
# The largest value every integer column holds (PostgreSQL ``integer``); ids and versions
# never come near it.
INT_MAX = 2**31 - 1


def strict_int(
    value: object, *, minimum: int | None = -INT_MAX, maximum: int | None = INT_MAX
) -> int | None:
    """``value`` as an ``int`` if it is one (or ASCII digits spelling one) within the
    bounds; otherwise ``None``. Booleans are not numbers here."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        number = value
    elif isinstance(value, str) and _WHOLE_NUMBER.fullmatch(value):
        number = int(value)
    else:
        return None
    if minimum is not None and number < minimum:
        return None
    if maximum is not None and number > maximum:
        return None
    return number


def strict_ints(values: list[object], *, minimum: int | None = -INT_MAX) -> list[int]:
    """Every value of ``values`` that :func:`strict_int` reads, in order; the rest dropped."""
    numbers = (strict_int(value, minimum=minimum) for value in values)
    return [number for number in numbers if number is not None]
