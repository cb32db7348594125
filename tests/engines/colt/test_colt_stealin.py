"""Stealin': each action card, choices at resolution, forced choices, the marshal rule and the
neutral bullets (spec §A round, Stealin')."""

from __future__ import annotations

import pytest
from colt_positions import INSIDE, ROOF, act, choice_types, resolve, table, types, where

from games.engines import IllegalAction
from games.engines.colt import flow
from games.engines.colt.engine import ENGINE


def test_stealin_resolves_in_play_order():
    state = table(cars=3, at={0: (3, INSIDE), 1: (1, INSIDE), 2: (1, ROOF)})
    state, events = resolve(state, [(1, "floor"), (0, "floor"), (1, "floor")])
    resolved = [e["args"]["seat"] for e in events if e["type"] == "card_resolved"]
    assert resolved == [1, 0, 1]
    assert where(state, 1) == (1, INSIDE) and where(state, 0) == (3, ROOF)


def test_stealin_face_down_cards_are_revealed_as_they_resolve():
    state = table(cars=2, at={0: (2, INSIDE), 1: (1, INSIDE), 2: (1, INSIDE)})
    state["pile"] = [[0, "floor", True, 0]]
    state["phase"] = "stealin"
    from games.engines.colt import flow

    events = []
    flow.advance(state, events)
    revealed = [e for e in events if e["type"] == "card_resolved"][0]
    assert revealed["args"]["card"] == "floor" and revealed["args"]["revealed"] is True


def test_move_inside_goes_to_an_adjacent_car_chosen_when_it_resolves():
    state = table(cars=3, at={0: (2, INSIDE), 1: (3, ROOF), 2: (3, ROOF)})
    state, _ = resolve(state, [(0, "move")])
    assert ENGINE.to_move(state) == [0]
    assert state["pending"] == {"seat": 0, "kind": "move", "card": 0}
    assert choice_types(state, 0) == [
        {"type": "move", "to": {"car": 1, "level": INSIDE}},
        {"type": "move", "to": {"car": 3, "level": INSIDE}},
    ]
    state, events = act(state, 0, type="move", to={"car": 3, "level": INSIDE})
    assert where(state, 0) == (3, INSIDE) and "move" in types(events)


def test_move_on_the_roof_goes_one_to_three_cars_either_way():
    state = table(players=2, cars=6, at={0: (3, ROOF), 1: (6, INSIDE)}, marshal=0)
    state, _ = resolve(state, [(0, "move")])
    destinations = [a["to"]["car"] for a in choice_types(state, 0)]
    assert sorted(destinations) == [0, 1, 2, 4, 5, 6]
    state, _ = act(state, 0, type="move", to={"car": 6, "level": ROOF})
    assert where(state, 0) == (6, ROOF)


def test_move_single_destination_is_applied_automatically():
    state = table(players=2, cars=2, at={0: (0, INSIDE), 1: (2, INSIDE)}, marshal=2)
    state["marshal"] = 2
    state, events = resolve(state, [(0, "move")])
    assert state["pending"] is None
    assert where(state, 0) == (1, INSIDE)


def test_floor_change_goes_between_inside_and_roof():
    state = table(cars=2, at={0: (2, INSIDE), 1: (1, ROOF), 2: (1, ROOF)})
    state, _ = resolve(state, [(0, "floor"), (1, "floor")])
    assert where(state, 0) == (2, ROOF) and where(state, 1) == (1, INSIDE)


def test_fire_inside_hits_a_bandit_inside_an_adjacent_car():
    state = table(cars=3, at={0: (2, INSIDE), 1: (1, INSIDE), 2: (2, ROOF)})
    state, events = resolve(state, [(0, "fire")])
    assert state["bullets"][0] == 5 and state["received"][1] == 1
    assert "bullet:0" in state["deck"][1] + state["hand"][1]


