"""The Time Machine (spec §Time Machine, seed sheet 001): adjacency for Move, Fire and Punch,
the inert floor change, the marshal, Django, Braking, travel and hiding, the final bonus."""

from __future__ import annotations

import pytest
from colt_positions import INSIDE, ROOF, TM, act, choice_types, resolve, run_events, table, where

from games.engines import IllegalAction
from games.engines.colt import flow
from games.engines.colt.engine import ENGINE
from games.engines.colt.state import clone

MACHINE = (-1, TM)


def tm_table(**kwargs):
    kwargs.setdefault("marshal", 2)
    return table(tm=True, **kwargs)


def destinations(state, seat):
    return [(a["to"]["car"], a["to"]["level"]) for a in choice_types(state, seat)]


def test_time_machine_off_has_no_machine_in_the_view_or_the_moves():
    state = table(players=2, cars=2, at={0: (0, INSIDE), 1: (2, ROOF)}, marshal=2)
    assert ENGINE.view(state, 0)["time_machine"] is None
    state, _ = resolve(state, [(0, "move")])
    assert where(state, 0) == (1, INSIDE)


def test_time_machine_move_in_from_the_locomotives_inside():
    state = tm_table(players=2, cars=2, at={0: (0, INSIDE), 1: (2, ROOF)})
    state, _ = resolve(state, [(0, "move")])
    assert destinations(state, 0) == [MACHINE, (1, INSIDE)]
    state, _ = act(state, 0, type="move", to={"car": -1, "level": TM})
    assert where(state, 0) == MACHINE
    assert ENGINE.view(state, 1)["time_machine"]["bandits"] == [0]


def test_time_machine_roof_move_may_end_in_it_as_one_step_beyond_the_locomotive():
    state = tm_table(players=2, cars=4, at={0: (2, ROOF), 1: (4, INSIDE)})
    state, _ = resolve(state, [(0, "move")])
    assert MACHINE in destinations(state, 0)
    far = tm_table(players=2, cars=4, at={0: (3, ROOF), 1: (4, INSIDE)})
    far, _ = resolve(far, [(0, "move")])
    assert MACHINE not in destinations(far, 0)  # it would take four steps


def test_time_machine_move_out_goes_into_the_locomotive_or_onto_its_roof():
    state = tm_table(players=2, cars=2, at={0: MACHINE, 1: (2, ROOF)})
    state, _ = resolve(state, [(0, "move")])
    assert destinations(state, 0) == [(0, INSIDE), (0, ROOF)]


def test_time_machine_floor_change_does_nothing_there():
    state = tm_table(players=2, cars=2, at={0: MACHINE, 1: (2, ROOF)})
    state, events = resolve(state, [(0, "floor")])
    assert where(state, 0) == MACHINE
    assert "nothing_happens" in [e["type"] for e in events]


def test_time_machine_marshal_never_enters_it():
    state = tm_table(players=2, cars=2, marshal=0, at={0: (2, INSIDE), 1: (2, ROOF)})
    state, _ = resolve(state, [(0, "marshal")])
    assert state["marshal"] == 1


def test_time_machine_fire_from_it_at_the_nearest_roof_or_inside_the_locomotive():
    state = tm_table(
        players=4,
        cars=3,
        at={0: MACHINE, 1: (0, INSIDE), 2: (2, ROOF), 3: (3, ROOF)},
        characters=["Doc", "Ghost", "Cheyenne", "Tuco"],
    )
    state, _ = resolve(state, [(0, "fire")])
    assert [a["target"] for a in choice_types(state, 0)] == [1, 2]


def test_time_machine_fire_at_it_from_a_roof_in_line_of_sight():
    state = tm_table(players=3, cars=3, at={0: (2, ROOF), 1: MACHINE, 2: (3, INSIDE)})
    state, _ = resolve(state, [(0, "fire")])
    assert state["received"] == [0, 1, 0]
    blocked = tm_table(players=3, cars=3, at={0: (2, ROOF), 1: MACHINE, 2: (0, ROOF)})
    blocked, _ = resolve(blocked, [(0, "fire")])
    assert blocked["received"] == [0, 0, 1]


def test_time_machine_fire_at_it_from_inside_the_locomotive():
    state = tm_table(players=3, cars=3, at={0: (0, INSIDE), 1: MACHINE, 2: (3, ROOF)})
    state, _ = resolve(state, [(0, "fire")])
    assert state["received"] == [0, 1, 0]


