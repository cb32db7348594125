"""The database goes away in the middle of a move: the member gets a clear 503 with the
club's message (an HTML page, the HTMX fragment's request, or JSON from the API) and the game
is exactly as it was — the game row's update, the event and the clock roll back together.

The failure is injected at the database layer (``connection.execute_wrapper``) at the turn
clock's update — after the game row was updated and the event row inserted — so a
half-applied move would show. On
PostgreSQL the backend serving the request is also terminated for real
(``pg_terminate_backend``) and the connection pointed at a closed port."""

from __future__ import annotations

import json
from contextlib import contextmanager

import pytest
from django.db import OperationalError, connection
from django.test import Client
from reliakit import game_snapshot, mover_and_action, started_game

from games.services.api_tokens import api_token_create

pytestmark = pytest.mark.django_db(transaction=True)

# Both the pages (games/web/middleware.py) and the API (games/api) say it in these words.
MESSAGE = "database is not answering right now"
# The move's last write: the game row and its event are already written when it runs.
CLOCK_UPDATE = 'UPDATE "games_turnclock"'


@contextmanager
def _fail_at(sql_prefix: str, failure):
    """Run ``failure()`` instead of the first statement starting with ``sql_prefix``."""
    seen = []

    def wrapper(execute, sql, params, many, context):
        if sql.startswith(sql_prefix) and not seen:
            seen.append(sql)
            return failure(execute, sql, params, many, context)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(wrapper):
        yield seen
    assert seen, f"no statement started with {sql_prefix!r}"


def _refuse(execute, sql, params, many, context):
    raise OperationalError("server closed the connection unexpectedly")


def _logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _html_post(client, game_id, action, version, **headers):
    return client.post(
        f"/games/{game_id}/act",
        {"action": json.dumps(action), "version": str(version)},
        headers=headers,
    )


def _api_post(token, game_id, action, version):
    return Client().post(
        f"/api/games/{game_id}/actions",
        {"action": action, "expected_version": version},
        content_type="application/json",
        headers={"Authorization": f"Bearer {token}"},
    )


def _assert_503_page(response) -> None:
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    page = response.content.decode()
    assert MESSAGE in page.replace("&#x27;", "'").replace("’", "'")
    assert "Temporarily unavailable" in page


def _assert_503_json(response) -> None:
    assert response.status_code == 503
    assert response["Content-Type"].startswith("application/json")
    assert MESSAGE in response.json()["detail"]


@pytest.mark.parametrize("htmx", [False, True], ids=["form", "htmx"])
def test_a_move_page_post_that_loses_the_database_at_the_save_answers_503(alice, bob, htmx):
    game = started_game(alice, bob)
    user, action = mover_and_action(game, [alice, bob])
    client = _logged_in(user)
    before = game_snapshot(game.pk)
    headers = {"HX-Request": "true"} if htmx else {}

    with _fail_at(CLOCK_UPDATE, _refuse):
        response = _html_post(client, game.pk, action, game.version, **headers)

    _assert_503_page(response)
    assert game_snapshot(game.pk) == before
    # Nothing was half-done: the same move on the same version goes through afterwards.
    again = _html_post(client, game.pk, action, game.version)
    assert again.status_code == 302
    assert game_snapshot(game.pk)["version"] == before["version"] + 1


def test_an_api_move_that_loses_the_database_at_the_save_answers_503_json(alice, bob):
    game = started_game(alice, bob)
    user, action = mover_and_action(game, [alice, bob])
    _row, token = api_token_create(user=user, name="outage")
    before = game_snapshot(game.pk)

    with _fail_at(CLOCK_UPDATE, _refuse):
        response = _api_post(token, game.pk, action, game.version)

    _assert_503_json(response)
    assert game_snapshot(game.pk) == before
    assert _api_post(token, game.pk, action, game.version).status_code == 200


def test_a_page_asked_for_json_while_the_database_is_away_answers_503_json(alice, bob):
    game = started_game(alice, bob)
    user, action = mover_and_action(game, [alice, bob])
    before = game_snapshot(game.pk)

    with _fail_at(CLOCK_UPDATE, _refuse):
        response = _html_post(
            _logged_in(user), game.pk, action, game.version, Accept="application/json"
        )

    _assert_503_json(response)
    assert game_snapshot(game.pk) == before


def test_a_member_opening_a_page_while_the_database_is_away_gets_503(alice, bob):
    game = started_game(alice, bob)
    client = _logged_in(alice)

    def every_query_fails(execute, sql, params, many, context):
        raise OperationalError("could not connect to server: Connection refused")

    # From the first query on (the session, the member, their time zone): all refused.
    with connection.execute_wrapper(every_query_fails):
        page = client.get(f"/games/{game.pk}/")
        api = Client().get(f"/api/games/{game.pk}", headers={"Authorization": "Bearer x"})

    _assert_503_page(page)
    _assert_503_json(api)
    assert client.get(f"/games/{game.pk}/").status_code == 200


# -- PostgreSQL: the server really drops the connection ----------------------------------------


def _terminate_own_backend(execute, sql, params, many, context):
    """Have another connection kill the one serving this request, then carry on with it."""
    import psycopg

    pid = context["connection"].connection.info.backend_pid
    settings = connection.settings_dict
    with psycopg.connect(
        host=settings["HOST"],
        port=settings["PORT"] or 5432,
        user=settings["USER"],
        dbname=settings["NAME"],
        autocommit=True,
    ) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])
    return execute(sql, params, many, context)


@pytest.mark.scaled
@pytest.mark.parametrize("via", ["page", "api"])
def test_a_backend_terminated_mid_move_answers_503_and_applies_nothing(alice, bob, via):
    assert connection.vendor == "postgresql"
    game = started_game(alice, bob)
    user, action = mover_and_action(game, [alice, bob])
    _row, token = api_token_create(user=user, name="outage")
    client = _logged_in(user)
    before = game_snapshot(game.pk)

    with _fail_at(CLOCK_UPDATE, _terminate_own_backend):
        if via == "page":
            response = _html_post(client, game.pk, action, game.version)
        else:
            response = _api_post(token, game.pk, action, game.version)

    (_assert_503_page if via == "page" else _assert_503_json)(response)
    connection.close()  # the dead one; the next query opens a fresh connection
    assert game_snapshot(game.pk) == before
    assert _api_post(token, game.pk, action, game.version).status_code == 200


@pytest.mark.scaled
def test_a_database_on_a_closed_port_answers_503_for_pages_and_the_api(alice, bob):
    import socket

    game = started_game(alice, bob)
    client = _logged_in(alice)
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        closed_port = probe.getsockname()[1]
    real_port = connection.settings_dict["PORT"]
    connection.close()
    connection.settings_dict["PORT"] = closed_port
    try:
        page = client.get(f"/games/{game.pk}/")
        api = Client().get(f"/api/games/{game.pk}", headers={"Authorization": "Bearer x"})
    finally:
        connection.close()
        connection.settings_dict["PORT"] = real_port

    _assert_503_page(page)
    _assert_503_json(api)
    assert client.get(f"/games/{game.pk}/").status_code == 200