def test_fire_inside_cannot_hit_the_same_car_or_two_cars_away():
    # Bob inside the shooter's own car, Carla inside a car two away: neither is in line.
    state = table(cars=4, at={0: (2, INSIDE), 1: (2, INSIDE), 2: (4, INSIDE)}, marshal=0)
    state, events = resolve(state, [(0, "fire")])
    assert "nothing_happens" in types(events)
    assert state["bullets"][0] == 6 and state["received"] == [0, 0, 0]


def test_fire_inside_never_hits_a_bandit_in_the_shooters_own_car():
    # The only other bandit inside is in the shooter's car; one more is next door, on the
    # roof: the shot can only go into an adjacent car, so it hits nobody.
    state = table(cars=3, at={0: (2, INSIDE), 1: (2, INSIDE), 2: (3, ROOF)}, marshal=0)
    state, events = resolve(state, [(0, "fire")])
    assert "nothing_happens" in types(events)
    assert state["received"] == [0, 0, 0]
    # With a bandit inside the next car as well, that one is the only target.
    state = table(cars=3, at={0: (2, INSIDE), 1: (2, INSIDE), 2: (3, INSIDE)}, marshal=0)
    state, events = resolve(state, [(0, "fire")])
    assert state["received"] == [0, 0, 1]


def test_fire_on_the_roof_hits_the_nearest_occupied_roof_either_way():
    state = table(
        players=4,
        cars=5,
        at={0: (3, ROOF), 1: (1, ROOF), 2: (5, ROOF), 3: (0, ROOF)},
        characters=["Doc", "Ghost", "Cheyenne", "Belle"],
    )
    state, _ = resolve(state, [(0, "fire")])
    assert [a["target"] for a in choice_types(state, 0)] == [1, 2]
    state, _ = act(state, 0, type="fire", target=2)
    assert state["received"] == [0, 0, 1, 0]


def test_fire_on_the_roof_line_of_sight_ignores_own_roof_and_lets_you_choose_on_a_roof():
    state = table(
        players=4,
        cars=4,
        at={0: (1, ROOF), 1: (1, ROOF), 2: (3, ROOF), 3: (3, ROOF)},
        characters=["Doc", "Ghost", "Cheyenne", "Django"],
    )
    state, _ = resolve(state, [(0, "fire")])
    assert [a["target"] for a in choice_types(state, 0)] == [2, 3]


def test_fire_without_bullets_does_nothing():
    state = table(cars=3, at={0: (2, INSIDE), 1: (1, INSIDE), 2: (3, INSIDE)})
    state["bullets"][0] = 0
    state, events = resolve(state, [(0, "fire")])
    assert "nothing_happens" in types(events) and state["received"] == [0, 0, 0]


def test_rob_takes_the_chosen_kind_from_the_spot():
    state = table(
        cars=2,
        at={0: (1, INSIDE), 1: (2, ROOF), 2: (2, ROOF)},
        floor={(1, INSIDE): ["purse:300", "jewel"], (1, ROOF): ["strongbox"]},
    )
    state, _ = resolve(state, [(0, "rob")])
    assert choice_types(state, 0) == [
        {"type": "rob", "loot": "jewel"},
        {"type": "rob", "loot": "purse"},
    ]
    state, events = act(state, 0, type="rob", loot="jewel")
    assert state["loot"][0] == ["jewel"] and state["inside"][1] == ["purse:300"]
    assert state["roof"][1] == ["strongbox"]


def test_rob_a_purse_is_taken_blind_and_its_value_told_only_to_the_robber():
    state = table(
        cars=2,
        at={0: (1, INSIDE), 1: (2, ROOF), 2: (2, ROOF)},
        floor={(1, INSIDE): ["purse:300", "purse:450"]},
    )
    state, events = resolve(state, [(0, "rob")])
    assert len(state["loot"][0]) == 1 and state["loot"][0][0] in ("purse:300", "purse:450")
    public = [e for e in events if e["type"] == "rob"][0]
    assert "value" not in public["args"] and "private_to" not in public
    secret = [e for e in events if e["type"] == "purse_value"][0]
    assert secret["private_to"] == [0]


