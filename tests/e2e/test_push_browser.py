"""The installable site in Debian's Chromium: the service worker installs with the whole site
as its scope, a push delivered to it through the DevTools protocol
(``ServiceWorker.deliverPushMessage``) is shown as a notification with the member's title
and the game's URL, and with the network cut a page shows the offline page — in the member's
language — while no game page is ever kept. The browser asks for permission to notify only
when the member presses "Turn on".

A member of its own (carol) signs up through the real form, so her language and devices are
hers alone.
"""

from __future__ import annotations

import json
import time

import pytest
from e2ekit import PASSWORD, phone_check
from playwright.sync_api import Page, expect

from games.models import Player, PushMessage
from games.services.push.outbox import TURN_KIND, TURN_TEXT
from games.services.push.sending import push_payload

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
WAIT_MS = 30_000

_NOTIFICATIONS = """async () => {
  const registration = await navigator.serviceWorker.ready;
  const shown = await registration.getNotifications();
  return shown.map(n => ({title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url}));
}"""

_KEPT = """async () => {
  const kept = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) kept.push(new URL(request.url).pathname);
  }
  return kept.sort();
}"""


def _sign_up(live_club, browser, username: str) -> Page:
    context = browser.new_context(base_url=live_club.base, viewport=DESKTOP)
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    page.goto("/accounts/signup/")
    page.locator("#id_username").fill(username)
    page.locator("#id_email").fill(f"{username}@example.org")
    page.locator("#id_display_name").fill(username.title())
    page.locator("#id_password1").fill(PASSWORD)
    page.locator("#id_password2").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    expect(page.locator(".account-link")).to_have_text(username.title())
    return page


def _worker_ready(page: Page) -> str:
    return page.evaluate("navigator.serviceWorker.ready.then(r => r.active && r.scope)")


def _wait_until(page: Page, predicate, what: str, timeout: float = 30):
    """Poll ``predicate``; Playwright's own wait lets the browser's events come in meanwhile."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        page.wait_for_timeout(200)
    raise AssertionError(f"never happened: {what}")


def _worker_session(page: Page, scope: str):
    """A DevTools session that sees the service worker, and the worker's registration id."""
    cdp = page.context.new_cdp_session(page)
    seen: list[dict] = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda e: seen.extend(e["registrations"]))
    cdp.send("ServiceWorker.enable")
    found = _wait_until(
        page,
        lambda: next((r for r in seen if r["scopeURL"] == scope and not r["isDeleted"]), None),
        "the service worker's registration is reported",
    )
    return cdp, found["registrationId"]


def test_a_push_becomes_a_notification_and_offline_shows_the_offline_page(
    live_club, browser, tmp_path
):
    page = _sign_up(live_club, browser, "carol")
    page.context.grant_permissions(["notifications"], origin=live_club.base)
    scope = _worker_ready(page)
    assert scope == f"{live_club.base}/"

    # The payload exactly as the site builds it for a member reading Polish.
    message = PushMessage(
        player=Player(language="pl"),
        kind=TURN_KIND,
        text=TURN_TEXT,
        args={"game": 7},
        url="/games/7/",
        game_id=7,
    )
    payload = push_payload(message)
    cdp, registration = _worker_session(page, scope)
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": live_club.base, "registrationId": registration, "data": json.dumps(payload)},
    )
    shown = _wait_until(page, lambda: page.evaluate(_NOTIFICATIONS), "the notification is shown")
    assert shown == [
        {
            "title": "Twoja kolej",
            "body": "Gra nr 7 czeka na Twój ruch.",
            "tag": "game-7",
            "url": f"{live_club.base}/games/7/",
        }
    ]
    # A payload pointing elsewhere still opens a page of the club.
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {
            "origin": live_club.base,
            "registrationId": registration,
            "data": json.dumps({"title": "Napad Club", "url": "https://elsewhere.example/x"}),
        },
    )
    shown = _wait_until(
        page,
        lambda: [n for n in page.evaluate(_NOTIFICATIONS) if n["title"] == "Napad Club"],
        "the second notification is shown",
    )
    assert shown[0]["url"] == f"{live_club.base}/"

    # Online, a game page and the lobby are fetched; nothing of them is kept.
    page.goto("/games/")
    expect(page.locator("h1")).to_be_visible()
    page.goto("/games/1/")
    page.goto("/accounts/profile/")
    kept = page.evaluate(_KEPT)
    assert "/offline/" in kept
    assert all(path == "/offline/" or path.startswith("/static/") for path in kept), kept

    page.context.set_offline(True)
    for path in ("/games/", "/games/1/", "/accounts/profile/"):
        page.goto(path)
        expect(page).to_have_title("You are offline · Napad Club")
        expect(page.locator("main")).to_contain_text(
            "You are offline — your games will be here when you are back."
        )
    page.screenshot(path=str(tmp_path / "offline-en-desktop.png"))
    phone_check(page, tmp_path / "offline-en-phone.png")
    page.set_viewport_size(DESKTOP)
    page.context.set_offline(False)

    # carol switches to Polish: the next page tells the worker, which keeps the Polish page.
    page.goto("/accounts/profile/")
    page.locator('.language-switcher button[value="pl"]').click()
    expect(page.locator("html")).to_have_attribute("lang", "pl")
    _wait_until(
        page,
        lambda: (
            page.evaluate(
                "caches.match('/offline/').then(r => r && r.headers.get('Content-Language'))"
            )
            == "pl"
        ),
        "the offline page is kept in Polish",
    )
    page.context.set_offline(True)
    page.goto("/games/")
    expect(page.locator("main")).to_contain_text(
        "Jesteś offline — Twoje gry będą tu czekać, gdy wrócisz."
    )
    phone_check(page, tmp_path / "offline-pl-phone.png")
    page.context.set_offline(False)
    page.context.close()


