"""The ``id`` path converter: a whole number a database column can hold, or no match.

Every number in a path (a game's id, a device's, a season's number, a rules version) goes
through it — on the site, in the API (``{id:game_id}``) and in the socket routes — so a number
no column can hold (``/games/<thirty digits>/``) is a URL that does not exist: 404 (a socket is
refused), never a query with a number the database cannot read. The bound is the widest
integer column the site has, ``BigAutoField``'s; narrower columns are guarded by Django's own
lookups, which find nothing for a number out of their range.
"""

from __future__ import annotations

from django.urls import register_converter

# 1 .. 2**63 - 1: a BigAutoField's ids (a signed 64-bit column; ids start at 1).
DB_ID_MIN = 1
DB_ID_MAX = 2**63 - 1


def db_id_allowed(value: int) -> bool:
    """Whether ``value`` is a number a database id can be."""
    return DB_ID_MIN <= value <= DB_ID_MAX


class DatabaseIdConverter:
    """ASCII digits naming a number from ``DB_ID_MIN`` to ``DB_ID_MAX``; anything else is no
    match, as Django's URL resolver reads a ``ValueError`` from a converter."""

    # ASCII only: \\d would take other scripts' digits. Leading zeros are read as Django's
    # ``int`` converter reads them; twenty digits already pass the bound.
    regex = "[0-9]+"

    def to_python(self, value: str) -> int:
        number = int(value)
        if not db_id_allowed(number):
            raise ValueError(f"{value} is not a database id")
        return number

    def to_url(self, value: int) -> str:
        number = int(value)
        if not db_id_allowed(number):
            # A link to a URL that would not resolve is never built (NoReverseMatch).
            raise ValueError(f"{value} is not a database id")
        return str(number)


register_converter(DatabaseIdConverter, "id")
