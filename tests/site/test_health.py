"""``/healthz``: 200 when the database, channel layer, broker and cache answer; 503 naming what
failed."""

from __future__ import annotations

import json
from unittest import mock

import pytest
from django.db import OperationalError, connection
from django.urls import reverse

from napad_site.celery import app as celery_app

pytestmark = pytest.mark.django_db

# Port 9 (discard) is closed here: connecting is refused at once, like a server that is down.
UNREACHABLE_REDIS = "redis://:s3cret-pass@127.0.0.1:9/0"


def _health(client):
    response = client.get(reverse("healthz"))
    return response, json.loads(response.content)


@pytest.fixture
def broker_down():
    """Point the Celery app at a Redis broker that nobody answers on."""
    saved = celery_app.conf.broker_url, celery_app.conf.broker_transport_options
    celery_app.conf.broker_url = UNREACHABLE_REDIS
    celery_app.conf.broker_transport_options = {"socket_connect_timeout": 1}
    yield
    celery_app.conf.broker_url, celery_app.conf.broker_transport_options = saved


def test_it_answers_200_when_everything_is_up(client):
    response, body = _health(client)

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert "no-cache" in response["Cache-Control"]
    assert body["status"] == "ok"
    assert set(body["checks"]) == {"database", "channel_layer", "broker", "cache"}
    assert all(check["status"] == "ok" for check in body["checks"].values())
    assert "failing" not in body


def test_it_needs_no_login(client):
    response, _body = _health(client)

    assert response.status_code == 200


def test_it_answers_503_naming_the_broker_when_it_is_down(client, broker_down):
    response, body = _health(client)

    assert response.status_code == 503
    assert body["status"] == "fail"
    assert body["failing"] == ["broker"]
    assert body["checks"]["broker"]["status"] == "fail"
    assert body["checks"]["broker"]["error"]
    assert body["checks"]["database"]["status"] == "ok"
    assert body["checks"]["channel_layer"]["status"] == "ok"
    assert "s3cret-pass" not in response.content.decode()


def test_it_answers_503_naming_the_channel_layer_when_it_is_down(client, settings):
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [UNREACHABLE_REDIS]},
        }
    }

    response, body = _health(client)

    assert response.status_code == 503
    assert body["failing"] == ["channel_layer"]
    assert body["checks"]["channel_layer"]["error"]
    assert "s3cret-pass" not in response.content.decode()


def test_it_answers_503_naming_the_database_when_it_is_down(client):
    refused = OperationalError("could not connect to server: Connection refused")
    with mock.patch.object(connection, "cursor", side_effect=refused):
        response, body = _health(client)

    assert response.status_code == 503
    assert body["failing"] == ["database"]
    assert body["checks"]["database"]["error"] == (
        "OperationalError: could not connect to server: Connection refused"
    )


def test_it_names_every_failing_part(client, broker_down, settings):
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [UNREACHABLE_REDIS]},
        }
    }

    response, body = _health(client)

    assert response.status_code == 503
    assert body["failing"] == ["channel_layer", "broker"]


def test_it_hides_credentials_in_error_messages():
    from games.views.health import _safe_error

    error = ConnectionError("cannot reach redis://admin:hunter2@cache.internal:6379/0")

    assert _safe_error(error) == "ConnectionError: cannot reach redis://***@cache.internal:6379/0"


def test_it_answers_head_requests_from_load_balancers(client):
    response = client.head(reverse("healthz"))

    assert response.status_code == 200
