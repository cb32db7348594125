"""``ReadFastJSONField``: a ``JSONField`` whose stored text is parsed by orjson; and
``JSONTextField``: JSON kept in a text column, for a copy the database never looks into.

A game's row is read on every page, fragment, move and push, and parsing its JSON (the
engine's state and the log's last lines kept on it, games/kept_log.py) was a tenth of a page
late in a game — more the longer the log's lines. orjson builds the same values about twice
as fast. Writing is ``JSONField``'s own (its text is what the database already holds), and a
text orjson refuses but ``json`` reads (``NaN``, an integer past 64 bits) is read by
``JSONField`` as before. For migrations the field is a plain ``JSONField``: nothing in the
database changes.
"""

from __future__ import annotations

import json
from typing import Any

import orjson
from django.db import models


def json_parsed(text: str | bytes) -> Any:
    """``json.loads(text)``, by orjson when it can (a text it refuses, by json)."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


class ReadFastJSONField(models.JSONField):
    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        if type(value) is str and self.decoder is None:
            try:
                return orjson.loads(value)
            except orjson.JSONDecodeError:
                pass  # read by json below, as JSONField reads it
        return super().from_db_value(value, expression, connection)

    def deconstruct(self) -> tuple[Any, str, Any, Any]:
        name, _path, args, kwargs = super().deconstruct()
        return name, "django.db.models.JSONField", args, kwargs


class JSONTextField(models.TextField):
    """A JSON value (a list, a dict) kept as compact JSON text in a ``text`` column, read by
    orjson: what the model holds is the value, as with ``JSONField``.

    For the log's copy on the game's row (``Game.recent_events``, games/kept_log.py): every
    page, fragment, push and move reads it with the game, and the database never filters on
    it. PostgreSQL writes a ``jsonb`` value out as text on every read (and parses it on
    every write): 8 kB cost 30 µs more per read as ``jsonb`` than as ``text`` (psycopg, one
    row, 2,000 reads), and a late game's copy holds 13 kB. SQLite keeps both as text."""

    description = "JSON kept as text"

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        return None if value is None else json_parsed(value)

    def to_python(self, value: Any) -> Any:
        # Already the value (a fixture's list, the model's own): nothing to convert.
        return value

    def get_prep_value(self, value: Any) -> Any:
        if value is None:
            return None
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)

    def value_to_string(self, obj: Any) -> Any:
        # Serialized (dumpdata) as the value itself, as JSONField is.
        return self.value_from_object(obj)
