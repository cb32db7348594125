"""The To jest napad! bots: always legal, and the heuristic one plays sensibly (the search bot
has its own tests, test_napad_search.py)."""

from __future__ import annotations

import random

from games.engines.simulator import simulate


def test_engine_exposes_a_random_a_heuristic_and_a_search_bot(engine):
    assert set(engine.bots) == {"random", "heuristic", "search"}


def test_random_bot_picks_a_legal_action_from_its_own_rng(engine):
    state = engine.setup(engine.default_config(), 3, 2)
    (seat,) = engine.to_move(state)
    picks = [engine.bots["random"](engine, state, seat, random.Random(n)) for n in range(30)]
    legal = engine.legal_actions(state, seat)
    assert all(pick in legal for pick in picks)
    assert len({(p["card"], p["colour"]) for p in picks}) > 3
    again = engine.bots["random"](engine, state, seat, random.Random(7))
    assert again == engine.bots["random"](engine, state, seat, random.Random(7))


def test_heuristic_bot_bids_where_one_card_takes_the_lead(engine, napad):
    state = napad.craft(
        engine,
        players=2,
        marker=1,
        hands={0: [napad.Y2_R7, napad.R2_G7, napad.Y6_R3], 1: [napad.Y5_R5, napad.G2_Y7]},
        train=[napad.GOLD[5], napad.DYNAMITE[2], napad.MONEY[2]],
    )
    state, _ = napad.play(engine, state, 1, napad.Y5_R5, "yellow")
    action = engine.bots["heuristic"](engine, state, 0, random.Random(1))
    # Gold 5 is the prize; yellow 6 is the cheapest card that beats yellow 5.
    assert (action["card"], action["colour"]) == (napad.Y6_R3, "yellow")


def heuristic_table(engine, napad):
    return napad.craft(
        engine,
        players=2,
        marker=1,
        hands={0: [napad.Y4_R4, napad.R2_G7], 1: [napad.G2_Y7, napad.R6_G3, napad.R5_G5]},
        train=[napad.GOLD[2], napad.DYNAMITE[2], napad.MONEY[2]],
    )


def test_heuristic_bot_passes_to_save_cards_when_nothing_more_can_be_won(engine, napad):
    state, _ = napad.run(
        engine,
        heuristic_table(engine, napad),
        [(1, napad.G2_Y7, "yellow"), (0, napad.R2_G7, "red"), (1, "pass")],
    )
    # Red is already won (the rival passed), yellow 7 is out of reach, and green 7 would burn
    # a strong card for a money wagon worth 2: keep the cards.
    action = engine.bots["heuristic"](engine, state, 0, random.Random(1))
    assert action == {"type": "pass", "label": "Pass"}


def test_heuristic_bot_stalls_with_a_tying_card_while_rivals_bid(engine, napad):
    state, _ = napad.run(
        engine,
        heuristic_table(engine, napad),
        [(1, napad.G2_Y7, "yellow"), (0, napad.R2_G7, "red"), (1, napad.R6_G3, "red")],
    )
    # Red 2 + 4 ties the rival's 6: it cannot win but denies the rival the dynamite, the card
    # comes back to hand, and seat 0 stays in the bidding.
    action = engine.bots["heuristic"](engine, state, 0, random.Random(1))
    assert (action["card"], action["colour"]) == (napad.Y4_R4, "red")


def test_heuristic_bot_spends_its_weakest_half_when_forced_to_open(engine, napad):
    state = napad.craft(
        engine,
        players=3,
        marker=0,
        hands={0: [napad.Y6_R3, napad.R2_G7, napad.G5_Y5]},
        train=[napad.GOLD[2], napad.DYNAMITE[2], napad.MONEY[2]],
    )
    action = engine.bots["heuristic"](engine, state, 0, random.Random(1))
    assert action in engine.legal_actions(state, 0)
    assert action["type"] == "play"


def test_heuristic_bot_beats_random_bots_clearly(engine):
    summary = simulate("napad", 200, 4, 11, bots=["heuristic", "random", "random", "random"])
    heuristic = summary["per_bot"]["heuristic"]
    random_bots = summary["per_bot"]["random"]
    assert heuristic["games"] == 200 and random_bots["games"] == 600
    # A fair share would be 25%; the heuristic bot wins most games.
    assert heuristic["win_rate"] > 0.6
    assert heuristic["mean_score"] > random_bots["mean_score"] + 5
