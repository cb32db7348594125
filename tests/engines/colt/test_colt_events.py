"""Round-card events, train stations, the end of a round, and scoring (spec §Round cards,
§Scoring)."""

from __future__ import annotations

from colt_positions import INSIDE, ROOF, act, choice_types, run_events, table, types, where

from games.engines.colt import scoring
from games.engines.colt.engine import ENGINE
from games.engines.colt.state import clone


def test_angry_marshal_shoots_his_roof_then_moves_toward_the_caboose():
    state = table(
        players=4,
        cars=3,
        round_card="Angry Marshal",
        marshal=1,
        at={0: (1, ROOF), 1: (1, ROOF), 2: (2, INSIDE), 3: (3, INSIDE)},
    )
    state, events = run_events(state)
    assert state["received"] == [1, 1, 1, 0]
    assert state["marshal"] == 2 and where(state, 2) == (2, ROOF)
    assert "round_event" in types(events)


def test_angry_marshal_in_the_caboose_stays_there():
    state = table(
        cars=2,
        round_card="Angry Marshal",
        marshal=2,
        at={0: (2, ROOF), 1: (1, INSIDE), 2: (1, INSIDE)},
    )
    state, _ = run_events(state)
    assert state["marshal"] == 2 and state["received"] == [1, 0, 0]


def test_swivel_arm_sweeps_every_roof_bandit_to_the_caboose_roof():
    state = table(cars=4, round_card="Swivel Arm", at={0: (0, ROOF), 1: (2, ROOF), 2: (2, INSIDE)})
    state, _ = run_events(state)
    assert where(state, 0) == (4, ROOF) and where(state, 1) == (4, ROOF)
    assert where(state, 2) == (2, INSIDE)


def test_braking_moves_roof_bandits_one_car_toward_the_locomotive():
    state = table(cars=3, round_card="Braking", at={0: (0, ROOF), 1: (3, ROOF), 2: (3, INSIDE)})
    state, _ = run_events(state)
    assert where(state, 0) == (0, ROOF) and where(state, 1) == (2, ROOF)
    assert where(state, 2) == (3, INSIDE)


def test_take_it_all_puts_the_second_strongbox_in_the_marshals_car():
    state = table(
        cars=3,
        round_card="Take It All!",
        marshal=2,
        at={0: (1, ROOF), 1: (3, ROOF), 2: (3, INSIDE)},
    )
    state["reserve"] = ["strongbox", "jewel"]
    state, _ = run_events(state)
    assert state["inside"][2] == ["strongbox"] and state["reserve"] == ["jewel"]


def test_passengers_rebellion_shoots_every_bandit_inside_the_train():
    state = table(
        cars=3,
        round_card="Passengers' Rebellion",
        at={0: (1, INSIDE), 1: (3, ROOF), 2: (3, INSIDE)},
    )
    state, _ = run_events(state)
    assert state["received"] == [1, 0, 1] and state["neutral"] == 11


def test_passengers_rebellion_with_exactly_enough_neutral_bullets_gives_them_all():
    # Two bandits inside, two neutral bullets left: as many as the group, so both get one.
    state = table(
        cars=3,
        round_card="Passengers' Rebellion",
        neutral=2,
        at={0: (1, INSIDE), 1: (3, ROOF), 2: (3, INSIDE)},
    )
    state, events = run_events(state)
    assert state["received"] == [1, 0, 1] and state["neutral"] == 0
    assert "neutral_bullets_out" not in types(events)


def test_passengers_rebellion_with_too_few_neutral_bullets_gives_none():
    state = table(
        cars=3,
        round_card="Passengers' Rebellion",
        neutral=1,
        at={0: (1, INSIDE), 1: (3, ROOF), 2: (3, INSIDE)},
    )
    state, _ = run_events(state)
    assert state["received"] == [0, 0, 0] and state["neutral"] == 1


def test_tunnels_and_speed_up_have_no_event():
    for card in ("Tunnels", "Speed-up"):
        state = table(cars=3, round_card=card, at={0: (1, ROOF), 1: (3, ROOF), 2: (3, INSIDE)})
        state, events = run_events(state)
        assert "round_event" not in types(events)
        assert [where(state, s) for s in range(3)] == [(1, ROOF), (3, ROOF), (3, INSIDE)]


def last_round(card, **kwargs):
    return table(round_card=card, round_index=4, **kwargs)


