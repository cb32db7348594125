"""Fixtures for the translated-pages tests (the helpers are in ``i18nkit``)."""

from __future__ import annotations

import pytest
from django.utils import translation

from tests.personakit import member


@pytest.fixture
def dave(db):
    return member("dave", "Dave")


@pytest.fixture(autouse=True)
def _language_reset():
    """A request activates its reader's language in the thread and leaves it active: the tests
    after these read English again."""
    yield
    translation.deactivate()
