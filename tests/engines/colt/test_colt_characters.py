"""The six characters' powers (spec §Characters). Doc and Ghost's Schemin' powers are also in
test_colt_schemin.py."""

from __future__ import annotations

from colt_positions import INSIDE, ROOF, act, choice_types, resolve, table, where

from games.engines.colt.engine import ENGINE


def test_belle_cannot_be_shot_if_another_bandit_could_be():
    state = table(
        characters=["Doc", "Belle", "Ghost"],
        cars=3,
        at={0: (2, INSIDE), 1: (1, INSIDE), 2: (3, INSIDE)},
    )
    state, _ = resolve(state, [(0, "fire")])
    assert state["received"] == [0, 0, 1]


def test_belle_can_be_shot_when_she_is_the_only_target():
    state = table(
        characters=["Doc", "Belle", "Ghost"],
        cars=3,
        at={0: (2, INSIDE), 1: (1, INSIDE), 2: (2, ROOF)},
    )
    state, _ = resolve(state, [(0, "fire")])
    assert state["received"] == [0, 1, 0]


def test_belle_still_blocks_the_line_of_sight_on_the_roofs():
    state = table(
        characters=["Doc", "Belle", "Ghost"],
        cars=4,
        at={0: (4, ROOF), 1: (3, ROOF), 2: (1, ROOF)},
    )
    state, _ = resolve(state, [(0, "fire")])
    assert state["received"] == [0, 1, 0]


def test_belle_cannot_be_punched_if_another_bandit_could_be():
    state = table(
        characters=["Doc", "Belle", "Ghost"],
        cars=3,
        at={0: (2, ROOF), 1: (2, ROOF), 2: (2, ROOF)},
    )
    state, _ = resolve(state, [(0, "punch")])
    assert {a["victim"] for a in choice_types(state, 0)} == {2}


def test_cheyenne_may_take_the_purse_her_victim_drops():
    state = table(
        characters=["Cheyenne", "Doc", "Ghost"],
        cars=3,
        at={0: (2, ROOF), 1: (2, ROOF), 2: (3, INSIDE)},
        loot={1: ["purse:450"]},
    )
    state, _ = resolve(state, [(0, "punch")])
    options = choice_types(state, 0)
    assert {
        "type": "punch",
        "victim": 1,
        "loot": "purse",
        "direction": "caboose",
        "take": True,
    } in (options)
    state, events = act(
        state, 0, type="punch", victim=1, loot="purse", direction="caboose", take=True
    )
    assert state["loot"][0] == ["purse:450"] and state["roof"][2] == []
    assert where(state, 1) == (3, ROOF)


def test_cheyenne_may_leave_the_dropped_purse_on_the_floor():
    state = table(
        characters=["Cheyenne", "Doc", "Ghost"],
        cars=3,
        at={0: (2, ROOF), 1: (2, ROOF), 2: (3, INSIDE)},
        loot={1: ["purse:450"]},
    )
    state, _ = resolve(state, [(0, "punch")])
    state, _ = act(state, 0, type="punch", victim=1, loot="purse", direction="caboose", take=False)
    assert state["loot"][0] == [] and state["roof"][2] == ["purse:450"]


def test_other_characters_never_take_the_dropped_purse():
    state = table(
        characters=["Doc", "Ghost", "Tuco"],
        cars=3,
        at={0: (2, ROOF), 1: (2, ROOF), 2: (3, INSIDE)},
        loot={1: ["purse:450"]},
    )
    state, _ = resolve(state, [(0, "punch")])
    assert all("take" not in option for option in choice_types(state, 0))


def test_django_pushes_the_bandit_he_shoots_one_car_away_from_him():
    state = table(
        characters=["Django", "Doc", "Ghost"],
        cars=4,
        at={0: (1, ROOF), 1: (3, ROOF), 2: (4, INSIDE)},
    )
    state, events = resolve(state, [(0, "fire")])
    assert where(state, 1) == (4, ROOF) and state["received"][1] == 1


def test_django_push_inside_into_the_marshals_car_applies_the_marshal_rule():
    state = table(
        characters=["Django", "Doc", "Ghost"],
        cars=4,
        at={0: (4, INSIDE), 1: (3, INSIDE), 2: (4, ROOF)},
        marshal=2,
    )
    state, _ = resolve(state, [(0, "fire")])
    assert where(state, 1) == (2, ROOF) and state["received"][1] == 2


def test_django_never_pushes_a_bandit_off_the_train():
    state = table(
        characters=["Django", "Doc", "Ghost"],
        cars=3,
        at={0: (2, ROOF), 1: (3, ROOF), 2: (3, INSIDE)},
    )
    state, _ = resolve(state, [(0, "fire")])
    assert where(state, 1) == (3, ROOF) and state["received"][1] == 1


def test_doc_draws_seven_cards_each_round():
    state = ENGINE.setup(
        ENGINE.default_config(), 2, seed=3, identities=["Doc", "Tuco"], first_player=0
    )
    assert [len(hand) for hand in state["hand"]] == [7, 6]


def test_tuco_may_shoot_through_the_roof_of_his_own_car():
    state = table(
        characters=["Tuco", "Doc", "Ghost"],
        cars=3,
        at={0: (2, INSIDE), 1: (2, ROOF), 2: (3, ROOF)},
        marshal=0,
    )
    state, _ = resolve(state, [(0, "fire")])
    assert state["received"] == [0, 1, 0]


def test_tuco_on_the_roof_may_shoot_down_into_his_car():
    state = table(
        characters=["Tuco", "Doc", "Ghost"],
        cars=3,
        at={0: (2, ROOF), 1: (2, INSIDE), 2: (3, ROOF)},
    )
    state, _ = resolve(state, [(0, "fire")])
    assert [a["target"] for a in choice_types(state, 0)] == [1, 2]


def test_others_cannot_shoot_through_the_roof():
    state = table(
        characters=["Doc", "Ghost", "Belle"],
        cars=3,
        at={0: (2, INSIDE), 1: (2, ROOF), 2: (3, ROOF)},
    )
    state, events = resolve(state, [(0, "fire")])
    assert state["received"] == [0, 0, 0]
