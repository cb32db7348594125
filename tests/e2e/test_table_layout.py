"""The game table as a member sees it, in a real browser at 1366×768 and 390×844, in English,
Polish and Brazilian Portuguese: geometry, not pixels.

- Every decision of both games (Napad send/pass, Colt Express's Schemin' play/draw, each
  Stealin' choice, the Time Machine's hideout, Pickpocketing): the decision's controls lie
  inside the first viewport, every car of the train has the same top, nothing is wider than
  the viewport.
- The end screens: their tables do not overflow, the round-by-round chart is rendered, no
  "passed" or marker badge is left over.
- Two members: one moves while the other's page is closed; the other comes back and finds
  those moves in "since your last visit", the changed spots marked, "Watch it" playing them
  on the board, and "Dismiss" clearing the marks.
- Keyboard only: a Napad turn and a Colt Express Stealin' choice, with the skip link, focus
  landing on the next decision (never on <body>) and the live region saying what happened.
- Motion: pieces travel on a live update, and nothing moves under prefers-reduced-motion.

The tables come from ``scenarios.py`` (made once for the module in the club itself). With
``NAPAD_SCREENSHOTS=<folder>`` every situation is also saved as a PNG there, for a person to
look at.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from e2ekit import LIVE_TIMEOUT_MS, animations_done, live_version, wait_for_version
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.browser

SIZES = {"laptop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}
LANGUAGES = ("en", "pl", "pt-br")
DECISIONS = (
    "napad_turn",
    "napad_four",
    "colt_schemin",
    "colt_six",
    "colt_move",
    "colt_fire",
    "colt_rob",
    "colt_punch",
    "colt_marshal",
    "colt_hide",
    "colt_pickpocket",
)
SHOTS = os.environ.get("NAPAD_SCREENSHOTS")


@pytest.fixture(scope="module")
def tables(live_club) -> dict[str, dict]:
    return live_club.scenarios()


def shot(page: Page, name: str) -> None:
    """Keep a picture of the situation when NAPAD_SCREENSHOTS names a folder."""
    if SHOTS:
        # Pieces still travelling would be caught half-way.
        animations_done(page)
        folder = Path(SHOTS)
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(folder / f"{name}.png"))


# Counts the socket's messages swapped into the page (htmx's ws extension), from the start of
# every document.
_COUNT_PUSHES = """window.__pushes = 0;
document.addEventListener("htmx:wsAfterMessage", () => { window.__pushes += 1; });"""


def member(live_club, browser: Browser, username: str, size: str, language: str = "en") -> Page:
    page = live_club.member_page(browser, username, viewport=SIZES[size], language=language)
    page.add_init_script(_COUNT_PUSHES)
    return page


def open_table(page: Page, game_id: int) -> None:
    page.goto(f"/games/{game_id}/")
    page.wait_for_load_state("networkidle")
    # The socket's first push (the table as it is, sent on connect) has been swapped in and
    # its pieces have stopped travelling: what is measured next is the page a member reads,
    # not one about to be replaced.
    page.wait_for_function("() => window.__pushes >= 1", timeout=LIVE_TIMEOUT_MS)
    animations_done(page)


def tops(page: Page) -> list[int]:
    """The top edge of every car (Colt Express) or wagon and locomotive (Napad)."""
    return page.eval_on_selector_all(
        ".colt-train > .car, .train > li",
        "cars => cars.map(car => Math.round(car.getBoundingClientRect().top))",
    )


def assert_no_overflow(page: Page, where: str) -> None:
    widths = page.evaluate(
        "({scroll: document.documentElement.scrollWidth, inner: window.innerWidth})"
    )
    # Nothing sticks out of the viewport but inside a box that scrolls (the train).
    wide = page.evaluate(
        """() => [...document.querySelectorAll('body *')].filter(el => {
          const r = el.getBoundingClientRect();
          if (r.width === 0 || r.right <= window.innerWidth + 0.5) return false;
          for (let p = el.parentElement; p; p = p.parentElement) {
            if (getComputedStyle(p).overflowX !== 'visible') return false;
          }
          return true;
        }).map(el => el.tagName + '.' + el.className).slice(0, 5)"""
    )
    assert widths["scroll"] <= widths["inner"], f"{where}: scrolls sideways {widths}: {wide}"
    assert wide == [], f"{where}: wider than the viewport: {wide}"


def boxes_at_top(page: Page, selector: str) -> list[dict]:
    """The visible elements ``selector`` finds, with the page scrolled to its top: each one's
    box (top, bottom, left, right) and text."""
    page.evaluate("window.scrollTo(0, 0)")
    return page.eval_on_selector_all(
        selector,
        "found => found.filter(e => e.offsetParent !== null).map(e => {"
        " const r = e.getBoundingClientRect();"
        " return {top: r.top, bottom: r.bottom, left: r.left, right: r.right,"
        " text: e.textContent}; })",
    )


def assert_menu_whole(page: Page, where: str) -> None:
    """Every entry of the site's menu is on the screen, none cut at its edge."""
    width = page.evaluate("window.innerWidth")
    links = boxes_at_top(page, ".site-nav a")
    cut = [link["text"] for link in links if link["left"] < 0 or link["right"] > width + 0.5]
    assert cut == [], f"{where}: the menu cuts {cut}"


