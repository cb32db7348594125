"""Fixtures for the translated-pages tests: members reading in a language, and a client that
reads the site as they do."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from games.services.accounts import user_sign_up

LANGUAGES = ("pl", "pt")


def member(username: str, display_name: str):
    return user_sign_up(
        username=username,
        email=f"{username}@example.org",
        password="train-robbery-42",  # noqa: S106 (a test password)
        display_name=display_name,
    )


def reader(user, language: str) -> Client:
    """A logged-in client whose member reads ``language`` (profile and cookie, as after a
    log-in)."""
    user.player.language = language
    user.player.save(update_fields=["language"])
    client = Client()
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


@pytest.fixture
def dave(db):
    return member("dave", "Dave")


@pytest.fixture(autouse=True)
def _language_reset():
    """A request activates its reader's language in the thread and leaves it active: the tests
    after these read English again."""
    yield
    translation.deactivate()
