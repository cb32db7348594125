"""Schemin': dealing, turn types and order, drawing, Ghost, bullets, leftovers (spec §A round)."""

from __future__ import annotations

import pytest
from colt_positions import act, types

from games.engines import IllegalAction
from games.engines.colt.data import ROUND_CARDS, STATION_CARDS, round_turns
from games.engines.colt.engine import ENGINE
from games.engines.colt.state import clone


def schemin(players=3, card="Tunnels", characters=None, first_player=0):
    """A fresh game whose first round card is ``card``, Schemin' about to start."""
    characters = characters or ["Belle", "Tuco", "Cheyenne", "Django", "Doc", "Ghost"][:players]
    state = ENGINE.setup(
        ENGINE.default_config(),
        players,
        seed=21,
        first_player=first_player,
        identities=characters,
    )
    state = clone(state)
    state["round"] = -1
    state["round_deck"] = [card, *state["round_deck"][1:]]
    state["deck"] = [state["deck"][s] + state["hand"][s] for s in range(players)]
    state["hand"] = [[] for _ in range(players)]
    from games.engines.colt import flow

    state["phase"] = "setup"
    flow.advance(state, [])
    return state


def play_first(state, seat):
    """Play the first playable card of the hand (never the Ghost's face-down variant)."""
    for action in ENGINE.legal_actions(state, seat):
        if action["type"] == "play" and action["face_down"] == _face_down_now(state):
            return ENGINE.apply(state, seat, action)
    raise AssertionError("nothing to play")


def _face_down_now(state):
    turns = round_turns(state["round_deck"][state["round"]], state["players"])
    return state["config"]["turn_face_down"][turns[state["turn"]]]


def test_schemin_normal_turn_is_played_face_up():
    state = schemin(card="Tunnels")  # N T N T N
    state, events = play_first(state, 0)
    seat, card, face_down, turn = state["pile"][0]
    assert (seat, face_down, turn) == (0, False, 0)
    assert [e for e in events if e["type"] == "card_played"][0]["args"]["card"] == card


def test_schemin_tunnel_turn_is_played_face_down_without_telling_the_kind():
    state = schemin(card="Tunnels")
    for seat in (0, 1, 2):
        state, _ = play_first(state, seat)
    state, events = play_first(state, 0)
    assert state["pile"][-1][2] is True
    public = [e for e in events if e["type"] == "card_played"][0]
    assert "card" not in public["args"] and public["args"]["face_down"] is True
    secret = [e for e in events if e["type"] == "card_played_secret"][0]
    assert secret["private_to"] == [0] and secret["args"]["card"] == state["pile"][-1][1]


def test_schemin_speeding_up_gives_two_turns_in_a_row():
    state = schemin(card="Speed-up")  # N S N
    order = []
    for _ in range(3):
        order.append(ENGINE.to_move(state)[0])
        state, _ = play_first(state, order[-1])
    assert order == [0, 1, 2]
    for _ in range(6):
        order.append(ENGINE.to_move(state)[0])
        state, _ = play_first(state, order[-1])
    assert order[3:] == [0, 0, 1, 1, 2, 2]


def test_schemin_switching_goes_counter_clockwise_from_the_first_player():
    state = schemin(players=4, card="Angry Marshal", first_player=1)  # N N T R
    order = []
    while state["phase"] == "schemin":
        order.append(ENGINE.to_move(state)[0])
        state, _ = play_first(state, order[-1])
    assert order == [1, 2, 3, 0] * 3 + [1, 0, 3, 2]


@pytest.mark.parametrize(
    "card,players,expected",
    [(card, 4, small) for card, (small, _large) in ROUND_CARDS.items()]
    + [(card, 5, large) for card, (_small, large) in ROUND_CARDS.items()]
    + [(card, 4, "NNTN") for card in STATION_CARDS]
    + [(card, 6, "NNTN") for card in STATION_CARDS],
)
def test_round_card_turn_sequence(card, players, expected):
    state = schemin(players=players, card=card)
    assert ENGINE.view(state, 0)["round_card"]["turns"] == list(expected)
    plays = 0
    while state["phase"] == "schemin":
        state, _ = play_first(state, ENGINE.to_move(state)[0])
        plays += 1
    per_player = sum(2 if turn == "S" else 1 for turn in expected)
    assert plays == per_player * players


def test_schemin_draw_takes_three_cards_from_the_deck():
    state = schemin()
    state, events = act(state, 0, type="draw")
    assert len(state["hand"][0]) == 9 and len(state["deck"][0]) == 1
    drawn = [e for e in events if e["type"] == "cards_drawn"][0]
    assert drawn["private_to"] == [0] and len(drawn["args"]["drawn"]) == 3
    public = [e for e in events if e["type"] == "draw"][0]
    assert "private_to" not in public and "drawn" not in public["args"]


def test_schemin_draw_takes_fewer_when_fewer_remain_and_none_from_an_empty_deck():
    state = schemin()
    state = clone(state)
    state["deck"][0] = state["deck"][0][:2]
    state, _ = act(state, 0, type="draw")
    assert len(state["deck"][0]) == 0 and len(state["hand"][0]) == 8
    state = clone(state)
    state["queue"] = [0] + state["queue"]
    with pytest.raises(IllegalAction, match="deck is empty"):
        act(state, 0, type="draw")