def assert_decision_in_first_screen(page: Page, where: str) -> None:
    boxes = boxes_at_top(page, "#decision button")
    assert boxes, f"{where}: no control to decide with"
    height, width = page.evaluate("[window.innerHeight, window.innerWidth]")
    outside = [b for b in boxes if b["top"] < 0 or b["bottom"] > height or b["right"] > width]
    assert not outside, f"{where}: {len(outside)} of {len(boxes)} controls below the first screen"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", SIZES)
def test_every_decision_is_in_the_first_screen_on_one_train(
    live_club, browser, tables, size, language
):
    pages: dict[str, Page] = {}
    for name in DECISIONS:
        table = tables[name]
        who = table["to_move"]
        assert who, f"{name}: nobody at the table must decide"
        if who not in pages:
            pages[who] = member(live_club, browser, who, size, language)
        page = pages[who]
        open_table(page, table["game"])
        where = f"{name} ({size}, {language})"
        expect(page.locator("#game-status .your-turn")).to_be_visible()
        assert_menu_whole(page, where)
        assert_decision_in_first_screen(page, where)
        cars = tops(page)
        assert len(cars) >= 3 and len(set(cars)) == 1, f"{where}: the train wraps: {cars}"
        assert_no_overflow(page, where)
        shot(page, f"decision-{name}-{size}-{language}")
    for page in pages.values():
        page.context.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_end_screens_fit_and_chart_the_rounds(live_club, browser, tables, size):
    page = member(live_club, browser, "alice", size)
    for name in ("napad_over", "colt_over"):
        open_table(page, tables[name]["game"])
        where = f"{name} ({size})"
        expect(page.locator("#result")).to_be_visible()
        expect(page.locator("#game-status")).to_contain_text("The game is over")
        # One line per player over the rounds, rendered by the server.
        assert page.locator(".end-chart svg polyline").count() >= 2
        for table in page.locator("#result table").all():
            if not table.is_visible():
                continue
            fits = table.evaluate(
                "t => t.scrollWidth <= t.parentElement.clientWidth + 1"
                " && t.getBoundingClientRect().right <= window.innerWidth + 0.5"
            )
            assert fits, f"{where}: a table overflows"
        for badge in ("badge--passed", "badge--marker", "badge--turn"):
            assert page.locator(f"#board .{badge}").count() == 0, f"{where}: {badge} left over"
        # A player's gang or bandit follows their name after a dot: a bot's seat, already
        # "Bot (easy)", never reads "Bot (easy) (Django)".
        players = page.locator("#result table").first.locator("tbody td:nth-child(2)")
        assert all(" · " in text and ") (" not in text for text in players.all_inner_texts())
        assert_no_overflow(page, where)
        page.evaluate("window.scrollTo(0, 0)")
        shot(page, f"end-{name}-{size}")
        page.locator("#result").scroll_into_view_if_needed()
        shot(page, f"end-{name}-{size}-result")
    page.context.close()