def test_time_machine_cannot_be_shot_from_inside_another_car():
    state = tm_table(players=3, cars=3, at={0: (1, INSIDE), 1: MACHINE, 2: (3, ROOF)})
    state, events = resolve(state, [(0, "fire")])
    assert state["received"] == [0, 0, 0]


@pytest.mark.parametrize("level", [INSIDE, ROOF])
def test_time_machine_punch_from_the_locomotive_into_it(level):
    state = tm_table(players=3, cars=3, at={0: (0, level), 1: (0, level), 2: (3, ROOF)})
    state, _ = resolve(state, [(0, "punch")])
    assert [a["direction"] for a in choice_types(state, 0)] == ["locomotive", "caboose"]
    state, _ = act(state, 0, type="punch", victim=1, loot=None, direction="locomotive")
    assert where(state, 1) == MACHINE


def test_time_machine_punch_out_of_it_only_into_the_locomotive():
    state = tm_table(
        players=3, cars=3, at={0: MACHINE, 1: MACHINE, 2: (3, ROOF)}, loot={1: ["jewel"]}
    )
    state, _ = resolve(state, [(0, "punch")])
    assert where(state, 1) == (0, INSIDE) and state["tm_loot"] == ["jewel"]


def test_time_machine_punched_into_the_locomotive_meets_the_marshal():
    state = tm_table(players=3, cars=3, marshal=0, at={0: MACHINE, 1: MACHINE, 2: (3, ROOF)})
    state, _ = resolve(state, [(0, "punch")])
    assert where(state, 1) == (0, ROOF) and state["received"][1] == 1


def test_time_machine_rob_takes_loot_lying_in_it():
    state = tm_table(players=2, cars=2, at={0: MACHINE, 1: (2, ROOF)}, floor={MACHINE: ["jewel"]})
    state, _ = resolve(state, [(0, "rob")])
    assert state["loot"][0] == ["jewel"] and state["tm_loot"] == []


def test_time_machine_django_pushes_from_the_roof_into_it():
    state = tm_table(
        players=3,
        cars=3,
        characters=["Django", "Doc", "Ghost"],
        at={0: (2, ROOF), 1: (0, ROOF), 2: (3, INSIDE)},
    )
    state, _ = resolve(state, [(0, "fire")])
    assert where(state, 1) == MACHINE


def test_time_machine_braking_moves_the_locomotive_roof_into_it():
    state = tm_table(
        players=3, cars=3, round_card="Braking", at={0: (0, ROOF), 1: (1, ROOF), 2: (3, INSIDE)}
    )
    state, _ = run_events(state)
    # Two bandits end up in the machine's path: seat 0 in it, seat 1 on the locomotive's roof.
    assert where(state, 0) == MACHINE and where(state, 1) == (0, ROOF)


def travel(state):
    """Run the end of round with one bandit alone in the machine."""
    return run_events(state)


def test_time_machine_lone_bandit_chooses_a_secret_hiding_place_at_the_end_of_a_round():
    state = tm_table(players=3, cars=3, at={0: MACHINE, 1: (1, ROOF), 2: (3, INSIDE)})
    state, events = travel(state)
    assert state["phase"] == "hide" and ENGINE.to_move(state) == [0]
    assert [a["car"] for a in choice_types(state, 0)] == [0, 1, 2, 3]
    state, events = act(state, 0, type="hide", car=3)
    assert state["phase"] == "schemin" and state["level"][0] == "hidden"
    secret = [e for e in events if e["type"] == "hideout"]
    assert secret[0]["private_to"] == [0] and secret[0]["args"]["car"] == 3
    public = [e for e in events if "private_to" not in e]
    assert all("car" not in e["args"] for e in public if e["args"].get("seat") == 0)


def test_time_machine_hiding_place_is_hidden_during_schemin_from_everyone_else():
    state = tm_table(players=3, cars=3, at={0: MACHINE, 1: (1, ROOF), 2: (3, INSIDE)})
    state, _ = travel(state)
    state, _ = act(state, 0, type="hide", car=2)
    assert ENGINE.view(state, 1)["bandits"][0]["car"] is None
    assert ENGINE.view(state, None)["bandits"][0]["level"] == "hidden"
    assert ENGINE.view(state, 0)["bandits"][0]["car"] == 2
    other = clone(state)
    other["car"][0] = 1
    assert ENGINE.view(other, 1) == ENGINE.view(state, 1)


