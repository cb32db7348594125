"""Fifty members' pages submit the same move on the same version at the same instant, on
PostgreSQL where the row lock is real: exactly one is applied, the other 49 are told the game
moved on, the version goes up once and the event log stays gapless.

Each thread is its own request with its own database connection (Django opens one per
thread), released behind a barrier so the submissions really overlap."""

from __future__ import annotations

import json
import threading

import pytest
from django.db import connection, connections
from django.test import Client
from reliakit import MOVED_ON, mover_and_action, started_game

from games.models import GameEvent
from games.services.api_tokens import api_token_create
from games.services.play import move_submit

pytestmark = [pytest.mark.scaled, pytest.mark.django_db(transaction=True)]

SUBMISSIONS = 50


def _race(submit, count: int = SUBMISSIONS) -> list:
    """Run ``submit()`` in ``count`` threads started together; return what each returned."""
    barrier = threading.Barrier(count)
    results: list = [None] * count
    errors: list[BaseException] = []

    def run(index: int) -> None:
        try:
            barrier.wait(timeout=30)
            results[index] = submit()
        except BaseException as error:  # noqa: BLE001 (reported by the test below)
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors[:3]
    return results


def _assert_applied_once(game, version_before: int) -> None:
    game.refresh_from_db()
    assert game.version == version_before + 1
    seqs = list(GameEvent.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, game.version + 1))


def test_it_runs_on_postgresql():
    # The point of these tests is the real row lock: SQLite would serialise them anyway.
    assert connection.vendor == "postgresql"


def test_it_applies_one_of_fifty_simultaneous_service_calls(alice, bob):
    game = started_game(alice, bob)
    # One move first, so the race happens on a version other than the starting one.
    user, action = mover_and_action(game, [alice, bob])
    assert move_submit(game_id=game.pk, user=user, action=action, expected_version=0).ok
    user, action = mover_and_action(game, [alice, bob])

    results = _race(
        lambda: move_submit(game_id=game.pk, user=user, action=action, expected_version=1)
    )

    applied = [r for r in results if r.ok]
    refused = [r for r in results if not r.ok]
    assert len(applied) == 1 and len(refused) == SUBMISSIONS - 1
    assert {r.message for r in refused} == {MOVED_ON}
    # Everyone who was refused got the table as it is now, to redraw their page.
    assert {r.version for r in refused} == {2}
    _assert_applied_once(game, 1)


def test_it_applies_one_of_fifty_simultaneous_api_posts(alice, bob):
    game = started_game(alice, bob)
    user, action = mover_and_action(game, [alice, bob])
    _row, token = api_token_create(user=user, name="race")

    def post():
        return Client().post(
            f"/api/games/{game.pk}/actions",
            {"action": action, "expected_version": 0},
            content_type="application/json",
            headers={"Authorization": f"Bearer {token}"},
        )

    responses = _race(post)

    statuses = sorted(r.status_code for r in responses)
    assert statuses == [200] + [409] * (SUBMISSIONS - 1)
    refused = [r.json() for r in responses if r.status_code == 409]
    assert {body["detail"] for body in refused} == {MOVED_ON}
    _assert_applied_once(game, 0)


def test_it_applies_one_of_fifty_simultaneous_htmx_posts(alice, bob):
    game = started_game(alice, bob)
    user, action = mover_and_action(game, [alice, bob])
    clients = []
    for _ in range(SUBMISSIONS):
        client = Client()
        client.force_login(user)
        clients.append(client)
    queue = list(clients)
    lock = threading.Lock()

    def post():
        with lock:
            client = queue.pop()
        return client.post(
            f"/games/{game.pk}/act",
            {"action": json.dumps(action), "version": "0"},
            headers={"HX-Request": "true"},
        )

    responses = _race(post)

    assert {r.status_code for r in responses} == {200}
    pages = [r.content.decode() for r in responses]
    # HTMX always gets the fresh fragment; the refused ones carry the message in it.
    told = [page for page in pages if "The game moved on since your page was drawn" in page]
    assert len(told) == SUBMISSIONS - 1
    assert all('data-version="1"' in page for page in pages)
    _assert_applied_once(game, 0)