def test_coming_back_shows_what_happened_since_with_the_changed_spots_marked(
    live_club, browser, tables
):
    game_id = tables["napad_round_end"]["game"]
    # Alice looks at the table, then closes it.
    alice = member(live_club, browser, "alice", "laptop")
    open_table(alice, game_id)
    expect(alice.locator("#since .since")).to_have_count(0)
    alice.context.close()
    # Bob passes: the loot is divided and the next round begins.
    bob = member(live_club, browser, "bob", "phone")
    open_table(bob, game_id)
    before = live_version(bob)
    bob.locator("#decision").get_by_role("button", name="Pass").click()
    wait_for_version(bob, before + 1)
    bob.context.close()

    alice = member(live_club, browser, "alice", "laptop")
    open_table(alice, game_id)
    panel = alice.locator("#since .since")
    expect(panel).to_be_visible()
    expect(panel).to_contain_text("Since your last visit")
    expect(panel).to_contain_text("Dividing the loot")
    expect(panel.locator("table.division tbody tr")).to_have_count(3)
    expect(panel.locator(".since__sent")).to_contain_text("Bob")
    expect(panel.locator(".since__sent")).to_contain_text("passed")
    expect(panel).to_contain_text("Round 2")
    # The new wagons (and whatever was captured) are marked on the board.
    marked = alice.locator("#game-board .is-changed")
    expect(marked.first).to_be_visible()
    assert alice.locator("#game-board .wagon.is-changed").count() == 3
    assert_decision_in_first_screen(alice, "napad coming back")
    shot(alice, "since-napad-laptop")
    # "Watch it" plays the move on the board, then puts the table back as it is.
    alice.locator("#since").get_by_role("button", name="Watch it").click()
    caption = alice.locator("[data-watch-caption]")
    expect(caption).to_be_visible()
    expect(caption).to_contain_text("1/")
    # The board plays it in view, under the caption.
    assert caption.evaluate("c => c.getBoundingClientRect().top >= 0")
    shot(alice, "since-napad-watching")
    expect(caption).to_be_hidden(timeout=LIVE_TIMEOUT_MS)
    assert alice.locator("#game-board .wagon.is-changed").count() == 3
    # Dismissed: no panel, no marks, also after a reload.
    alice.locator("#since").get_by_role("button", name="Dismiss").click()
    expect(panel).to_have_count(0)
    expect(marked).to_have_count(0)
    open_table(alice, game_id)
    expect(alice.locator("#since .since")).to_have_count(0)
    alice.context.close()


def test_coming_back_to_a_colt_table_marks_the_bandit_that_moved(live_club, browser, tables):
    game_id = tables["colt_bob_moves"]["game"]
    alice = member(live_club, browser, "alice", "phone", "pl")
    open_table(alice, game_id)
    alice.context.close()
    bob = member(live_club, browser, "bob", "laptop")
    open_table(bob, game_id)
    before = live_version(bob)
    bob.locator("#decision .actions__list button").first.click()
    wait_for_version(bob, before + 1)
    bob.context.close()

    alice = member(live_club, browser, "alice", "phone", "pl")
    open_table(alice, game_id)
    panel = alice.locator("#since .since")
    expect(panel).to_be_visible()
    assert panel.locator(".since__lines li").count() >= 1
    bob_bandit = alice.locator('#board .colt-train [data-flip="bandit-1"]')
    expect(bob_bandit).to_have_class(re.compile(r"\bis-changed\b"))
    assert_no_overflow(alice, "colt coming back (phone, pl)")
    shot(alice, "since-colt-phone-pl")
    alice.context.close()


def _press_until_focused(page: Page, selector: str, limit: int = 40) -> None:
    for _press in range(limit):
        if page.evaluate(f"document.activeElement.matches({selector!r})"):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def _focus_is_on_the_table(page: Page) -> bool:
    return page.evaluate(
        "document.activeElement !== document.body"
        " && document.activeElement.closest('#game-status, #decision') !== null"
    )


