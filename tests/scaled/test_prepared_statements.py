"""On PostgreSQL the game page's queries run as prepared statements once a connection has
repeated them (napad_site/database.py): the server plans the page's six-table query once per
connection instead of on every page load, and the page reads the same either way."""

from __future__ import annotations

import pytest
from django.db import connection
from django.urls import reverse
from scaledkit import napad_game_started

pytestmark = [pytest.mark.scaled, pytest.mark.django_db]


def _prepared() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in cursor.fetchall()]


def test_the_game_page_query_is_prepared_after_a_few_loads(alice, bob, alice_client):
    assert connection.vendor == "postgresql"
    game = napad_game_started(alice, bob)
    url = reverse("game_detail", args=[game.pk])
    first = alice_client.get(url)
    assert first.status_code == 200
    for _ in range(6):
        again = alice_client.get(url)
        assert again.status_code == 200
    prepared = _prepared()
    # The game's own query (its EXISTS hints make it the page's longest) is among them.
    assert any("games_game" in sql and "hint_leave" in sql for sql in prepared), prepared
    assert again.content.count(b'id="board"') == first.content.count(b'id="board"') == 1
