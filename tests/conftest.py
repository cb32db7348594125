"""Shared fixtures: the club's personas.

alice and bob are members (each with a Player); charlie is a member too, for "someone else".
All of them log in with ``tests.personakit.PASSWORD``.
"""

from __future__ import annotations

import os

import pytest
from django.conf import settings
from django.core.cache import caches
from django.test import Client
from django.utils import translation
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

from tests.personakit import member

# --- Hypothesis ---------------------------------------------------------------------------------
# No deadline anywhere: the machine is shared and busy, and a slow example is not a wrong one.
# "ci" (chosen by .ci/run through HYPOTHESIS_PROFILE) is derandomized and keeps no example
# database, so a red run is reproduced by running the same commit again; "dev" explores
# new examples on every run. Tests that set their own max_examples keep them.
hypothesis_settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    database=None,
    max_examples=100,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
hypothesis_settings.register_profile("dev", deadline=None)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture(autouse=True)
def _default_language():
    # A request activates its reader's language in the thread and leaves it there (the next
    # request's middleware sets its own); code a test then calls outside a request must not
    # speak the previous test's language.
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _fresh_cache():
    # Login throttling counts failures in the cache, and a rendered fragment may name another
    # test's rows: no test should inherit another's.
    for name in ("default", "template_fragments"):
        caches[name].clear()
    yield
    for name in ("default", "template_fragments"):
        caches[name].clear()


@pytest.fixture
def eager_celery():
    """Tasks queued after commit (bot moves, pushes) run at once, in this process."""
    from napad_site.celery import app

    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = False


@pytest.fixture
def alice(db):
    return member("alice")


@pytest.fixture
def bob(db):
    return member("bob")


@pytest.fixture
def charlie(db):
    return member("charlie")


@pytest.fixture
def alice_client(alice) -> Client:
    client = Client()
    client.force_login(alice)
    return client


@pytest.fixture
def bob_client(bob) -> Client:
    client = Client()
    client.force_login(bob)
    return client


# --- The scaled run ---------------------------------------------------------------------------
# Tests marked `scaled` need PostgreSQL and Redis. .ci/run selects them only in its scaled run,
# where DATABASE_URL and REDIS_URL are set; anywhere else they fail loudly instead of passing
# quietly against the wrong backend.


def pytest_runtest_setup(item):
    if item.get_closest_marker("scaled") is None:
        return
    missing = [name for name in ("DATABASE_URL", "REDIS_URL") if not os.environ.get(name)]
    if missing:
        pytest.fail(
            f"{item.nodeid} needs the scaled setup: set {', '.join(missing)} "
            '(or deselect with -m "not scaled")',
            pytrace=False,
        )
