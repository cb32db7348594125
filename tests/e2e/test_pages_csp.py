"""The site's pages under its Content-Security-Policy, in a real browser: each page a member or
an organiser opens — the lobby, a game with its chat, the API tokens, the API docs, the admin's
rulesets, diff and simulation results — works with nothing inline, and the browser reports no
violation (the package's fixture fails any test on one). Screenshots at 1366×768 and 390×844,
in English and Polish, are left in the test's folder to look at."""

from __future__ import annotations

import re

import pytest
from e2ekit import STAFF, phone_check, table_join_from_lobby, table_open
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

NAPAD = re.compile(r"— To jest napad! \(designed default cards\) \(v\d+\)$")
DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}

# A finished balance simulation (with its baseline) for the admin's results page.
_SIMULATION = """
from games.models import Ruleset
from games.services.ruleset_admin import ruleset_clone
from games.services.simulation import simulation_run_execute, simulation_start
base = Ruleset.objects.get(slug="napad-designed-default", version=1)
clone = Ruleset.objects.filter(cloned_from=base).first() or ruleset_clone(ruleset=base, user=None)
run = simulation_start(ruleset=clone, games=12, players=3, bots=["random"], user=None, seed="csp")
simulation_run_execute(run.baseline_id)
simulation_run_execute(run.pk)
print(run.pk)
"""


def _shots(page, path: str, tmp_path, name: str, *, phone_layout: bool = True) -> None:
    """The page at desktop size, then phone size (which must not scroll sideways, except
    in Django's admin, which is not laid out for phones)."""
    page.set_viewport_size(DESKTOP)
    page.goto(path)
    page.screenshot(path=str(tmp_path / f"{name}-desktop.png"), full_page=True)
    if phone_layout:
        phone_check(page, tmp_path / f"{name}-phone.png")
    else:
        page.set_viewport_size(PHONE)
        page.screenshot(path=str(tmp_path / f"{name}-phone.png"), full_page=True)
    page.set_viewport_size(DESKTOP)


def test_a_members_pages_work_under_the_policy(live_club, browser, tmp_path):
    alice = live_club.member_page(browser, "alice", viewport=DESKTOP)
    bob = live_club.member_page(browser, "bob", viewport=DESKTOP)
    game_id = table_open(alice, NAPAD, seats=2)
    table_join_from_lobby(bob, game_id)
    alice.get_by_role("button", name="Start the game").click()
    expect(alice.locator("#board .napad-board")).to_be_visible()

    # The chat form is cleared after a message is sent (forms.js, once an inline hx-on).
    alice.locator("#chat-text").fill("Hands up!")
    alice.locator(".chat__form button").click()
    expect(alice.locator("#chat-log")).to_contain_text("Hands up!")
    expect(alice.locator("#chat-text")).to_have_value("")
    # bob's page gets it live, over a WebSocket the policy allows ('self').
    expect(bob.locator("#chat-log")).to_contain_text("Hands up!")

    for name, path in [
        ("lobby", "/games/"),
        ("new-table", "/games/new"),
        ("game", f"/games/{game_id}/"),
        ("log", f"/games/{game_id}/log"),
        ("replay", f"/games/{game_id}/replay"),
        ("profile", "/accounts/profile/"),
        ("notifications", "/notifications/"),
        ("leave", "/accounts/leave/"),
        ("leagues", "/leagues/"),
        ("rules", "/rules/"),
        ("ratings", "/ratings/"),
        ("members", "/members/"),
    ]:
        _shots(alice, path, tmp_path, name)

    alice.goto("/accounts/api-tokens/")
    alice.locator("input[name=name]").fill("my bot")
    alice.locator("main form button[type=submit]").first.click()
    token = alice.locator("code.token-value")
    expect(token).to_be_visible()
    alice.screenshot(path=str(tmp_path / "api-token-desktop.png"), full_page=True)
    phone_check(alice, tmp_path / "api-token-phone.png")
    box = token.bounding_box()
    assert box["x"] + box["width"] <= 390, "the token must wrap on a phone"

    alice.set_viewport_size(DESKTOP)
    alice.goto("/api/docs")
    expect(alice.locator("#swagger-ui .information-container")).to_be_visible()
    expect(alice.locator("#swagger-ui")).to_contain_text("Napad Club API")
    alice.screenshot(path=str(tmp_path / "api-docs-desktop.png"))


def test_the_pages_in_polish_work_under_the_policy(live_club, browser, tmp_path):
    bob = live_club.member_page(browser, "bob", viewport=DESKTOP)
    # The language switcher (a plain form) makes Polish bob's language.
    bob.locator('.language-switcher button[value="pl"]').click()
    expect(bob.locator("html")).to_have_attribute("lang", "pl")
    for name, path in [("lobby-pl", "/games/"), ("profile-pl", "/accounts/profile/")]:
        _shots(bob, path, tmp_path, name)
    bob.goto("/games/")
    games = bob.locator('main a[href^="/games/"]').evaluate_all(
        "links => links.map(a => a.getAttribute('href'))"
    )
    tables = [href for href in games if re.fullmatch(r"/games/\d+/", href)]
    assert tables, games
    _shots(bob, tables[0], tmp_path, "game-pl")
    # Back to English for the other tests.
    bob.locator('.language-switcher button[value="en"]').click()
    expect(bob.locator("html")).to_have_attribute("lang", "en")


def test_the_admin_pages_work_under_the_policy(live_club, browser, tmp_path):
    run_id = int(
        live_club.shell(_SIMULATION, what="a balance simulation", timeout=300)
        .strip()
        .splitlines()[-1]
    )
    stella = live_club.member_page(browser, STAFF, viewport=DESKTOP)
    for name, path in [
        ("admin", "/admin/"),
        ("admin-rulesets", "/admin/games/ruleset/"),
        ("admin-games", "/admin/games/game/"),
        ("admin-simulation", f"/admin/games/simulationrun/{run_id}/change/"),
    ]:
        _shots(stella, path, tmp_path, name, phone_layout=False)
    stella.goto(f"/admin/games/simulationrun/{run_id}/change/")
    legend = stella.locator(".sim-legend__run")
    expect(legend).to_be_visible()
    colour = legend.evaluate("el => getComputedStyle(el).backgroundColor")
    assert colour == "rgb(65, 118, 144)"  # #417690, from admin.css now
    stella.goto("/admin/games/ruleset/")
    stella.locator("#result_list tbody a").first.click()
    expect(stella.locator("#content")).to_be_visible()
    stella.screenshot(path=str(tmp_path / "admin-ruleset-desktop.png"), full_page=True)
