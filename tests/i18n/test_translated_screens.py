"""The translated pages in a real browser (Debian's Chromium): a Colt Express Stealin' choice and
a To jest napad! round after a loot division, in Polish and in Portuguese, at 1366×768 and
390×844. The pages are rendered by the site (test client) and served to Chromium with their
static files; the test pins what matters as text and geometry — the choice buttons and the log's
headings read in the language, nothing is wider than the viewport — and saves screenshots to
``NAPAD_SCREENSHOTS`` when it is set.
"""

from __future__ import annotations

import mimetypes
import os
import re
import shutil
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation
from i18nkit import (
    LANGUAGES,
    NAPAD,
    heuristic,
    play_step,
    play_until,
    reader,
    state_put,
    table_started,
)
from test_pages_translated import COLT_TM, _choice

from games.selectors.gamelog import phase_title

pytestmark = [pytest.mark.django_db, pytest.mark.browser]

CHROMIUM = "/usr/bin/chromium"
STATIC = Path(settings.BASE_DIR) / "static"
SIZES = {"desktop": (1366, 768), "phone": (390, 844)}


def _serve(page, html: str) -> None:
    def answer(route):
        path = route.request.url.split("club.test", 1)[1].split("?")[0]
        if path.startswith("/static/"):
            file = STATIC / path.removeprefix("/static/")
            if file.is_file():
                kind = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
                return route.fulfill(body=file.read_bytes(), content_type=kind)
            return route.fulfill(status=404, body="")
        if path.startswith("/ws/"):
            return route.abort()
        return route.fulfill(body=html, content_type="text/html; charset=utf-8")

    page.route("http://club.test/**", answer)
    page.goto("http://club.test/games/")


@pytest.fixture
def browser():
    """Chromium's path: Playwright starts only once the page is rendered (its event loop and
    Django's database calls must not share the thread)."""
    if not Path(CHROMIUM).exists() or shutil.which("chromium") is None:
        pytest.fail("Debian's chromium is needed: apt-get install chromium")
    return CHROMIUM


def _look(browser, html: str, name: str, language: str) -> dict:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=browser, args=["--no-sandbox"])
        try:
            return _looked(launched, html, name, language)
        finally:
            launched.close()


def _looked(browser, html: str, name: str, language: str) -> dict:
    shots = os.environ.get("NAPAD_SCREENSHOTS")
    seen = {}
    for size, (width, height) in SIZES.items():
        page = browser.new_page(viewport={"width": width, "height": height}, locale=language)
        _serve(page, html)
        page.wait_for_load_state("load")
        widest = page.evaluate(
            "() => Math.max(...[...document.querySelectorAll('body *')]"
            ".map(e => e.getBoundingClientRect().right))"
        )
        seen[size] = {
            "overflow": page.evaluate(
                "() => document.documentElement.scrollWidth - window.innerWidth"
            ),
            "widest": widest,
            "headings": page.locator(".log-group__title").all_inner_texts(),
            "buttons": page.locator("#actions button").all_inner_texts(),
            "icons": page.locator(".log-line .log-icon").count(),
            # A Napad seat's "(● 1 ● 2)": how many lines each takes, and its text.
            "by_colour": page.evaluate(
                "() => [...document.querySelectorAll('.napad-seat__by-colour')]"
                ".map(e => [new Set([...e.getClientRects()].map(r => r.top)).size,"
                " e.textContent])"
            ),
        }
        if shots:
            Path(shots).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=f"{shots}/{name}-{language}-{size}.png", full_page=True)
            for part in ("#board", "#actions", "#log"):
                element = page.locator(part)
                if element.count() and element.first.is_visible():
                    element.first.screenshot(
                        path=f"{shots}/{name}-{language}-{size}-{part[1:]}.png"
                    )
        page.close()
    return seen


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_colt_stealin_choice_reads_in_the_language(browser, alice, bob, charlie, language):
    game = table_started(COLT_TM, alice, bob, charlie, seed="colt-i18n")
    play_until(game, heuristic(5), lambda state: state["pending"] is not None)
    state, seat = _choice("punch")
    game = state_put(game, state)
    html = reader(alice, language).get(f"/games/{game.pk}/").content.decode()
    seen = _look(browser, html, "colt-stealin-punch", language)
    with translation.override(language):
        stealin = phase_title(1, "stealin", "colt")
    for size, facts in seen.items():
        assert facts["overflow"] <= 0, (size, facts["overflow"])
        assert stealin in facts["headings"], (size, facts["headings"])
        assert facts["icons"] > 0
        punch = "Cios: " if language == "pl" else "Bater em "
        assert facts["buttons"] and all(b.startswith(punch) for b in facts["buttons"]), facts


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_napad_loot_division_reads_in_the_language(browser, alice, bob, charlie, language):
    game = table_started(NAPAD, alice, bob, charlie, seed="napad-i18n")
    chooser = heuristic(3)
    play_until(game, chooser, lambda state: state["round"] >= 2)
    play_step(game, chooser)
    html = reader(alice, language).get(f"/games/{game.pk}/").content.decode()
    seen = _look(browser, html, "napad-division", language)
    with translation.override(language):
        division = phase_title(1, "division", "napad")
    for size, facts in seen.items():
        assert facts["overflow"] <= 0, (size, facts["overflow"])
        assert division in facts["headings"], (size, facts["headings"])
        # The captured wagons by colour stay on one line, with no space inside the brackets.
        assert facts["by_colour"], "nobody has captured a wagon in this position"
        for lines, text in facts["by_colour"]:
            assert lines == 1 and text.startswith("(") and text.endswith(")"), (size, text)
            assert not re.search(r"\s\)|\(\s", text), (size, text)