def test_rob_with_nothing_at_the_spot_does_nothing():
    state = table(
        cars=2, at={0: (1, ROOF), 1: (2, ROOF), 2: (2, ROOF)}, floor={(1, INSIDE): ["jewel"]}
    )
    state, events = resolve(state, [(0, "rob")])
    assert "nothing_happens" in types(events) and state["loot"][0] == []


def test_punch_victim_drops_chosen_loot_and_is_moved_in_the_chosen_direction():
    state = table(
        cars=3,
        at={0: (2, ROOF), 1: (2, ROOF), 2: (3, INSIDE)},
        loot={1: ["purse:250", "jewel"]},
    )
    state, _ = resolve(state, [(0, "punch")])
    assert {"type": "punch", "victim": 1, "loot": "jewel", "direction": "caboose"} in (
        choice_types(state, 0)
    )
    state, events = act(state, 0, type="punch", victim=1, loot="jewel", direction="locomotive")
    assert where(state, 1) == (1, ROOF)
    assert state["roof"][2] == ["jewel"] and state["loot"][1] == ["purse:250"]


def test_punch_forced_when_one_victim_without_loot_at_the_caboose():
    state = table(cars=2, at={0: (1, ROOF), 1: (1, ROOF), 2: (2, INSIDE)}, marshal=0)
    state["car"][0] = state["car"][1] = 2
    state, events = resolve(state, [(0, "punch")])
    assert state["pending"] is None and where(state, 1) == (1, ROOF)


def test_punch_with_nobody_in_the_spot_does_nothing():
    state = table(cars=2, at={0: (1, ROOF), 1: (1, INSIDE), 2: (2, INSIDE)})
    state, events = resolve(state, [(0, "punch")])
    assert "nothing_happens" in types(events)


def test_marshal_card_moves_the_marshal_one_car_either_way():
    state = table(cars=3, at={0: (3, INSIDE), 1: (3, ROOF), 2: (3, ROOF)}, marshal=1)
    state, _ = resolve(state, [(0, "marshal")])
    assert choice_types(state, 0) == [
        {"type": "marshal", "direction": "locomotive"},
        {"type": "marshal", "direction": "caboose"},
    ]
    state, events = act(state, 0, type="marshal", direction="caboose")
    assert state["marshal"] == 2 and "marshal_moved" in types(events)


def test_marshal_rule_bandits_inside_the_car_he_enters_take_bullets_and_go_up():
    state = table(cars=3, at={0: (3, INSIDE), 1: (1, INSIDE), 2: (1, INSIDE)}, marshal=0)
    state, _ = resolve(state, [(0, "marshal")])  # from the locomotive: only toward the caboose
    assert state["marshal"] == 1
    assert where(state, 1) == (1, ROOF) and where(state, 2) == (1, ROOF)
    assert state["received"] == [0, 1, 1] and state["neutral"] == 11
    assert "bullet:neutral" in state["deck"][1] + state["hand"][1]


def test_marshal_rule_moving_into_his_car():
    state = table(players=2, cars=2, at={0: (2, INSIDE), 1: (2, ROOF)}, marshal=1)
    state, events = resolve(state, [(0, "move")])
    assert where(state, 0) == (1, ROOF) and state["received"][0] == 1


def test_marshal_rule_climbing_down_into_his_car():
    state = table(players=2, cars=2, at={0: (1, ROOF), 1: (2, ROOF)}, marshal=1)
    state, events = resolve(state, [(0, "floor")])
    assert where(state, 0) == (1, ROOF) and state["received"][0] == 1
    assert "flee_marshal" in types(events)


