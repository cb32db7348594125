"""A whole game of To jest napad! in a real browser: alice opens a two-seat table from the
lobby with the real form, bob finds it in the lobby and joins, alice starts it, and they play
to the end by clicking the first card (or "Pass") their page offers. Each move must appear on
the other member's page over the WebSocket, without a reload; at the end both see the ranking,
the breakdown and the revealed seed (whose SHA-256 the page showed from the start), and
"verify" confirms that replaying the game from the seed gives the same result.
"""

from __future__ import annotations

import hashlib
import re

import pytest
from e2ekit import (
    is_over,
    live_version,
    mark_page,
    never_reloaded,
    phone_check,
    play_first_button,
    table_join_from_lobby,
    table_open,
    wait_for_version,
)
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

NAPAD = re.compile(r"— To jest napad! \(designed default cards\) \(v\d+\)$")
# Two players finish in about fifty moves; far more means the game does not end.
MAX_MOVES = 300
# A move button anywhere on the page (the board, the action list).
MOVE_BUTTONS_ANYWHERE = 'form[action$="/act"] button'


def test_two_members_play_a_whole_napad_game(live_club, browser, tmp_path):
    alice = live_club.member_page(browser, "alice")
    bob = live_club.member_page(browser, "bob")

    game_id = table_open(alice, NAPAD, seats=2)
    mark_page(alice)
    expect(alice.locator("#game-status")).to_contain_text("1 of 2 seats taken")

    table_join_from_lobby(bob, game_id)
    mark_page(bob)
    # bob's seat reaches alice's open page, with the button to start.
    expect(alice.locator("#table-seats")).to_contain_text("Bob")
    alice.get_by_role("button", name="Start the game").click()
    for page in (alice, bob):
        expect(page.locator("#board .napad-board")).to_be_visible()
        expect(page.locator(".napad-seat")).to_have_count(2)
    # The seed's hash reaches both open pages with the start, before anyone moves (below the
    # board, out of the decision's way).
    seed_hash = alice.locator("#game-board .seed-hash code.hash").inner_text().strip()
    assert re.fullmatch(r"[0-9a-f]{64}", seed_hash)
    expect(bob.locator("#game-board .seed-hash code.hash")).to_have_text(seed_hash)
    wait_for_version(bob, live_version(alice))

    pages = {"alice": alice, "bob": bob}
    moves = {"alice": 0, "bob": 0}
    for _move in range(MAX_MOVES):
        if is_over(alice) and is_over(bob):
            break
        mover, _text = play_first_button(pages)
        moves[mover] += 1
    else:
        raise AssertionError(f"the game did not end within {MAX_MOVES} moves")
    assert moves["alice"] and moves["bob"], moves

    for name, page in pages.items():
        expect(page.locator("#game-status")).to_contain_text("The game is over")
        expect(page.locator(MOVE_BUTTONS_ANYWHERE)).to_have_count(0)
        result = page.locator("#result")
        expect(result.locator("table.ranking tbody tr")).to_have_count(2)
        expect(result.locator("table.ranking")).to_contain_text("Alice")
        expect(result.locator("table.ranking")).to_contain_text("Bob")
        expect(result.locator("table.ranking tr.is-me")).to_have_count(1)
        expect(result.locator("table.breakdown tbody tr")).to_have_count(2)
        seed, shown_hash = (code.strip() for code in result.locator("code.hash").all_inner_texts())
        assert shown_hash == seed_hash
        assert hashlib.sha256(seed.encode()).hexdigest() == seed_hash, "the seed does not match"
        result.get_by_role("button", name="Verify: replay the game from the seed").click()
        expect(result.locator("#verify-result .flash--ok")).to_contain_text("✔")
        assert never_reloaded(page), f"{name}'s page was reloaded"
        phone_check(page, tmp_path / f"napad-end-{name}.png")
