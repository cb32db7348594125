"""Fixtures for the browser tests: a live club served by daphne, and Debian's Chromium.

**The live server** is the real thing, started the way ``manage.py runclub`` starts it:
``manage.py shell`` prepares a fresh club in a temporary folder (migrations for both
databases, ``collectstatic``, the default rulesets, the members alice and bob), then
``python -m daphne napad_site.asgi:application`` serves HTTP and WebSockets on a free port with
the production settings module (``napad_site.settings``, DEBUG off, WhiteNoise, CSRF).

It always runs **embedded** — SQLite files and the SQLite channel layer (channels-lite) in its
own ``NAPAD_VAR_DIR`` — even in the CI's scaled run: ``DATABASE_URL``, ``REDIS_URL`` and every
``DJANGO_*``/``NAPAD_*`` variable are left out of its environment. Passing them through would
point daphne at the shared CI database and Redis (not pytest-django's test database), where
earlier runs leave rows behind; the consumers and channel layers are tested against Redis by
the ``WebsocketCommunicator`` tests in that run. We chose this over Channels'
``ChannelsLiveServerTestCase`` because that serves from a forked process with a test database
that must be file-based and flushed between tests, while a subprocess needs nothing from the
test process: no database access here at all, so Playwright's event loop never meets Django's
async-safety checks.

The tables have no bots, so no Celery worker is needed.

**The browser** is ``/usr/bin/chromium`` (Playwright never downloads one). Without it the tests
fail, naming the package to install; CI installs it (``.ci/run``).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from e2ekit import CHROMIUM_ARGS, LiveClub
from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="package")
def live_club(tmp_path_factory):
    """One embedded club for the browser tests, stopped when they are done."""
    chromium_path()  # no browser: fail before spending time on the club
    club = LiveClub(tmp_path_factory.mktemp("club"))
    club.prepare()
    club.start()
    yield club
    club.stop()


def chromium_path() -> str:
    found = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    if not found:
        pytest.fail(
            f"Chromium is missing ({CHROMIUM}): the browser tests drive Debian's chromium. "
            "Install it with `apt-get install chromium` (.ci/run does).",
            pytrace=False,
        )
    return found


@pytest.fixture(autouse=True)
def _no_csp_violations(request):
    """Every browser test fails on any Content-Security-Policy violation its pages caused."""
    yield
    if "live_club" not in request.fixturenames:
        return
    club = request.getfixturevalue("live_club")
    violations, club.csp_violations[:] = list(club.csp_violations), []
    assert violations == [], "the Content-Security-Policy refused:\n" + "\n".join(violations)


@pytest.fixture
def browser():
    executable = chromium_path()
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=executable, args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield chromium
        finally:
            chromium.close()
