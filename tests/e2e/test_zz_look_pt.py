"""Temporary (not committed): pictures in Portuguese and Polish for a person to look at."""
import pytest
from playwright.sync_api import expect
from test_table_layout import member, open_table, animations_done, tables  # noqa: F401

pytestmark = pytest.mark.browser
OUT = "/tmp/shots-pt"


@pytest.mark.parametrize("language", ["pt", "pl"])
def test_look(live_club, browser, tables, language):
    import os
    os.makedirs(OUT, exist_ok=True)
    for name in ("colt_punch", "colt_fire", "colt_schemin"):
        t = tables[name]
        for size in ("laptop", "phone"):
            p = member(live_club, browser, t["to_move"], size, language)
            open_table(p, t["game"])
            p.screenshot(path=f"{OUT}/{name}-{size}-{language}.png")
            p.screenshot(path=f"{OUT}/{name}-{size}-{language}-full.png", full_page=True)
            p.context.close()
    game_id = tables["napad_round_end"]["game"]
    a = member(live_club, browser, "alice", "laptop", language)
    open_table(a, game_id)
    a.context.close()
    b = member(live_club, browser, "bob", "phone", language)
    open_table(b, game_id)
    b.locator("#decision form").last.locator("button").click()
    b.wait_for_timeout(3000)
    b.context.close()
    a = member(live_club, browser, "alice", "laptop", language)
    open_table(a, game_id)
    a.screenshot(path=f"{OUT}/napad-since-laptop-{language}.png", full_page=True)
    a.context.close()
