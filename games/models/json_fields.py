"""``ReadFastJSONField``: a ``JSONField`` whose stored text is parsed by orjson.

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
