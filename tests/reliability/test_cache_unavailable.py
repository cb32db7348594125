"""Redis (the cache, scaled) is away: members still log in, the log-in throttle still counts
(in the web process, until Redis answers again), and /healthz says 503 naming the cache.

The cache here is a real Redis client pointed at a port nobody listens on (connecting is
refused at once, as with a server that is down), not a mock."""

from __future__ import annotations

import json
import logging

import pytest
from django.core.cache import caches
from django.test import Client
from django.urls import reverse

from tests.personakit import PASSWORD

pytestmark = pytest.mark.django_db

UNREACHABLE_CACHE = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:9/0",
        "OPTIONS": {"socket_connect_timeout": 1},
    }
}


@pytest.fixture
def cache_down(settings):
    # The limits count through the failover cache in front of the default one
    # (napad_site/failover_cache.py); its counts in memory start empty.
    # The fragments' cache is in the process's memory (napad_site/settings.py): it stays.
    fragments = settings.CACHES["template_fragments"]
    settings.CACHES = {
        **UNREACHABLE_CACHE,
        "limits": settings.LIMITS_CACHE,
        "template_fragments": fragments,
    }
    caches["limits"].fallback.clear()
    yield
    caches["limits"].fallback.clear()


def _logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def test_a_member_logs_in_while_the_cache_is_away(client, alice, cache_down, caplog):
    with caplog.at_level(logging.WARNING):
        response = client.post(reverse("login"), {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302
    assert _logged_in(client)
    assert "the cache is not answering" in caplog.text
    assert client.get(reverse("profile")).status_code == 200


def test_the_throttle_still_counts_while_the_cache_is_away(client, alice, cache_down, settings):
    settings.LOGIN_ATTEMPTS_LIMIT = 3
    for _ in range(3):
        wrong = client.post(reverse("login"), {"username": "alice", "password": "guess"})
        assert wrong.status_code == 200
    response = client.post(reverse("login"), {"username": "alice", "password": PASSWORD})
    assert response.status_code == 200
    assert "Too many failed log-in attempts" in response.content.decode()
    assert not _logged_in(client)


def test_healthz_names_the_cache_while_it_is_away(client, cache_down):
    response = client.get(reverse("healthz"))
    assert response.status_code == 503
    body = json.loads(response.content)
    assert body["failing"] == ["cache"]
    assert body["checks"]["cache"]["error"].startswith("ConnectionError")
