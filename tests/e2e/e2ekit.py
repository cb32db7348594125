"""Helpers for the browser tests: the club served by a real daphne, and what a member does in a
page (log in, open a table, join it, play the first button offered, wait for live updates).

The club runs in its own process group, embedded (SQLite in a temporary folder, the SQLite
channel layer), whatever the surrounding test run uses; see ``conftest.py`` for why.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, Page, expect

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "train-robbery-42"  # noqa: S105 (a test password)
MEMBERS = {"alice": "Alice", "bob": "Bob", "stella": "Stella"}
# stella is staff (a superuser): the admin's pages are checked under the CSP too.
STAFF = "stella"

# How long one live update may take to reach a page (a move is a few hundred milliseconds).
LIVE_TIMEOUT_MS = 15_000
# Every button that posts a move: the cards and "Pass" drawn on the board, the action list.
MOVE_BUTTONS = '#game-live form[action$="/act"] button'
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]

# Runs once in the club's own environment before daphne starts: what `runclub` prepares, plus
# the two members (created through the same service as the sign-up page).
_PREPARE = f"""
from django.core.management import call_command
from django.conf import settings
call_command("migrate", interactive=False, verbosity=0)
if "channels" in settings.DATABASES:
    call_command("migrate", database="channels", interactive=False, verbosity=0)
call_command("collectstatic", interactive=False, verbosity=0)
from games.services.rulesets import rulesets_install_defaults
from games.services.accounts import user_sign_up
rulesets_install_defaults()
for username, display_name in {MEMBERS!r}.items():
    user_sign_up(username=username, email=username + "@example.org", password={PASSWORD!r},
                 display_name=display_name, language="en")
from django.contrib.auth import get_user_model
get_user_model().objects.filter(username={STAFF!r}).update(is_staff=True, is_superuser=True)
"""


# Chromium logs a refused inline script or style in the console; this catches the rest (and
# names the directive) from the page's own securitypolicyviolation events.
_CSP_REPORTER = """
document.addEventListener("securitypolicyviolation", (e) => console.error(
  "CSP violation: " + e.violatedDirective + " refused " + (e.blockedURI || "inline code")
  + " in " + (e.sourceFile || document.location.pathname) + ":" + e.lineNumber));
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class LiveClub:
    """daphne serving HTTP and WebSockets from a fresh embedded club in ``var_dir``."""

    def __init__(self, var_dir: Path):
        self.var_dir = var_dir
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        # Only the variables this club needs: none of the test run's DJANGO_*/NAPAD_* settings,
        # DATABASE_URL or REDIS_URL, so the club is embedded and owns every file it writes.
        self.env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("DJANGO_", "NAPAD_"))
            and key not in {"DATABASE_URL", "REDIS_URL"}
        }
        self.env.update(
            DJANGO_SETTINGS_MODULE="napad_site.settings",
            NAPAD_VAR_DIR=str(var_dir),
            NAPAD_LOG_LEVEL="WARNING",
            PYTHONUNBUFFERED="1",
        )
        self.log_path = var_dir / "daphne.log"
        self.process: subprocess.Popen | None = None
        # What the pages' Content-Security-Policy refused; a test fails on any (conftest.py).
        self.csp_violations: list[str] = []

    def shell(self, code: str, *, what: str, timeout: float) -> str:
        """Run ``code`` with ``manage.py shell`` in the club's own environment; its output."""
        done = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", code],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        assert done.returncode == 0, f"{what} failed:\n{done.stdout}\n{done.stderr}"
        return done.stdout

    def prepare(self) -> None:
        self.shell(_PREPARE, what="preparing the club", timeout=180)

    def start(self, timeout: float = 60) -> None:
        log = self.log_path.open("w")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port)]
            + ["napad_site.asgi:application"],
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process.poll() is None, f"daphne stopped:\n{self.output()}"
            try:
                with urllib.request.urlopen(f"{self.base}/healthz", timeout=5) as response:
                    if response.status == 200:
                        return
            except (OSError, urllib.error.URLError):
                pass
            time.sleep(0.2)
        raise AssertionError(f"daphne did not answer within {timeout} s:\n{self.output()}")

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def output(self) -> str:
        return self.log_path.read_text() if self.log_path.exists() else ""

    def scenarios(self, names: list[str] | None = None) -> dict[str, dict]:
        """Tables in chosen situations (tests/e2e/scenarios.py), made in the club's own
        environment: name -> {"game": id, "to_move": "alice" / "bob" / None, "kind"}."""
        code = (
            "import sys; sys.path.insert(0, 'tests/e2e'); import scenarios; "
            f"scenarios.main({names!r})"
        )
        output = self.shell(code, what="making the scenarios", timeout=600)
        line = next(line for line in output.splitlines() if line.startswith("SCENARIOS "))
        return json.loads(line.removeprefix("SCENARIOS "))

    # --- members ----------------------------------------------------------------------------

    def context(self, browser: Browser, *, viewport=None, locale: str = "en-GB") -> BrowserContext:
        """A new browser context (its own cookies) whose pages report CSP violations."""
        context = browser.new_context(
            base_url=self.base, viewport=viewport or {"width": 1280, "height": 900}, locale=locale
        )
        context.set_default_timeout(LIVE_TIMEOUT_MS)
        context.add_init_script(_CSP_REPORTER)

        def on_console(message) -> None:
            text = message.text
            if "Content Security Policy" in text or text.startswith("CSP violation"):
                self.csp_violations.append(f"{message.page.url if message.page else '?'}: {text}")

        context.on("console", on_console)
        return context

    def member_page(
        self, browser: Browser, username: str, *, viewport=None, language: str | None = None
    ) -> Page:
        """A new browser context (its own cookies) logged in as ``username`` on the login page,
        landing in the lobby. ``language``: switch to it with the page's own switcher (the
        member's profile keeps it for their next visit)."""
        page = self.context(browser, viewport=viewport).new_page()
        page.goto("/accounts/login/?next=/games/")
        page.locator("#id_username").fill(username)
        page.locator("#id_password").fill(PASSWORD)
        page.locator("main form button[type=submit]").click()
        page.wait_for_url(f"{self.base}/games/")
        expect(page.locator(".account-link")).to_have_text(MEMBERS[username])
        if language and page.locator("html").get_attribute("lang") != language:
            page.locator(f'.language-switcher button[value="{language}"]').click()
            expect(page.locator("html")).to_have_attribute("lang", language)
        return page


