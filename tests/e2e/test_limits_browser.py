"""A fair limit reached, in a real browser: the chat line past the limit is answered 429 and
htmx swaps the answer in (partials/htmx_config.html), so the member reads why in the chat, in
their language, and keeps what they typed; nothing is stored and the page is not reloaded.

Its own club, with one chat line a day allowed (the package's club keeps the defaults)."""

from __future__ import annotations

import pytest
from e2ekit import LiveClub, mark_page, never_reloaded
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}

_RUNNING_GAME = """
from datetime import timedelta
from django.contrib.auth import get_user_model
from games.models import Ruleset
from games.services.play import game_create, game_start, seat_join
users = get_user_model().objects
alice, bob = users.get(username="alice"), users.get(username="bob")
ruleset = Ruleset.objects.get(slug="napad-designed-default", version=1)
game = game_create(creator=bob, ruleset=ruleset, seats=2, turn_time_limit=timedelta(hours=24))
seat_join(game_id=game.pk, user=alice)
game_start(game_id=game.pk, user=bob)
print("GAME", game.pk)
"""


_COUNT_SOCKET_MESSAGES = """
window.__socketMessages = 0;
document.addEventListener("htmx:wsAfterMessage", () => { window.__socketMessages += 1; });
"""


@pytest.fixture(scope="module")
def limited_club(tmp_path_factory):
    club = LiveClub(tmp_path_factory.mktemp("limited-club"))
    club.env.update(NAPAD_LIMIT_CHAT="1/d")
    club.prepare()
    output = club.shell(_RUNNING_GAME, what="a running game", timeout=120)
    game_id = int(output.split("GAME ")[1].split()[0])
    club.start()
    yield club, game_id
    club.stop()


@pytest.mark.parametrize(
    ("language", "words"), [("en", "You are writing faster"), ("pl", "Piszesz szybciej")]
)
def test_a_chat_line_past_the_limit_is_refused_in_place(limited_club, browser, language, words):
    club, game_id = limited_club
    page = club.member_page(browser, "alice", viewport=PHONE, language=language)
    # The socket's first message redraws the chat (games/realtime/consumers.py): post after it, so
    # that what is checked is the answer to the post.
    page.context.add_init_script(_COUNT_SOCKET_MESSAGES)
    page.goto(f"/games/{game_id}/")
    page.wait_for_function("() => window.__socketMessages > 0")
    mark_page(page)
    box = page.locator("#chat-text")
    # The day's one line (the first run sends it; the second finds it sent).
    if not page.locator("#chat-log li strong").count():
        box.fill("first line")
        page.locator(".chat__form button").click()
        expect(page.locator("#chat-log")).to_contain_text("first line")

    box.fill(f"one too many ({language})")
    page.locator(".chat__form button").click()

    expect(page.locator("#chat-log .chat__error")).to_contain_text(words)
    expect(box).to_have_value(f"one too many ({language})")
    expect(page.locator("#chat-log")).not_to_contain_text("one too many")
    assert never_reloaded(page)
    page.context.close()