def test_schemin_bullets_are_unplayable():
    state = clone(schemin())
    state["hand"][0] = ["bullet:1", "bullet:neutral", "move"]
    kinds = {a.get("card") for a in ENGINE.legal_actions(state, 0)}
    assert kinds == {None, "move"}
    with pytest.raises(IllegalAction, match="Bullet"):
        act(state, 0, type="play", card="bullet:1", face_down=False)


def test_schemin_only_bullets_in_hand_forces_the_draw_automatically():
    state = clone(schemin(players=3))
    state["hand"][1] = ["bullet:0", "bullet:2"]
    state, events = play_first(state, 0)
    assert ENGINE.to_move(state) == [2]
    assert len(state["hand"][1]) == 5 and "draw" in types(events)


def test_ghost_may_play_his_first_card_face_down_in_a_normal_turn():
    state = schemin(players=3, characters=["Ghost", "Belle", "Tuco"])
    actions = ENGINE.legal_actions(state, 0)
    assert any(a["type"] == "play" and a["face_down"] for a in actions)
    card = state["hand"][0][0] if state["hand"][0][0][0] != "b" else "move"
    state = clone(state)
    state["hand"][0] = [card, "rob", "fire"]
    state, _ = act(state, 0, type="play", card=card, face_down=True)
    assert state["pile"][0][2] is True
    view = ENGINE.view(state, 1)
    assert view["pile"][0]["card"] is None


def test_ghost_face_down_only_on_his_first_turn():
    # Braking's turns are all ordinary (NNNN): Ghost's second turn is an ordinary one.
    state = schemin(players=3, card="Braking", characters=["Ghost", "Belle", "Tuco"])
    assert any(a.get("face_down") for a in ENGINE.legal_actions(state, 0))
    state, _ = play_first(state, 0)
    state, _ = play_first(state, 1)
    state, _ = play_first(state, 2)
    second_turn = ENGINE.legal_actions(state, 0)
    assert [a for a in second_turn if a["type"] == "play"]
    assert not any(a.get("face_down") for a in second_turn)
    with pytest.raises(IllegalAction):
        card = next(a["card"] for a in second_turn if a["type"] == "play")
        act(state, 0, type="play", card=card, face_down=True)


def test_ghost_face_down_is_not_offered_again_after_a_tunnel_turn():
    state = schemin(players=3, characters=["Ghost", "Belle", "Tuco"])
    state, _ = play_first(state, 0)
    state, _ = play_first(state, 1)
    state, _ = play_first(state, 2)
    state, _ = play_first(state, 0)  # tunnel: face down anyway
    state, _ = play_first(state, 1)
    state, _ = play_first(state, 2)
    assert not any(a.get("face_down") for a in ENGINE.legal_actions(state, 0))


def test_ghost_loses_the_face_down_play_if_he_drew_first():
    state = schemin(players=3, characters=["Ghost", "Belle", "Tuco"])
    state, _ = act(state, 0, type="draw")
    state, _ = play_first(state, 1)
    state, _ = play_first(state, 2)
    state, _ = play_first(state, 0)  # turn 2 of Tunnels is a tunnel
    state, _ = play_first(state, 1)
    state, _ = play_first(state, 2)
    assert not any(a.get("face_down") for a in ENGINE.legal_actions(state, 0))


def test_schemin_other_characters_cannot_play_face_down_in_a_normal_turn():
    state = schemin(players=3, characters=["Belle", "Ghost", "Tuco"])
    with pytest.raises(IllegalAction, match="face up"):
        act(state, 0, type="play", card=state["hand"][0][0], face_down=True)


def test_schemin_unplayed_cards_go_back_on_top_of_the_deck():
    state = schemin(players=3, card="Speed-up")
    kept = None
    while state["phase"] == "schemin":
        seat = ENGINE.to_move(state)[0]
        before = list(state["hand"][0])
        state, _ = play_first(state, seat)
        if seat == 0:
            kept = before
    # Ghost of nothing: seat 0 played its last card from ``kept``; the rest went back on top.
    played = [card for owner, card, _d, _t in state["pile"] if owner == 0]
    assert state["hand"][0] == []
    leftover = list(kept)
    leftover.remove(played[-1])
    assert state["deck"][0][-len(leftover) :] == leftover


def test_schemin_round_start_shuffles_every_card_and_deals_again():
    state = schemin(players=3, card="Speed-up")
    while state["phase"] == "schemin":
        state, _ = play_first(state, ENGINE.to_move(state)[0])
    # Stealin' may wait on choices; let the timeout play them.
    while state["round"] == 0:
        seat = ENGINE.to_move(state)[0]
        state, _ = ENGINE.apply(state, seat, ENGINE.timeout_action(state, seat))
    assert state["phase"] == "schemin" and state["round"] == 1
    for seat in range(3):
        assert len(state["hand"][seat]) == 6
        assert len(state["hand"][seat]) + len(state["deck"][seat]) == 10 + state["received"][seat]


def test_schemin_face_up_or_down_per_turn_type_is_ruleset_data():
    config = ENGINE.default_config()
    config["turn_face_down"] = {"N": True, "T": False, "S": False, "R": False}  # the guide's
    state = ENGINE.setup(config, 3, seed=5, first_player=0, identities=["Belle", "Tuco", "Doc"])
    state, _ = play_first(state, 0)
    assert state["pile"][0][2] is True
