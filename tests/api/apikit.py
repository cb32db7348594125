"""The API tests' JSON client: Django's test client speaking JSON with a bearer token."""

from __future__ import annotations

import json
from typing import Any

from django.test import Client


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


def client_to_move(game_id: int, *clients: ApiClient) -> ApiClient:
    """The one of ``clients`` whose turn it is."""
    for api in clients:
        if api.get(f"/api/games/{game_id}/actions").json()["my_turn"]:
            return api
    raise AssertionError("nobody is to move")
