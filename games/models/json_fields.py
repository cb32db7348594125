"""``ReadFastJSONField``: a ``JSONField`` whose JSON text is read and written by orjson; and
``JSONTextField``: JSON kept in a text column, for a copy the database never looks into.

A game's row is read on every page, fragment, move and push, and parsing its JSON (the
engine's state and the log's last lines kept on it, games/selectors/log_copy.py) is a visible part
of a page late in a game — more the longer the log's lines. orjson builds the same values faster.
Every move writes the row back (the state, its event, the log's copy), and orjson writes the
same JSON (``json_written``) faster than ``json.dumps`` (figures: docs/performance.md and
docs/decisions/0008-orjson-for-the-games-json.md). A value orjson will not write as ``json`` would
(an integer past 64 bits, a key that is not a string, a date, a subclass of a plain type)
and a text it refuses but ``json`` reads (``NaN``, an integer past 64 bits) go through
``json`` as before. For migrations the field is a plain ``JSONField``: nothing in the
database changes.
"""

from __future__ import annotations

import json
from typing import Any

import orjson
from django.db import models
from psycopg.types.json import Jsonb

# Whatever ``json.dumps`` would write otherwise — or refuse — orjson hands back (TypeError):
# dates, dataclasses and subclasses of str, int, dict and list are not its to write here.
_WRITE_AS_JSON_DOES = (
    orjson.OPT_PASSTHROUGH_DATETIME
    | orjson.OPT_PASSTHROUGH_DATACLASS
    | orjson.OPT_PASSTHROUGH_SUBCLASS
)


def json_written(value: Any) -> bytes | str:
    """Compact JSON text of ``value``, non-ASCII as it is (UTF-8 bytes, by orjson), or what
    ``json.dumps(value, separators=(",", ":"), ensure_ascii=False)`` writes (or raises) for
    a value orjson does not write so. The same JSON either way for the values games keep
    (a float that is not a number, which none keeps, orjson writes as ``null``)."""
    try:
        return orjson.dumps(value, option=_WRITE_AS_JSON_DOES)
    except TypeError:  # orjson.JSONEncodeError is one
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def json_text(value: Any) -> str:
    """``json_written(value)`` as a string."""
    text = json_written(value)
    return text.decode() if isinstance(text, bytes) else text


def json_parsed(text: str | bytes) -> Any:
    """``json.loads(text)``, by orjson when it can (a text it refuses, by json)."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


class ReadFastJSONField(models.JSONField):
    def get_db_prep_value(self, value: Any, connection: Any, prepared: bool = False) -> Any:
        if not prepared:
            value = self.get_prep_value(value)
        # The values a game writes (a state, a list of events) by ``json_written``; anything
        # else (a lookup's operand, a field with an encoder) as JSONField prepares it.
        if self.encoder is None and type(value) in (dict, list):
            if connection.vendor == "postgresql":
                return Jsonb(value, dumps=json_written)
            return json_text(value)
        return super().get_db_prep_value(value, connection, prepared=True)

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

    For the log's copy on the game's row (``Game.recent_events``, games/selectors/log_copy.py):
    every page, fragment, push and move reads it with the game, and the database never filters on
    it. PostgreSQL writes a ``jsonb`` value out as text on every read (and parses it on every
    write), which text skips (figures: docs/decisions/0005-log-copy-on-the-game-row.md).
    SQLite keeps both as text."""

    description = "JSON kept as text"

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        return None if value is None else json_parsed(value)

    def to_python(self, value: Any) -> Any:
        # Already the value (a fixture's list, the model's own): nothing to convert.
        return value

    def get_prep_value(self, value: Any) -> Any:
        if value is None:
            return None
        return json_text(value)

    def value_to_string(self, obj: Any) -> Any:
        # Serialized (dumpdata) as the value itself, as JSONField is.
        return self.value_from_object(obj)
