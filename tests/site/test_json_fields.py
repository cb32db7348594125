"""A game's JSON is read by orjson (games/models/json_fields.py): what it reads is what
Django's ``JSONField`` reads, a text orjson refuses is still read, and the models need no
migration for it. The log's copy on the game's row is JSON kept in a text column
(``JSONTextField``): the model holds the value, saved and read back as it was."""

from __future__ import annotations

import json
import math

import pytest
from django.core import serializers
from django.core.management import call_command
from django.db import connection
from playkit import napad_game, play_one

from games.models import Game, GameEvent
from games.models.json_fields import JSONTextField, ReadFastJSONField


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
        (Game, "config"),
        (Game, "options"),
        (Game, "setup_args"),
        (Game, "to_move"),
        (GameEvent, "action"),
        (GameEvent, "public_events"),
        (GameEvent, "private_events"),
    ]:
        assert isinstance(model._meta.get_field(name), ReadFastJSONField), name


@pytest.mark.django_db
def test_the_models_need_no_migration():
    # The field is a JSONField to migrations; a model change without its migration fails
    # here too.
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)


# A value with what the log's copy holds: text with quotes and Polish letters, numbers,
# booleans, nulls, nested lists and objects.
KEPT = [
    {"seq": 3, "seat": None, "by_clock": True, "at": "2026-12-04T21:53:35+00:00"},
    {"events": '{"public":[{"text":"%(gang)s \\"pasuje\\" — złoto"}]}', "n": [1, 2.5, -3]},
]


@pytest.mark.django_db
def test_the_logs_copy_is_kept_as_text_and_read_back_as_it_was(alice, bob):
    assert isinstance(Game._meta.get_field("recent_events"), JSONTextField)
    game = napad_game(alice, bob)
    assert play_one(game, [alice, bob]).ok
    Game.objects.filter(pk=game.pk).update(recent_events=KEPT)
    game.refresh_from_db()
    assert game.recent_events == KEPT
    with connection.cursor() as cursor:
        # A text column (not jsonb on PostgreSQL), holding the value as compact JSON.
        typeof = "pg_typeof" if connection.vendor == "postgresql" else "typeof"
        table = connection.ops.quote_name(Game._meta.db_table)
        cursor.execute(
            f"SELECT {typeof}(recent_events), recent_events FROM {table} WHERE id = %s", [game.pk]
        )
        kind, text = cursor.fetchone()
    assert kind == "text"
    assert json.loads(text) == KEPT and '"seat":null' in text and "złoto" in text


@pytest.mark.django_db
def test_a_games_copy_survives_dumpdata_and_loaddata(alice, bob):
    game = napad_game(alice, bob)
    assert play_one(game, [alice, bob]).ok
    game.refresh_from_db()
    dumped = serializers.serialize("json", [game])
    assert json.loads(dumped)[0]["fields"]["recent_events"] == game.recent_events
    Game.objects.filter(pk=game.pk).update(recent_events=[])
    for loaded in serializers.deserialize("json", dumped):
        loaded.save()
    game_again = Game.objects.get(pk=game.pk)
    assert game_again.recent_events == game.recent_events and game_again.recent_events


# What a game writes: a state's nested lists and objects, Polish letters, quotes, booleans,
# nulls, a big (but 64-bit) number; and values orjson leaves to json: an integer past 64
# bits, a key that is not a string.
WRITTEN = [
    {"decks": [[["yellow", 2, 2], ["red", 7, 0]]], "gang": 'Dezerterzy "złoci"', "x": None},
    [{"type": "passed", "args": {"seat": 1}, "private_to": [1], "ok": True, "n": -(2**62)}],
    {"big": 2**70, "list": [2**64]},
    {1: "seat one", "two": [2]},
]


@pytest.mark.parametrize("value", WRITTEN, ids=["state", "events", "big-numbers", "int-keys"])
def test_a_value_is_written_as_json_writes_it(value):
    from games.models.json_fields import json_text

    assert json.loads(json_text(value)) == json.loads(json.dumps(value))


def test_a_value_json_refuses_is_refused_as_before():
    from datetime import UTC, datetime

    from games.models.json_fields import json_text

    with pytest.raises(TypeError):
        json_text({"at": datetime(2026, 12, 5, tzinfo=UTC)})


@pytest.mark.django_db
@pytest.mark.parametrize("value", WRITTEN[:3], ids=["state", "events", "big-numbers"])
def test_a_state_is_saved_and_read_back_as_it_was(alice, bob, value):
    game = napad_game(alice, bob)
    Game.objects.filter(pk=game.pk).update(state=value)
    game.refresh_from_db()
    assert game.state == value
    game.state = value
    game.save(update_fields=["state"])
    game.refresh_from_db()
    assert game.state == value