def test_marshal_rule_punched_into_his_car():
    state = table(cars=2, at={0: (2, INSIDE), 1: (2, INSIDE), 2: (0, ROOF)}, marshal=1)
    state, _ = resolve(state, [(0, "punch")])
    assert where(state, 1) == (1, ROOF) and state["received"][1] == 1


def test_neutral_bullets_run_out_then_none_are_given():
    state = table(players=2, cars=2, at={0: (2, INSIDE), 1: (2, ROOF)}, marshal=1, neutral=0)
    state, events = resolve(state, [(0, "move")])
    assert where(state, 0) == (1, ROOF) and state["received"][0] == 0
    assert "neutral_bullets_out" in types(events)


def test_neutral_bullets_short_for_a_group_none_of_the_group_gets_one():
    state = table(cars=3, at={0: (3, INSIDE), 1: (1, INSIDE), 2: (1, INSIDE)}, marshal=0, neutral=1)
    state, _ = resolve(state, [(0, "marshal")])
    assert state["received"] == [0, 0, 0] and state["neutral"] == 1
    assert where(state, 1) == (1, ROOF) and where(state, 2) == (1, ROOF)


def test_choice_waits_on_the_cards_owner_not_the_turn_order():
    state = table(cars=3, at={0: (2, INSIDE), 1: (2, INSIDE), 2: (2, ROOF)})
    state, _ = resolve(state, [(2, "floor"), (1, "move")])
    assert ENGINE.to_move(state) == [1] and ENGINE.legal_actions(state, 0) == []
    with pytest.raises(IllegalAction, match="not your turn"):
        act(state, 0, type="move", to={"car": 1, "level": INSIDE})
    view = ENGINE.view(state, 0)
    assert view["pending"] == {"seat": 1, "kind": "move", "card": 1}
    assert view["resolving"] == 1 and view["pile"][0]["resolved"] is True
    assert view["pile"][1]["resolved"] is True and view["pile"][1]["card"] == "move"


def test_choice_of_the_wrong_kind_is_refused_and_changes_nothing():
    state = table(cars=3, at={0: (2, INSIDE), 1: (2, ROOF), 2: (2, ROOF)})
    state, _ = resolve(state, [(0, "move")])
    snapshot = ENGINE.to_json(state)
    with pytest.raises(IllegalAction):
        act(state, 0, type="fire", target=1)
    with pytest.raises(IllegalAction):
        act(state, 0, type="move", to={"car": 3, "level": ROOF})
    assert ENGINE.to_json(state) == snapshot


def test_face_down_card_is_shown_to_everyone_once_its_owner_must_choose():
    state = table(cars=3, at={0: (2, INSIDE), 1: (2, ROOF), 2: (2, ROOF)})
    state["pile"] = [[0, "move", True, 1], [1, "rob", True, 1]]
    state["phase"] = "stealin"
    flow.advance(state, [])
    assert state["pending"]["kind"] == "move"
    pile = ENGINE.view(state, 2)["pile"]
    assert pile[0]["card"] == "move" and pile[0]["resolved"] is True
    assert pile[1]["card"] is None and pile[1]["resolved"] is False


def test_move_on_the_roof_is_not_blocked_by_other_bandits():
    state = table(cars=4, at={0: (1, ROOF), 1: (2, ROOF), 2: (3, ROOF)})
    state, _ = resolve(state, [(0, "move")])
    state, _ = act(state, 0, type="move", to={"car": 4, "level": ROOF})
    assert where(state, 0) == (4, ROOF)


def test_fire_gives_the_shooters_bullet_card_and_counts_for_both():
    state = table(cars=3, at={0: (2, ROOF), 1: (3, ROOF), 2: (3, INSIDE)})
    state, events = resolve(state, [(0, "fire"), (0, "fire")])
    assert state["bullets"][0] == 4 and state["received"][1] == 2
    owned = state["deck"][1] + state["hand"][1]
    assert owned.count("bullet:0") == 2
