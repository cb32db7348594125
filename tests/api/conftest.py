"""Fixtures for the API tests: tokens for the personas and a small JSON client around them."""

from __future__ import annotations

from typing import Any

import pytest
from apikit import ApiClient

from games.services.api_tokens import api_token_create
from games.services.rulesets import rulesets_install_defaults


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