def test_a_napad_turn_and_a_colt_choice_with_the_keyboard_only(live_club, browser, tables):
    napad = tables["napad_four"]
    page = member(live_club, browser, napad["to_move"], "phone")
    open_table(page, napad["game"])
    # The skip link is among the first stops and goes straight to the decision.
    _press_until_focused(page, 'a[href="#decision"]', limit=4)
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "decision"
    page.keyboard.press("Tab")
    label = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert label.startswith("Send it with "), label
    assert not re.search(r"card \d", label), f"a card id in a control's name: {label}"
    # Focusing a card's half highlights the wagons of its colour on the train.
    assert page.locator("#board .wagon.is-named").count() >= 1
    before = live_version(page)
    page.keyboard.press("Enter")
    wait_for_version(page, before + 1)
    page.wait_for_function("() => document.activeElement !== document.body")
    assert _focus_is_on_the_table(page), page.evaluate("document.activeElement.outerHTML")
    announced = page.locator("#live-region").inner_text()
    assert "send" in announced.lower(), announced
    page.context.close()

    colt = tables["colt_move"]
    page = member(live_club, browser, colt["to_move"], "laptop")
    open_table(page, colt["game"])
    _press_until_focused(page, 'a[href="#decision"]', limit=4)
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.matches('#decision .actions__list button')")
    # The choice names a spot: it is highlighted on the train while the button has focus.
    expect(page.locator("#board .car__spot.is-named")).to_have_count(1)
    shot(page, "keyboard-colt-choice-focused")
    before = live_version(page)
    page.keyboard.press("Enter")
    wait_for_version(page, before + 1)
    page.wait_for_function("() => document.activeElement !== document.body")
    assert _focus_is_on_the_table(page)
    assert page.locator("#live-region").inner_text().strip()
    page.context.close()


def _record_animations(page: Page) -> None:
    page.evaluate(
        """() => { window.__moved = null;
        document.addEventListener('htmx:wsAfterMessage', () => {
          window.__moved = document.getAnimations().length; }); }"""
    )


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_pieces_travel_on_a_live_update_unless_motion_is_reduced(
    live_club, browser, tables, motion
):
    game_id = tables["colt_schemin"]["game"] if motion == "reduce" else tables["colt_six"]["game"]
    mover_name = (tables["colt_schemin"] if motion == "reduce" else tables["colt_six"])["to_move"]
    watcher_name = "bob" if mover_name == "alice" else "alice"
    watcher = member(live_club, browser, watcher_name, "laptop")
    watcher.emulate_media(reduced_motion=motion)
    open_table(watcher, game_id)
    _record_animations(watcher)
    mover = member(live_club, browser, mover_name, "laptop")
    open_table(mover, game_id)
    before = live_version(mover)
    mover.locator("#decision .action-card__play").first.click()
    wait_for_version(watcher, before + 1)
    watcher.wait_for_function("() => window.__moved !== null")
    moved = watcher.evaluate("window.__moved")
    if motion == "reduce":
        assert moved == 0
    else:
        # The card played appears on the pile, and the hand's cards close up.
        assert moved > 0
    watcher.context.close()
    mover.context.close()


def test_the_create_form_follows_the_ruleset_and_the_number_of_seats(live_club, browser):
    page = member(live_club, browser, "alice", "phone")
    page.goto("/games/new")
    machine = page.locator("#id_option_colt_time_machine")
    ruleset = page.locator("#id_ruleset")
    labels = ruleset.locator("option").all_inner_texts()
    with_machine = next(label for label in labels if "+ Time Machine" in label)
    plain = next(label for label in labels if label.endswith("— Colt Express (v1)"))
    ruleset.select_option(label=with_machine)
    expect(machine).to_be_checked()
    ruleset.select_option(label=plain)
    expect(machine).not_to_be_checked()
    # Only as many seat selectors as seats; a hidden one posts no bot.
    page.locator("#id_seats").fill("3")
    page.locator("#id_seats").dispatch_event("input")
    for position in range(6):
        field = page.locator(f"#id_bot_{position}")
        if position < 3:
            expect(field).to_be_visible()
        else:
            expect(field).to_be_hidden()
    assert_no_overflow(page, "the create form (phone)")
    shot(page, "create-form-phone")
    page.context.close()
