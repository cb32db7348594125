"""Fixtures for the API tests: tokens for the personas and a small JSON client around them."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from games.services.api_tokens import api_token_create
from games.services.rulesets import rulesets_install_defaults


class ApiClient:
    """Django's test client speaking JSON with ``Authorization: Bearer <token>``."""

    def __init__(self, token: str | None):
        self.client = Client()
        self.headers = {"Authorization": f"Bearer {token}"} if token else {}

    def get(self, path: str, **params: Any):
        return self.client.get(path, params, headers=self.headers)

    def post(self, path: str, body: Any = None, *, raw: str | bytes | None = None):
        data = raw if raw is not None else json.dumps(body if body is not None else {})
        return self.client.post(
            path, data=data, content_type="application/json", headers=self.headers
        )


@pytest.fixture
def rulesets(db):
    rulesets_install_defaults()


def _token(user) -> str:
    _row, raw = api_token_create(user=user, name="tests")
    return raw


@pytest.fixture
def alice_api(alice, rulesets) -> ApiClient:
    return ApiClient(_token(alice))


@pytest.fixture
def bob_api(bob, rulesets) -> ApiClient:
    return ApiClient(_token(bob))


@pytest.fixture
def charlie_api(charlie, rulesets) -> ApiClient:
    return ApiClient(_token(charlie))


@pytest.fixture
def anonymous_api(db) -> ApiClient:
    return ApiClient(None)


@pytest.fixture
def napad_running(alice_api, bob_api) -> dict[str, Any]:
    """A started two-player Napad table between alice (creator) and bob, via the API."""
    table = alice_api.post("/api/tables", {"kind": "napad", "seats": 2}).json()
    bob_api.post(f"/api/tables/{table['id']}/join")
    started = alice_api.post(f"/api/tables/{table['id']}/start")
    assert started.status_code == 200, started.content
    return started.json()


def client_to_move(game_id: int, *clients: ApiClient) -> ApiClient:
    """The one of ``clients`` whose turn it is."""
    for api in clients:
        if api.get(f"/api/games/{game_id}/actions").json()["my_turn"]:
            return api
    raise AssertionError("nobody is to move")