OFF = "Push notifications are off in this browser."
POLISH = {
    "This browser blocks notifications from the club. Allow them in the browser’s settings "
    "for this site, then try again.": "Ta przeglądarka blokuje powiadomienia klubu. Zezwól na "
    "nie w ustawieniach przeglądarki dla tej strony i spróbuj ponownie.",
    "That did not work. Please try again later.": "Nie udało się. Spróbuj ponownie później.",
    OFF: "Powiadomienia push są wyłączone w tej przeglądarce.",
}

_COUNT_PROMPTS = """(() => {
  window.__prompts = 0;
  const ask = Notification.requestPermission.bind(Notification);
  Notification.requestPermission = (...args) => { window.__prompts += 1; return ask(...args); };
})();"""


# Inside the worker: a browser lets a worker focus or open a window only from a real click on
# a notification, which headless Chromium cannot make. So the three calls that need that click
# are recorded instead, and the worker's own "notificationclick" handler is run on the real
# notification, with the real list of open windows.
_RECORD_WINDOW_CALLS = """() => {
  self.__calls = [];
  const path = (url) => new URL(url).pathname;
  WindowClient.prototype.focus = function () {
    self.__calls.push(["focus", path(this.url)]);
    return Promise.resolve(this);
  };
  WindowClient.prototype.navigate = function (url) {
    self.__calls.push(["navigate", path(this.url), path(url)]);
    return Promise.resolve(this);
  };
  self.clients.openWindow = (url) => {
    self.__calls.push(["open", path(url)]);
    return Promise.resolve(null);
  };
}"""

_CLICK = """async (tag) => {
  self.__calls = [];
  const [shown] = (await self.registration.getNotifications()).filter(n => n.tag === tag);
  try {
    self.dispatchEvent(new NotificationEvent("notificationclick", {notification: shown}));
  } catch (error) {
    // waitUntil() refuses an event the browser did not make; the handler has run by then.
  }
}"""


def _click(page: Page, worker, tag: str) -> list:
    worker.evaluate(_CLICK, tag)
    return _wait_until(page, lambda: worker.evaluate("self.__calls"), f"clicking {tag} acts")


def _settled_on(page: Page, path: str) -> None:
    """Open ``path`` and wait until its scripts are done and the worker is active for it: a
    page still registering the worker could be handed the push mid-update."""
    page.goto(path)
    page.wait_for_load_state("networkidle")
    _worker_ready(page)


def _deliver(cdp, live_club, registration: str, payload: dict) -> None:
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": live_club.base, "registrationId": registration, "data": json.dumps(payload)},
    )


def _pushed_and_shown(page: Page, cdp, live_club, registration: str, payload: dict) -> list:
    """Deliver ``payload`` and wait for its notification. What this test is about is the click;
    that a delivered push is shown is the first test's. A push handed over through DevTools
    was seen to vanish on a busy CI machine (twice in this test, each time after a click,
    whatever the tag) while the worker shows every push it gets, so an unseen one is handed
    over again, at most three times, each with 20 s to show."""
    tag = payload["tag"]
    for _attempt in range(3):
        _deliver(cdp, live_club, registration, payload)
        try:
            return _wait_until(
                page,
                lambda: [n for n in page.evaluate(_NOTIFICATIONS) if n["tag"] == tag],
                f"the notification {tag} is shown",
                timeout=20,
            )
        except AssertionError:
            continue
    raise AssertionError(f"never happened: the notification {tag} is shown, pushed 3 times")


