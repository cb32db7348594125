"""The log-in backend (games/web/backends.py): a member's user comes with their profile in one
query, a member logged in before it stays logged in, and a wrong password is checked once."""

from __future__ import annotations

from unittest import mock

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.personakit import PASSWORD

pytestmark = pytest.mark.django_db

DJANGO_BACKEND = "django.contrib.auth.backends.ModelBackend"


def _lobby_page(client: Client) -> tuple[int, int]:
    """The lobby's status, and how many queries asked for the member's Player."""
    with CaptureQueriesContext(connection) as captured:
        status = client.get(reverse("lobby")).status_code
    players = [q for q in captured.captured_queries if 'FROM "games_player"' in q["sql"]]
    return status, len(players)


def test_a_logged_in_members_player_comes_with_their_user(client, alice):
    assert (
        client.post(reverse("login"), {"username": "alice", "password": PASSWORD}).status_code
        == 302
    )

    status, player_reads = _lobby_page(client)

    assert status == 200
    assert player_reads == 0  # read in the user's own query


def test_a_member_logged_in_before_the_backend_stays_logged_in(alice):
    # Their session names Django's own backend, which stays listed after ours.
    client = Client()
    client.force_login(alice, backend=DJANGO_BACKEND)

    status, _player_reads = _lobby_page(client)

    assert status == 200
    assert client.get(reverse("home")).wsgi_request.user == alice


def test_a_wrong_password_is_checked_once(client, alice):
    checks = []
    check_password = AbstractBaseUser.check_password

    def counted(user, raw_password):
        checks.append(user.get_username())
        return check_password(user, raw_password)

    with mock.patch.object(AbstractBaseUser, "check_password", counted):
        response = client.post(reverse("login"), {"username": "alice", "password": "wrong"})

    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()
    assert checks == ["alice"]
