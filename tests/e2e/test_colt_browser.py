"""A round of Colt Express in a real browser, on phone-sized pages: alice opens a two-seat
Colt Express table from the lobby, bob joins it from the lobby, alice starts it, and they play
rounds through Schemin' and Stealin' by clicking the first move their page offers, until a
round whose Stealin' asked somebody to choose has ended (with two bandits every choice of a
round can be forced, and then Stealin' resolves by itself). Every card played and every
choice made in Stealin' must appear on the other member's page over the WebSocket, without a
reload: a card played face down shows there as a card back, and while a card resolves both
pages mark it on the pile and the other member's page says whose choice it is. Screenshots of
both boards (390×844) go to the test's tmp folder, and neither page may scroll sideways.
"""

from __future__ import annotations

import re

import pytest
from e2ekit import (
    MEMBERS,
    MOVE_BUTTONS,
    live_version,
    mark_page,
    never_reloaded,
    phone_check,
    play_first_button,
    table_join_from_lobby,
    table_open,
    wait_for_version,
)
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

COLT = re.compile(r"— Colt Express \(v\d+\)$")
PHONE = {"width": 390, "height": 844}
# A two-player round is a dozen moves or so, a game five rounds; far more means it does not end.
MAX_MOVES = 400
META = re.compile(r"Round (\d+) of \d+ · (Schemin'|Stealin'|game over)")


def round_and_phase(page: Page) -> tuple[int, str]:
    text = page.locator(".colt-board .board__meta").inner_text()
    found = META.search(" ".join(text.split()))
    assert found, f"no round and phase in {text!r}"
    return int(found.group(1)), found.group(2)


def test_two_members_play_a_colt_express_round_through_stealin(live_club, browser, tmp_path):
    alice = live_club.member_page(browser, "alice", viewport=PHONE)
    bob = live_club.member_page(browser, "bob", viewport=PHONE)

    game_id = table_open(alice, COLT, seats=2)
    mark_page(alice)
    table_join_from_lobby(bob, game_id)
    mark_page(bob)
    expect(alice.locator("#table-seats")).to_contain_text("Bob")
    alice.get_by_role("button", name="Start the game").click()
    for page in (alice, bob):
        expect(page.locator("#board .colt-board")).to_be_visible()
        expect(page.locator(".colt-board .car").first).to_be_visible()
        expect(page.locator(".colt-board table.bandits tbody tr")).to_have_count(2)
    wait_for_version(bob, live_version(alice))
    assert round_and_phase(alice) == round_and_phase(bob) == (1, "Schemin'")

    pages = {"alice": alice, "bob": bob}
    # With two bandits every Stealin' choice of a round may be forced (one target, one way to
    # go), and then the whole phase resolves at once: play on until a round's Stealin' asks
    # somebody to choose, and through the end of that round.
    stealin_round: int | None = None
    stealin_moves = 0
    for _move in range(MAX_MOVES):
        (round_a, phase), (round_b, phase_b) = round_and_phase(alice), round_and_phase(bob)
        assert (round_a, phase) == (round_b, phase_b), "the pages show different rounds"
        if phase == "game over" or (stealin_round is not None and round_a > stealin_round):
            break
        if phase == "Stealin'" and stealin_round is None:
            stealin_round = round_a
            for name, page in pages.items():
                phone_check(page, tmp_path / f"colt-stealin-{name}.png")
        mover = next(name for name, page in pages.items() if page.locator(MOVE_BUTTONS).count())
        other = pages["bob" if mover == "alice" else "alice"]
        if phase == "Stealin'":
            # The card being resolved is marked on both piles; its owner is asked to choose.
            for page in pages.values():
                expect(page.locator(".pile__card.is-resolving")).to_have_count(1)
            expect(pages[mover].locator(".pending")).to_contain_text("Choose how it resolves.")
            expect(other.locator(".pending")).to_contain_text(
                f"Waiting for {MEMBERS[mover]} to choose."
            )
            stealin_moves += 1
        pile_before = other.locator(".pile__card").count()
        _mover, text = play_first_button(pages)
        # In Schemin' each card of the hand is the button that plays it ("Move", or "Move"
        # with "face down" in a tunnel); "Draw cards instead" plays nothing.
        # (Unless that card ended Schemin' and every Stealin' choice was forced: then the
        # next round begins at once, with an empty pile.)
        still_scheming = round_and_phase(other) == (round_a, "Schemin'")
        if phase == "Schemin'" and text != "Draw cards instead" and still_scheming:
            piles = other.locator(".pile__card")
            expect(piles).to_have_count(pile_before + 1)
            if "face down" in text:
                expect(piles.last.locator(".card-back")).to_have_count(1)
    else:
        raise AssertionError(f"no Stealin' choice and its round's end within {MAX_MOVES} moves")

    assert stealin_round is not None, "the whole game went by without a Stealin' choice"
    assert stealin_moves, "nobody chose anything during Stealin'"
    last_round = round_and_phase(alice)[1] == "game over"
    for name, page in pages.items():
        if last_round:
            expect(page.locator(".colt-board .board__meta")).to_contain_text("game over")
        else:
            assert round_and_phase(page) == (stealin_round + 1, "Schemin'")
        assert never_reloaded(page), f"{name}'s page was reloaded"
        phone_check(page, tmp_path / f"colt-after-stealin-{name}.png")