def test_clicking_the_notification_focuses_the_game_or_opens_it(live_club, browser):
    page = _sign_up(live_club, browser, "erin")
    page.context.grant_permissions(["notifications"], origin=live_club.base)
    scope = _worker_ready(page)
    cdp, registration = _worker_session(page, scope)
    worker = _wait_until(page, lambda: page.context.service_workers, "the worker is seen")[0]
    worker.evaluate(_RECORD_WINDOW_CALLS)
    # Each step's notification has a tag of its own (replacing a game's notification by its
    # tag is the first test's), so a step only ever sees its own.
    payload = {"title": "Your turn", "body": "…", "url": "/games/7/"}

    # The game is open in a window: that window comes to the front.
    _settled_on(page, "/games/7/")
    _pushed_and_shown(page, cdp, live_club, registration, dict(payload, tag="game-7-open"))
    assert _click(page, worker, "game-7-open") == [["focus", "/games/7/"]]
    # The click closed the notification.
    _wait_until(
        page, lambda: page.evaluate(_NOTIFICATIONS) == [], "the clicked notification is closed"
    )

    # Another page of the club is open: it is sent to the game.
    _settled_on(page, "/accounts/profile/")
    _pushed_and_shown(page, cdp, live_club, registration, dict(payload, tag="game-7-elsewhere"))
    assert _click(page, worker, "game-7-elsewhere") == [
        ["navigate", "/accounts/profile/", "/games/7/"],
        ["focus", "/accounts/profile/"],
    ]

    # No window of the club: one is opened on the game.
    _pushed_and_shown(page, cdp, live_club, registration, dict(payload, tag="game-7-closed"))
    worker.evaluate("() => { self.clients.matchAll = async () => []; }")
    assert _click(page, worker, "game-7-closed") == [["open", "/games/7/"]]
    page.context.close()


def test_the_browser_asks_to_notify_only_when_the_member_turns_push_on(
    live_club, browser, tmp_path
):
    page = _sign_up(live_club, browser, "dora")
    page.context.add_init_script(_COUNT_PROMPTS)
    page.goto("/accounts/profile/")
    _worker_ready(page)
    section = page.locator("#push-devices")
    turn_on = section.get_by_role("button", name="Turn on notifications in this browser")
    expect(turn_on).to_be_visible()
    expect(section.locator("[data-push-status]")).to_have_text(
        "Push notifications are off in this browser."
    )
    expect(section).to_contain_text("Push notifications are not on in any of your browsers.")
    # Visiting pages asks for nothing.
    page.goto("/games/")
    page.goto("/accounts/profile/")
    assert page.evaluate("window.__prompts") == 0
    page.screenshot(path=str(tmp_path / "profile-en-desktop.png"), full_page=True)
    phone_check(page, tmp_path / "profile-en-phone.png")
    page.set_viewport_size(DESKTOP)

    turn_on.click()
    # Headless Chromium answers the prompt itself (no one to ask) and has no push service:
    # either way the member is told, and no device is listed.
    expect(section.locator("[data-push-status]")).not_to_have_text("One moment…")
    assert page.evaluate("window.__prompts") == 1
    status = section.locator("[data-push-status]").inner_text()
    assert status in POLISH and status != OFF, status
    expect(section).to_contain_text("Push notifications are not on in any of your browsers.")

    page.locator('.language-switcher button[value="pl"]').click()
    expect(page.locator("html")).to_have_attribute("lang", "pl")
    expect(section.locator("h2")).to_have_text("Powiadomienia na telefonie")
    # A browser that said no is not asked again: the page says how to allow it instead.
    if status.startswith("This browser blocks"):
        expect(section.locator("[data-push-status]")).to_have_text(POLISH[status])
        expect(section.locator("[data-push-on]")).to_be_hidden()
    else:
        expect(section.locator("[data-push-status]")).to_have_text(POLISH[OFF])
    assert page.evaluate("window.__prompts") == 0
    page.screenshot(path=str(tmp_path / "profile-pl-desktop.png"), full_page=True)
    phone_check(page, tmp_path / "profile-pl-phone.png")
    page.context.close()
