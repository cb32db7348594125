"""Fixtures for the Web Push tests: a push service on loopback the site may post to, and
``device(user)``: a member turning push on in a new browser, through the profile's endpoint
as its script does. (``eager_celery``, in tests/conftest.py, sends a push owed by its task.)
"""

from __future__ import annotations

import json

import pytest
from django.test import Client
from pushkit import BrowserKeys, LoopbackPushService

ANDROID_CHROME = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/131.0.0.0 Mobile Safari/537.36"
)


@pytest.fixture
def push_service(settings):
    with LoopbackPushService() as service:
        # Trusted as the operator's own push service: exactly this origin, this port.
        settings.NAPAD_PUSH_EXTRA_ORIGINS = [service.origin]
        yield service


@pytest.fixture
def device(push_service):
    """``device(user, name)``: ``user`` turns push on in a new browser whose endpoint ends in
    ``name``; returns that browser's keys."""

    def subscribe(user, name: str, *, user_agent: str = ANDROID_CHROME) -> BrowserKeys:
        keys = BrowserKeys()
        client = Client()
        client.force_login(user)
        response = client.post(
            "/accounts/push/devices/",
            json.dumps(keys.subscription(push_service.endpoint(name))),
            content_type="application/json",
            headers={"User-Agent": user_agent},
        )
        assert response.status_code == 201, response.content
        return keys

    return subscribe