def test_time_machine_traveller_reappears_inside_his_car_when_stealin_starts():
    state = tm_table(players=3, cars=3, at={0: MACHINE, 1: (1, ROOF), 2: (3, INSIDE)})
    state, _ = travel(state)
    state, _ = act(state, 0, type="hide", car=1)
    state = clone(state)
    state["pile"] = []
    state["queue"] = []
    state["turn"] = 99
    state["round_deck"] = list(state["round_deck"])
    state["round_deck"][state["round"]] = "Tunnels"
    events = []
    flow.advance(state, events)
    appear = [e for e in events if e["type"] == "reappears"]
    assert appear and appear[0]["args"]["car"] == 1
    assert events.index(appear[0]) < [e["type"] for e in events].index("round_over")


def test_time_machine_traveller_reappearing_in_the_marshals_car_goes_up():
    state = tm_table(players=3, cars=3, marshal=2, at={0: MACHINE, 1: (1, ROOF), 2: (3, INSIDE)})
    state, _ = travel(state)
    state, _ = act(state, 0, type="hide", car=2)
    state = clone(state)
    state["marshal"] = 2
    state["pile"] = [[1, "floor", False, 0]]
    state["queue"] = []
    state["turn"] = 99
    state["round_deck"] = list(state["round_deck"])
    state["round_deck"][state["round"]] = "Tunnels"
    flow.advance(state, [])
    assert state["car"][0] == 2 and state["level"][0] == ROOF and state["received"][0] == 1


def test_time_machine_two_bandits_in_it_do_not_travel():
    state = tm_table(players=3, cars=3, at={0: MACHINE, 1: MACHINE, 2: (3, INSIDE)})
    state, _ = run_events(state)
    assert state["phase"] == "schemin" and where(state, 0) == MACHINE


def test_time_machine_hide_must_name_a_car_of_the_train():
    state = tm_table(players=3, cars=3, at={0: MACHINE, 1: (1, ROOF), 2: (3, INSIDE)})
    state, _ = travel(state)
    with pytest.raises(IllegalAction):
        act(state, 0, type="hide", car=-1)
    with pytest.raises(IllegalAction):
        act(state, 0, type="hide", car=4)


def test_time_machine_end_of_game_lone_bandit_gets_500_and_its_loot():
    state = tm_table(
        players=3,
        cars=3,
        round_index=4,
        round_card="Tunnels",
        at={0: MACHINE, 1: (1, ROOF), 2: (3, INSIDE)},
        floor={MACHINE: ["jewel", "purse:300"]},
    )
    state, events = run_events(state)
    assert ENGINE.is_over(state) and state["tm_bonus"] == [500, 0, 0]
    assert sorted(state["loot"][0]) == ["jewel", "purse:300"]
    breakdown = ENGINE.result(state)["breakdown"][0]
    assert breakdown["time_machine_bonus"] == 500 and breakdown["total"] == 1300


def test_time_machine_end_of_game_two_bandits_get_nothing():
    state = tm_table(
        players=3,
        cars=3,
        round_index=4,
        round_card="Tunnels",
        at={0: MACHINE, 1: MACHINE, 2: (3, INSIDE)},
        floor={MACHINE: ["jewel"]},
    )
    state, _ = run_events(state)
    assert state["tm_bonus"] == [0, 0, 0] and state["tm_loot"] == ["jewel"]


def test_time_machine_bonus_counts_after_the_last_event():
    state = tm_table(
        players=3,
        cars=3,
        round_index=4,
        round_card="Braking",
        at={0: (0, ROOF), 1: (2, ROOF), 2: (3, INSIDE)},
    )
    state, _ = run_events(state)
    assert state["tm_bonus"] == [500, 0, 0]


def test_time_machine_is_not_a_roof_for_swivel_arm():
    state = tm_table(
        players=3, cars=3, round_card="Swivel Arm", at={0: MACHINE, 1: MACHINE, 2: (1, ROOF)}
    )
    state, _ = run_events(state)
    assert where(state, 0) == MACHINE and where(state, 2) == (3, ROOF)


def test_time_machine_is_not_inside_the_train_for_the_passengers_rebellion():
    state = tm_table(
        players=3,
        cars=3,
        round_card="Passengers' Rebellion",
        at={0: MACHINE, 1: MACHINE, 2: (1, INSIDE)},
    )
    state, _ = run_events(state)
    assert state["received"] == [0, 0, 1]


def test_time_machine_is_not_the_locomotive_for_hostage_taking():
    state = tm_table(
        players=3,
        cars=3,
        round_card="Hostage-Taking of the Conductor",
        round_index=4,
        at={0: MACHINE, 1: MACHINE, 2: (0, ROOF)},
    )
    state, _ = run_events(state)
    assert state["loot"] == [[], [], ["purse:250"]]