def test_marshals_revenge_takes_the_cheapest_purse_from_his_roof():
    state = last_round(
        "Marshal's Revenge",
        cars=3,
        marshal=2,
        at={0: (2, ROOF), 1: (2, ROOF), 2: (1, ROOF)},
        loot={0: ["purse:400", "purse:250", "jewel"], 1: ["jewel"], 2: ["purse:250"]},
    )
    state, events = run_events(state)
    assert sorted(state["loot"][0]) == ["jewel", "purse:400"]
    assert state["loot"][1] == ["jewel"] and state["loot"][2] == ["purse:250"]
    lost = [e for e in events if e["type"] == "purse_lost"]
    assert len(lost) == 1 and "value" not in lost[0]["args"]
    assert ENGINE.is_over(state)


def test_pickpocketing_lets_a_lone_bandit_take_a_purse_from_his_spot():
    state = last_round(
        "Pickpocketing",
        cars=3,
        at={0: (2, ROOF), 1: (3, INSIDE), 2: (3, INSIDE)},
        floor={(2, ROOF): ["purse:350"], (3, INSIDE): ["purse:500"]},
    )
    state, _ = run_events(state)
    assert ENGINE.to_move(state) == [0]  # 1 and 2 share their spot: not alone
    assert choice_types(state, 0) == [
        {"type": "pickpocket", "take": True},
        {"type": "pickpocket", "take": False},
    ]
    state, events = act(state, 0, type="pickpocket", take=True)
    assert state["loot"][0] == ["purse:350"] and ENGINE.is_over(state)


def test_pickpocketing_is_optional():
    state = last_round(
        "Pickpocketing",
        cars=3,
        at={0: (2, ROOF), 1: (1, INSIDE), 2: (3, INSIDE)},
        floor={(2, ROOF): ["purse:350"], (3, INSIDE): ["purse:500", "jewel"]},
    )
    state, _ = run_events(state)
    state, _ = act(state, 0, type="pickpocket", take=False)
    assert ENGINE.to_move(state) == [2]
    state, _ = act(state, 2, type="pickpocket", take=True)
    assert state["loot"][0] == [] and state["loot"][2] == ["purse:500"]
    assert state["roof"][2] == ["purse:350"]


def test_hostage_taking_pays_250_to_each_bandit_in_or_on_the_locomotive():
    state = last_round(
        "Hostage-Taking of the Conductor",
        cars=2,
        marshal=1,
        at={0: (0, INSIDE), 1: (0, ROOF), 2: (1, ROOF)},
    )
    state, _ = run_events(state)
    assert state["loot"] == [["purse:250"], ["purse:250"], []] and state["ransom"] == 500


def test_end_of_round_first_player_passes_left_and_cards_return():
    state = table(cars=2, at={0: (1, ROOF), 1: (2, ROOF), 2: (2, INSIDE)})
    state["first_player"] = 2
    from colt_positions import resolve

    state, _ = resolve(state, [(0, "floor"), (1, "floor")])
    assert state["first_player"] == 0 and state["round"] == 1
    assert state["pile"] == [] and state["phase"] == "schemin"


def test_end_of_game_after_five_rounds():
    state = last_round("Tunnels", cars=2, at={0: (1, ROOF), 1: (2, ROOF), 2: (2, INSIDE)})
    state, events = run_events(state)
    assert ENGINE.is_over(state) and ENGINE.to_move(state) == [] and "game_over" in types(events)


def over(loot, bullets, received):
    state = clone(table(players=len(loot), cars=len(loot)))
    state["loot"] = [list(tokens) for tokens in loot]
    state["bullets"] = list(bullets)
    state["received"] = list(received)
    state["phase"] = "over"
    return state


def test_scoring_sums_loot_by_kind():
    state = over([["purse:300", "jewel", "strongbox"], []], [6, 6], [0, 0])
    result = ENGINE.result(state)
    assert result["scores"] == [1800, 0]
    assert result["breakdown"][0]["loot"]["purse"] == {"count": 1, "value": 300}
    assert result["breakdown"][0]["gunslinger_bonus"] == 0


def test_gunslinger_goes_to_everyone_tied_for_most_bullets_fired():
    state = over([[], [], []], [4, 4, 6], [0, 0, 4])
    assert scoring.gunslingers(state) == [0, 1]
    assert ENGINE.result(state)["scores"] == [1000, 1000, 0]


def test_gunslinger_goes_to_nobody_if_nobody_fired():
    state = over([["jewel"], []], [6, 6], [0, 0])
    assert ENGINE.result(state)["scores"] == [500, 0]


def test_tie_break_fewest_bullets_received_then_shared():
    state = over([["jewel"], ["jewel"], ["jewel"], []], [6, 6, 6, 6], [3, 1, 1, 0])
    ranking = ENGINE.result(state)["ranking"]
    assert [(r["seat"], r["place"]) for r in ranking] == [(1, 1), (2, 1), (0, 3), (3, 4)]
