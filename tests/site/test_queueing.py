"""A task that cannot be queued after commit never turns a committed change into a 500."""

from __future__ import annotations

import json
import logging

import pytest
from django.test import Client
from playkit import first_legal, napad_game, user_to_move

from games import tasks
from games.models import Game
from games.services import turns

pytestmark = pytest.mark.django_db


def test_a_move_answers_even_when_the_broker_is_away(
    alice, monkeypatch, caplog, django_capture_on_commit_callbacks
):
    game = napad_game(alice, bot_seats={1: "random"})
    game.refresh_from_db()
    if 1 in game.to_move:  # the bot opens: let it, so the member is to move
        assert turns.bot_move_play(game.pk, game.version).ok
        game.refresh_from_db()

    def broker_away(*args, **kwargs):
        raise ConnectionError("broker unreachable")

    monkeypatch.setattr(tasks.bot_move_play_task, "apply_async", broker_away)
    client = Client()
    client.force_login(user_to_move(game, [alice]))
    with caplog.at_level(logging.ERROR), django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"/games/{game.pk}/act",
            {"action": json.dumps(first_legal(game)), "version": game.version},
            headers={"HX-Request": "true"},
        )
    assert response.status_code == 200
    assert Game.objects.get(pk=game.pk).version == game.version + 1
    assert "could not queue games.bot_move_play" in caplog.text
