"""The engine contract for Colt Express: apply's validation and purity, timeouts, views,
events' privacy, JSON, results, bots."""

from __future__ import annotations

import json
import random

import pytest
from colt_positions import INSIDE, ROOF, act, resolve, table

from games.engines import IllegalAction
from games.engines.colt.engine import ENGINE
from games.engines.colt.state import clone


def fresh(players=3, **config):
    base = ENGINE.default_config()
    base.update(config)
    return ENGINE.setup(
        base,
        players,
        seed=99,
        first_player=0,
        identities=["Belle", "Tuco", "Doc", "Ghost", "Django", "Cheyenne"][:players],
    )


@pytest.mark.parametrize(
    "action",
    [
        None,
        "draw",
        [],
        {},
        {"type": 3},
        {"type": "fly"},
        {"type": "draw", "extra": 1},
        {"type": "play"},
        {"type": "play", "card": "joker", "face_down": False},
        {"type": "play", "card": "move", "face_down": "no"},
        {"type": "move", "to": {"car": 1, "level": INSIDE}},
    ],
)
def test_apply_rejects_malformed_actions_and_changes_nothing(action):
    state = fresh()
    snapshot = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, action)
    assert json.dumps(state, sort_keys=True) == snapshot


@pytest.mark.parametrize("seat", [1, 3, -1, "0", None, True])
def test_apply_rejects_a_seat_that_is_not_to_move(seat):
    state = fresh()
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, seat, {"type": "draw"})


def test_apply_never_mutates_its_input_state():
    state = fresh()
    snapshot = json.dumps(state, sort_keys=True)
    new_state, events = ENGINE.apply(state, 0, {"type": "draw", "label": "whatever"})
    assert json.dumps(state, sort_keys=True) == snapshot
    assert new_state != state and events


def test_apply_after_the_game_is_over_is_refused():
    state = table(round_index=4, at={0: (1, ROOF), 1: (2, ROOF), 2: (2, INSIDE)})
    state, _ = resolve(state, [])
    assert ENGINE.is_over(state) and ENGINE.legal_actions(state, 0) == []
    with pytest.raises(IllegalAction, match="over"):
        ENGINE.apply(state, 0, {"type": "draw"})


def test_every_legal_action_has_a_label_and_is_json():
    state = fresh(players=4)
    for action in ENGINE.legal_actions(state, 0):
        assert isinstance(action["label"], str) and action["label"]
        assert json.loads(json.dumps(action)) == action
    assert ENGINE.legal_actions(state, 1) == []


def test_timeout_in_schemin_draws_three():
    state = fresh()
    assert ENGINE.timeout_action(state, 0)["type"] == "draw"


def test_timeout_in_schemin_with_an_empty_deck_plays_the_first_playable_card():
    state = clone(fresh())
    state["deck"][0] = []
    state["hand"][0] = ["bullet:1", "rob", "fire"]
    action = ENGINE.timeout_action(state, 0)
    assert action["type"] == "play" and action["card"] == "fire"


def test_timeout_in_stealin_takes_the_first_option_in_the_documented_order():
    state = table(cars=3, at={0: (2, INSIDE), 1: (2, ROOF), 2: (2, ROOF)})
    state, _ = resolve(state, [(0, "move")])
    assert ENGINE.timeout_action(state, 0)["to"] == {"car": 1, "level": INSIDE}
    with pytest.raises(IllegalAction):
        ENGINE.timeout_action(state, 1)


def test_view_draws_the_whole_table_without_secrets():
    state = fresh(players=4, time_machine=True)
    view = ENGINE.view(state, 2)
    assert "seed" not in json.dumps(view)
    assert [car["name"] for car in view["train"]][0] == "Locomotive"
    assert view["train"][0]["inside"]["loot"]["strongbox"] == 1 and view["train"][0]["marshal"]
    assert view["time_machine"] == {"loot": {"purse": 0, "jewel": 0, "strongbox": 0}, "bandits": []}
    assert view["hand"] == state["hand"][2]
    assert view["round_card"]["name"] == state["round_deck"][0]
    assert view["round_card"]["turn_index"] == 0 and view["round_cards_left"] == 4
    assert view["bandits"][2]["purse_values"] == [250]
    assert "purse_values" not in view["bandits"][1]
    caboose = view["train"][-1]
    assert 0 in caboose["inside"]["bandits"] and caboose["is_caboose"]
    assert view["phase"] == "schemin" and view["to_move"] == [0] and view["first_player"] == 0
    assert ENGINE.view(state, None)["hand"] is None


def test_view_pile_shows_face_down_cards_as_backs_to_others():
    state = clone(fresh())
    state["pile"] = [[0, "rob", True, 1], [1, "fire", False, 0]]
    own, other = ENGINE.view(state, 0)["pile"], ENGINE.view(state, 1)["pile"]
    assert own[0]["card"] == "rob" and other[0]["card"] is None
    assert other[0]["seat"] == 0 and other[0]["face_down"] is True
    assert other[1]["card"] == "fire"


def test_events_cards_drawn_are_private_to_the_drawer():
    state = fresh()
    _state, events = ENGINE.apply(state, 0, {"type": "draw"})
    for event in events:
        assert isinstance(event["text"], str) and isinstance(event["args"], dict)
        if "drawn" in event["args"]:
            assert event["private_to"] == [0]
        assert event["text"] % event["args"]


def test_result_is_refused_before_the_end():
    with pytest.raises(IllegalAction):
        ENGINE.result(fresh())


def test_json_round_trip_is_exact():
    state = fresh(players=5, time_machine=True)
    data = json.loads(json.dumps(ENGINE.to_json(state)))
    assert ENGINE.from_json(data) == state


def test_from_json_rejects_something_else():
    with pytest.raises(ValueError):
        ENGINE.from_json({"game": "napad"})
    with pytest.raises(ValueError):
        ENGINE.from_json({**fresh(), "version": 999})


def test_a_stored_state_is_checked_not_copied():
    data = json.loads(json.dumps(ENGINE.to_json(fresh())))
    assert ENGINE.from_stored(data) is data
    with pytest.raises(ValueError):
        ENGINE.from_stored({"game": "napad"})
    with pytest.raises(ValueError):
        ENGINE.from_stored({**data, "version": 999})
    seat = ENGINE.to_move(data)[0]
    state, _events = ENGINE.apply(data, seat, ENGINE.legal_actions(data, seat)[0])
    assert ENGINE.to_stored(state) is state
    assert json.loads(json.dumps(state)) == ENGINE.to_json(state) == state


@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_bots_always_answer_a_legal_action(bot):
    for seed in range(3):
        state = ENGINE.setup(ENGINE.default_config(), 4, seed=seed)
        rng = random.Random(seed)
        while not ENGINE.is_over(state):
            seat = ENGINE.to_move(state)[0]
            action = ENGINE.bots[bot](ENGINE, state, seat, rng)
            assert action in ENGINE.legal_actions(state, seat)
            state, _ = ENGINE.apply(state, seat, action)
        assert len(ENGINE.result(state)["ranking"]) == 4


def test_heuristic_bot_robs_when_it_can():
    state = table(
        cars=2,
        at={0: (1, INSIDE), 1: (2, ROOF), 2: (2, ROOF)},
        floor={(1, INSIDE): ["purse:300", "jewel"]},
    )
    state, _ = resolve(state, [(0, "rob")])
    action = ENGINE.bots["heuristic"](ENGINE, state, 0, random.Random(1))
    assert action["loot"] == "jewel"
    state, _ = act(state, 0, **action)
