"""The OpenAPI schema at /api/schema/, and schemathesis against it through the WSGI app:
generated requests (valid and not) never get a 5xx."""

from __future__ import annotations

import contextlib

import pytest
import schemathesis
from apikit import ApiClient
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import Client
from hypothesis import HealthCheck, settings
from schemathesis.checks import CHECKS, load_all_checks
from schemathesis.config import SchemathesisConfig

from games.services.api_tokens import api_token_create

pytestmark = pytest.mark.django_db

ENDPOINTS = {
    ("get", "/api/me"),
    ("get", "/api/rulesets"),
    ("get", "/api/tables"),
    ("post", "/api/tables"),
    ("get", "/api/tables/{game_id}"),
    ("post", "/api/tables/{game_id}/join"),
    ("post", "/api/tables/{game_id}/leave"),
    ("post", "/api/tables/{game_id}/start"),
    ("post", "/api/tables/{game_id}/cancel"),
    ("get", "/api/games/{game_id}"),
    ("get", "/api/games/{game_id}/actions"),
    ("post", "/api/games/{game_id}/actions"),
    ("get", "/api/games/{game_id}/log"),
    ("get", "/api/leagues/"),
    ("get", "/api/leagues/{league}/standings"),
    ("get", "/api/ratings/{kind}"),
}


def test_the_schema_is_json_listing_every_endpoint(db):
    response = Client().get("/api/schema/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    listed = {(method, path) for path, item in schema["paths"].items() for method in item}
    assert ENDPOINTS <= listed
    schemes = schema["components"]["securitySchemes"]
    assert {"type": "http", "scheme": "bearer"} in schemes.values()


def test_the_docs_page_is_served(db):
    response = Client().get("/api/docs")
    assert response.status_code == 200
    assert b"/api/schema/" in response.content


@contextlib.contextmanager
def _wsgi_inside_the_test_transaction():
    """Django's test client keeps requests from closing the test's database connection;
    a bare WSGI call does not, so do the same for schemathesis's calls."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.fixture
def alice_token(alice, bob, rulesets):
    """alice's token, with a running table (alice and bob) and an open one to aim at."""
    _row, raw = api_token_create(user=alice, name="schemathesis")
    _row, bob_raw = api_token_create(user=bob, name="schemathesis")
    alice_api, bob_api = ApiClient(raw), ApiClient(bob_raw)
    running = alice_api.post("/api/tables", {"kind": "napad", "seats": 2}).json()
    bob_api.post(f"/api/tables/{running['id']}/join")
    alice_api.post(f"/api/tables/{running['id']}/start")
    alice_api.post("/api/tables", {"kind": "napad", "seats": 3})
    return raw


# 400 is this API's documented answer to a request its rules refuse (a full table, a move
# that is not legal now, a seat count the game does not take): such a request can be valid by
# the schema. What a schema-valid request must never get is 422, "not what the schema says".
CONFIG = SchemathesisConfig.from_str(
    """
[checks.positive_data_acceptance]
expected-statuses = ["2xx", "3xx", "400", "401", "403", "404", "409", "429", "5xx"]
"""
)


def _load_schema():
    # Loaded at collection: the schema view needs no database. (schemathesis's lazy
    # ``from_fixture`` does not work with this pytest version.)
    from napad_site.wsgi import application

    with _wsgi_inside_the_test_transaction():
        return schemathesis.openapi.from_wsgi("/api/schema/", application, config=CONFIG)


schema = _load_schema()
load_all_checks()
# Every check schemathesis has: no 5xx, and every answer is one the schema documents (status
# code, content type, headers, body), valid requests accepted and invalid ones refused, auth
# not ignored... max_response_time is not among them: tests never assert times.
ALL_CHECKS = CHECKS.get_all()


@schema.parametrize()
@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_generated_requests_get_only_documented_answers(case, alice_token):
    # The Host header is the server's: Django refuses an unknown host (400, ALLOWED_HOSTS)
    # before any API code runs, so generated junk headers keep the site's own host.
    headers = {"Authorization": f"Bearer {alice_token}", "Host": "localhost"}
    with _wsgi_inside_the_test_transaction():
        response = case.call(headers=headers)
        # Inside too: some checks send requests of their own (without the token, with a
        # wrong one, the same request again).
        case.validate_response(response, checks=ALL_CHECKS, headers=headers)


@pytest.mark.parametrize(
    "path",
    [
        "/api/no-such-thing/here",
        # A line break in the path (schemathesis found it: the site's HTML page answered).
        "/api/games/%0A12",
        "/api/games/12%0A",
        "/api/%0D%0A",
    ],
)
def test_an_unknown_endpoint_answers_json(db, path):
    response = Client().get(path)
    assert response.status_code == 404
    assert response.json() == {"detail": "There is no such API endpoint; see /api/docs."}


def test_a_body_that_is_not_json_gets_the_documented_422(alice_token):
    client = Client(headers={"Authorization": f"Bearer {alice_token}"})
    response = client.post("/api/games/1/actions", data=b"\x00", content_type="application/json")
    assert response.status_code == 422
    assert response.json() == {
        "detail": "The request body is not valid JSON.",
        "errors": [{"loc": ["body"], "msg": "not valid JSON", "type": "json_invalid"}],
    }


def test_every_operation_with_parameters_documents_422(db):
    schema = Client().get("/api/schema/").json()
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            if operation.get("parameters") or operation.get("requestBody"):
                assert "422" in operation["responses"], (method, path)