# --- a table, through the lobby ---------------------------------------------------------------


def table_open(page: Page, ruleset_label: re.Pattern[str], *, seats: int = 2) -> int:
    """From the lobby, open a table with the real form (no bots); returns the table's id."""
    page.goto("/games/")
    page.get_by_role("link", name="Open a new table").click()
    page.wait_for_url("**/games/new")
    labels = page.locator("#id_ruleset option").all_inner_texts()
    matching = [label for label in labels if ruleset_label.search(label)]
    assert len(matching) == 1, f"no single ruleset matches {ruleset_label.pattern}: {labels}"
    page.locator("#id_ruleset").select_option(label=matching[0])
    page.locator("#id_seats").fill(str(seats))
    for position in range(seats):
        assert page.locator(f"#id_bot_{position}").input_value() == "", "a seat is a bot's"
    page.get_by_role("button", name="Open the table").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    return int(re.search(r"/games/(\d+)/$", page.url).group(1))


def table_join_from_lobby(page: Page, game_id: int) -> None:
    """Find the table among the lobby's open tables, open it and take a seat."""
    page.goto("/games/")
    page.locator(f'section[aria-labelledby="open-tables"] a[href="/games/{game_id}/"]').click()
    page.wait_for_url(f"**/games/{game_id}/")
    page.get_by_role("button", name="Take a seat").click()
    # The answer says "You took a seat.", but the socket's push of the same table may replace
    # it at once: the seat itself is what counts.
    expect(page.get_by_role("button", name="Leave the table")).to_be_visible()
    expect(page.locator("#table-seats")).to_contain_text(MEMBERS["bob"])


def mark_page(page: Page) -> None:
    """Leave a mark in the page's JavaScript: it survives only if the page is never reloaded."""
    page.evaluate("window.__e2eNeverReloaded = true")


def never_reloaded(page: Page) -> bool:
    return page.evaluate("window.__e2eNeverReloaded === true")


# --- playing ------------------------------------------------------------------------------------


def live_version(page: Page) -> int:
    return int(page.locator("#game-live").get_attribute("data-version"))


def wait_for_version(page: Page, version: int) -> None:
    """Wait until the page shows ``version`` or later (swapped in by HTMX or the socket)."""
    page.wait_for_function(
        "v => Number(document.querySelector('#game-live')?.dataset.version) >= v",
        arg=version,
        timeout=LIVE_TIMEOUT_MS,
    )


def is_over(page: Page) -> bool:
    return page.locator("#result").count() > 0


def play_first_button(pages: dict[str, Page]) -> tuple[str, str]:
    """The member whose page offers moves clicks the first one; both pages must then show the
    new version — the other member's without a reload. Returns (who moved, button text)."""
    offering = {name: page.locator(MOVE_BUTTONS).count() for name, page in pages.items()}
    movers = [name for name, count in offering.items() if count]
    assert len(movers) == 1, f"exactly one member should have moves to make: {offering}"
    mover = movers[0]
    page = pages[mover]
    expect(page.locator("#game-status .your-turn")).to_be_visible()
    for name, other in pages.items():
        if name != mover:
            expect(other.locator("#game-status")).to_contain_text(f"Waiting for {MEMBERS[mover]}")
    before = live_version(page)
    button = page.locator(MOVE_BUTTONS).first
    text = button.inner_text().strip()
    button.click()
    for other in pages.values():
        wait_for_version(other, before + 1)
    versions = {name: live_version(other) for name, other in pages.items()}
    assert len(set(versions.values())) == 1, f"the pages disagree after {mover}'s move: {versions}"
    return mover, text


def animations_done(page: Page) -> None:
    """Wait until no piece is travelling (static/js/game.js), so a measure or a picture
    catches the board at rest; CSS pulses on changed spots may go on."""
    page.wait_for_function(
        "() => document.getAnimations().every(a => a instanceof CSSAnimation"
        " || a.playState !== 'running')"
    )


def phone_check(page: Page, path: Path) -> None:
    """A phone-sized screenshot of the page, which must not scroll sideways."""
    page.set_viewport_size({"width": 390, "height": 844})
    animations_done(page)
    page.screenshot(path=str(path), full_page=True)
    widths = page.evaluate(
        "({scroll: document.documentElement.scrollWidth, inner: window.innerWidth})"
    )
    assert widths["scroll"] <= widths["inner"], (
        f"{path.name}: the page overflows sideways {widths}; too wide: {page.evaluate(_TOO_WIDE)}"
    )


# The outermost elements that stick out to the right of the viewport, to name in a failure.
_TOO_WIDE = """() => {
  const name = el => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "")
    + [...el.classList].map(c => "." + c).join("");
  const wide = [...document.querySelectorAll("body *")].filter(
    el => el.getBoundingClientRect().right > window.innerWidth + 0.5);
  return wide.filter(el => !wide.includes(el.parentElement)).slice(0, 8).map(
    el => name(el) + " (right " + Math.round(el.getBoundingClientRect().right) + ")");
}"""
