"""Shared fixtures: the club's personas.

alice and bob are members (each with a Player); charlie is a member too, for "someone else".
All of them log in with ``PASSWORD``.
"""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client

from games.services.accounts import user_sign_up

PASSWORD = "train-robbery-42"  # noqa: S105 (a test password)


def _member(username: str, display_name: str, *, language: str = "en"):
    return user_sign_up(
        username=username,
        email=f"{username}@example.org",
        password=PASSWORD,
        display_name=display_name,
        language=language,
    )


@pytest.fixture(autouse=True)
def _fresh_cache():
    # Login throttling counts failures in the cache; no test should inherit another's.
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def alice(db):
    return _member("alice", "Alice")


@pytest.fixture
def bob(db):
    return _member("bob", "Bob")


@pytest.fixture
def charlie(db):
    return _member("charlie", "Charlie")


@pytest.fixture
def alice_client(alice) -> Client:
    client = Client()
    client.force_login(alice)
    return client


@pytest.fixture
def bob_client(bob) -> Client:
    client = Client()
    client.force_login(bob)
    return client
