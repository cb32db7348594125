"""A game's JSON is read by orjson (games/models/json_fields.py): what it reads is what
Django's ``JSONField`` reads, a text orjson refuses is still read, and the models need no
migration for it."""

from __future__ import annotations

import json
import math

import pytest
from django.core.management import call_command

from games.models import Game, GameEvent
from games.models.json_fields import ReadFastJSONField


@pytest.mark.parametrize(
    "text",
    [
        '{"hand": [{"id": 3, "halves": [{"value": 7, "colour": "red"}]}], "round": 2}',
        '[1.5, -0.0, 1e300, "z\\u00f3\\u0142te \\"z\\u0142oto\\"", null, true]',
        '"plain"',
    ],
)
def test_what_orjson_reads_is_what_json_reads(text):
    assert ReadFastJSONField().from_db_value(text, None, None) == json.loads(text)


def test_a_text_orjson_refuses_is_read_as_json_reads_it():
    field = ReadFastJSONField()
    assert field.from_db_value("[18446744073709551616]", None, None) == [2**64]
    assert math.isnan(field.from_db_value('{"a": NaN}', None, None)["a"])
    assert field.from_db_value('"\\ud800"', None, None) == "\ud800"
    # Not JSON at all: the value as it is, as JSONField gives it.
    assert field.from_db_value("not json", None, None) == "not json"
    assert field.from_db_value(None, None, None) is None


def test_the_games_json_fields_are_read_fast():
    for model, name in [
        (Game, "state"),
        (Game, "recent_events"),
        (GameEvent, "public_events"),
        (GameEvent, "private_events"),
    ]:
        assert isinstance(model._meta.get_field(name), ReadFastJSONField), name


@pytest.mark.django_db
def test_the_models_need_no_migration():
    # The field is a JSONField to migrations; a model change without its migration fails
    # here too.
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)
