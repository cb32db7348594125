"""A member's private view is never stored by a cache: the table page, its fragments, an HTMX
move's answer, the log, the replay, "watch", the API's game views, notifications and the
account pages all answer ``Cache-Control: private, no-store`` (games/web/middleware.py,
``NoStoreMiddleware``) — a hand must not sit in a shared cache or come back from the browser's
history after logging out."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from games.engines import get_engine
from games.models import Game, Seat
from tests.personakit import client_for

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def _private(response) -> bool:
    directives = {part.strip() for part in response.get("Cache-Control", "").split(",")}
    return {"no-store", "private"} <= directives


def test_every_page_with_a_members_view_is_kept_out_of_caches(world):
    game_id = world["game_id"]
    client = client_for(world["users"]["seat"])
    pages = [
        f"/games/{game_id}/",
        f"/games/{game_id}/log",
        f"/games/{game_id}/replay",
        f"/games/{game_id}/watch",
        "/games/",
        "/notifications/",
        "/accounts/profile/",
        "/accounts/api-tokens/",
        "/accounts/leave/",
    ]
    answers = {page: client.get(page) for page in pages}
    answers["fragment"] = client.get(f"/games/{game_id}/", **HTMX)
    assert {page: response.status_code for page, response in answers.items()} == dict.fromkeys(
        answers, 200
    )
    assert "Your hand" in answers[f"/games/{game_id}/"].content.decode()
    assert [page for page, response in answers.items() if not _private(response)] == []


def test_an_htmx_move_answer_is_kept_out_of_caches(world):
    game = Game.objects.get(pk=world["game_id"])
    engine = get_engine(game.kind)
    position = game.to_move[0]
    mover_id = Seat.objects.get(game=game, position=position).player.user_id
    mover = next(user for user in world["users"].values() if user.pk == mover_id)
    action = engine.legal_actions(engine.from_json(game.state), position)[0]
    version = game.version

    response = client_for(mover).post(
        f"/games/{game.pk}/act", {"action": json.dumps(action), "version": game.version}, **HTMX
    )

    assert response.status_code == 200
    game.refresh_from_db()
    assert game.version > version and 'id="game-live"' in response.content.decode()
    assert _private(response)


def test_the_apis_game_views_are_kept_out_of_caches(world):
    client = Client(headers={"Authorization": f"Bearer {world['tokens']['seat']}"})
    game_id = world["game_id"]
    for path in (
        f"/api/games/{game_id}",
        f"/api/games/{game_id}/actions",
        f"/api/games/{game_id}/log",
        f"/api/tables/{game_id}",
        "/api/tables?which=mine",
        "/api/me",
    ):
        response = client.get(path)
        assert response.status_code == 200, path
        assert _private(response), path
    assert "hand" in json.dumps(client.get(f"/api/games/{game_id}").json())
