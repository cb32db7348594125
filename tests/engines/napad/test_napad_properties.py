"""Property tests: random legal playouts keep every invariant, replay exactly, and views never
depend on what their seat cannot see."""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines.base import IllegalAction

PLAYOUTS = settings(max_examples=40, deadline=None)

seeds = st.one_of(st.integers(min_value=0, max_value=2**40), st.text(min_size=1, max_size=12))
tables = st.fixed_dictionaries(
    {
        "seed": seeds,
        "players": st.integers(min_value=2, max_value=4),
        "choices": st.integers(min_value=0, max_value=2**32),
        "variant_a_bullets": st.booleans(),
        "variant_b_twos": st.booleans(),
        "public_captures": st.booleans(),
    }
)


def new_game(engine, table):
    config = engine.default_config()
    for flag in ("variant_a_bullets", "variant_b_twos", "public_captures"):
        config[flag] = table[flag]
    return config, engine.setup(config, table["players"], table["seed"])


def illegal_attempts(engine, state, seat):
    """Actions that must all be refused now: wrong seat, foreign cards, malformed data."""
    players = state["players"]
    hand = state["hands"][seat]
    not_in_hand = [card for card in range(15) if card not in hand]
    attempts = [
        (seat, None),
        (seat, "pass"),
        (seat, ["pass"]),
        (seat, {}),
        (seat, {"type": "steal"}),
        (seat, {"type": "play"}),
        (seat, {"type": "play", "card": 99, "colour": "red"}),
        (seat, {"type": "play", "card": True, "colour": "red"}),
        (seat, {"type": "pass", "card": 1}),
        ((seat + 1) % players, {"type": "pass"}),
        (seat + players, {"type": "pass"}),
        (None, {"type": "pass"}),
        (str(seat), {"type": "pass"}),
    ]
    if not_in_hand:
        attempts.append((seat, {"type": "play", "card": not_in_hand[0], "colour": "yellow"}))
    if hand:
        card = hand[0]
        colours = {half[0] for half in state["decks"][seat][card]}
        wrong = next(c for c in ("yellow", "red", "green") if c not in colours)
        attempts += [
            (seat, {"type": "play", "card": card, "colour": wrong}),
            (seat, {"type": "play", "card": str(card), "colour": sorted(colours)[0]}),
            (seat, {"type": "play", "card": card, "colour": sorted(colours)[0], "x": 1}),
            ((seat + 1) % players, {"type": "play", "card": card, "colour": sorted(colours)[0]}),
        ]
    legal = engine.legal_actions(state, seat)
    if all(action["type"] == "play" for action in legal):
        attempts.append((seat, {"type": "pass"}))
    return attempts


def playout(engine, table, *, check=True):
    """Play a whole game with random legal actions; return the actions and final state."""
    config, state = new_game(engine, table)
    rng = random.Random(table["choices"])
    actions = []
    while True:
        if check:
            check_step(engine, state)
        movers = engine.to_move(state)
        if not movers:
            break
        seat = movers[0]
        action = rng.choice(engine.legal_actions(state, seat))
        state, events = engine.apply(state, seat, action)
        if check:
            assert json.loads(json.dumps(events)) == events
        actions.append((seat, action))
        assert len(actions) < 2000
    return config, actions, state


def check_step(engine, state):
    napad_invariants(engine, state)
    assert engine.from_json(json.loads(json.dumps(engine.to_json(state)))) == state
    snapshot = copy.deepcopy(state)
    if not engine.is_over(state):
        seat = engine.to_move(state)[0]
        for who, action in illegal_attempts(engine, state, seat):
            with pytest.raises(IllegalAction):
                engine.apply(state, who, action)
            assert state == snapshot
        engine.apply(state, seat, engine.legal_actions(state, seat)[0])
        assert state == snapshot, "apply changed its input state"
    for viewer in [None, *range(state["players"])]:
        shown = json.dumps(engine.view(state, viewer))
        assert '"seed"' not in shown


def napad_invariants(engine, state):
    for seat in range(state["players"]):
        cards = (
            state["hands"][seat]
            + state["hideouts"][seat]
            + [card for card, _colour in state["played"][seat]]
            + state["out"][seat]
        )
        assert sorted(cards) == list(range(15)), f"seat {seat} holds {cards}"
    wagons = [w for stack in state["treasury"] for w in stack] + state["train"]
    wagons += [w for loot in state["captured"] for w in loot]
    assert sorted(wagons) == list(range(18))
    if engine.is_over(state):
        assert engine.to_move(state) == []
    else:
        (seat,) = engine.to_move(state)
        assert not state["passed"][seat] and state["hands"][seat]
        assert engine.legal_actions(state, seat)


@PLAYOUTS
@given(table=tables)
def test_random_playouts_keep_every_invariant_and_replay_exactly(engine, table):
    config, actions, final = playout(engine, table)
    assert engine.is_over(final)
    result = engine.result(final)
    assert len(result["scores"]) == table["players"]
    assert sorted(row["seat"] for row in result["ranking"]) == list(range(table["players"]))
    assert result["ranking"][0]["place"] == 1
    assert json.loads(json.dumps(result)) == result
    # Replaying the action list from the seed gives the very same state.
    replayed = engine.setup(config, table["players"], table["seed"])
    for seat, action in actions:
        replayed, _ = engine.apply(replayed, seat, action)
    assert replayed == final


@settings(max_examples=15, deadline=None)
@given(table=tables)
def test_bots_play_whole_games_with_legal_actions(engine, table):
    config, state = new_game(engine, table)
    rngs = [random.Random(f"{table['choices']}-{seat}") for seat in range(table["players"])]
    bots = [engine.bots["heuristic"], engine.bots["random"]]
    while not engine.is_over(state):
        (seat,) = engine.to_move(state)
        action = bots[seat % 2](engine, state, seat, rngs[seat])
        assert action in engine.legal_actions(state, seat)
        state, _ = engine.apply(state, seat, action)
    napad_invariants(engine, state)


def hide_differently(state, viewer, rng):
    """The same table as ``viewer`` sees it, with everything else it cannot see changed."""
    other = copy.deepcopy(state)
    for seat in range(state["players"]):
        if seat != viewer:
            # Other gangs' hands: same size, different cards (swapped with their hideout).
            pool = other["hands"][seat] + other["hideouts"][seat]
            rng.shuffle(pool)
            size = len(other["hands"][seat])
            other["hands"][seat], other["hideouts"][seat] = pool[:size], pool[size:]
        # Every hideout's order, the viewer's own included, is face down.
        rng.shuffle(other["hideouts"][seat])
    for stack in other["treasury"]:
        rng.shuffle(stack)
    other["seed"] = f"another seed {rng.random()}"
    public = state["rules"]["public_captures"] or state["phase"] == "over"
    if not public:
        # Another gang's captured wagon could as well be any unseen wagon of that cargo.
        for seat in range(state["players"]):
            if seat == viewer:
                continue
            for index, wagon in enumerate(other["captured"][seat]):
                colour = state["wagons"][wagon][0]
                stack = other["treasury"][("yellow", "red", "green").index(colour)]
                if stack:
                    other["captured"][seat][index], stack[0] = stack[0], wagon
                    for record in other["captures"][seat]:
                        record["wagons"] = [
                            other["captured"][seat][index] if w == wagon else w
                            for w in record["wagons"]
                        ]
                    break
    return other


@settings(max_examples=30, deadline=None)
@given(table=tables, steps=st.integers(min_value=0, max_value=120), shuffle=st.randoms())
def test_views_do_not_depend_on_what_the_seat_cannot_see(engine, table, steps, shuffle):
    _config, state = new_game(engine, table)
    rng = random.Random(table["choices"])
    for _ in range(steps):
        if engine.is_over(state):
            break
        (seat,) = engine.to_move(state)
        state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    for viewer in [None, *range(state["players"])]:
        changed = hide_differently(state, viewer, shuffle)
        assert changed != state or steps == 0
        assert engine.view(changed, viewer) == engine.view(state, viewer)
        if viewer is not None:
            assert engine.legal_actions(changed, viewer) == engine.legal_actions(state, viewer)


@settings(max_examples=30, deadline=None)
@given(table=tables, steps=st.integers(min_value=0, max_value=120))
def test_the_board_view_is_the_view_less_what_no_board_draws(engine, table, steps):
    """The board (every page, move answer and push) is rendered from ``board_view``: the view
    without the out-of-game cards' faces and the components, nothing else missing, nothing
    added — so it can show no more than the view, and the board draws all it drew."""
    _config, state = new_game(engine, table)
    rng = random.Random(table["choices"])
    for _ in range(steps):
        if engine.is_over(state):
            break
        (seat,) = engine.to_move(state)
        state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    for viewer in [None, *range(state["players"])]:
        whole, board = engine.view(state, viewer), engine.board_view(state, viewer)
        assert "components" in whole and "components" not in board
        for seat_view in whole["seats"]:
            assert "out_of_game" in seat_view
            del seat_view["out_of_game"]
        del whole["components"]
        assert board == whole


def test_view_shows_own_hand_and_loot_but_only_sizes_of_others(engine):
    table = {
        "seed": "s3cr3t-seed-7f3a",
        "players": 3,
        "choices": 5,
        "variant_a_bullets": False,
        "variant_b_twos": False,
        "public_captures": False,
    }
    _config, state = new_game(engine, table)
    rng = random.Random(3)
    while not any(state["captured"][seat] for seat in (1, 2)) or state["round"] < 3:
        (seat,) = engine.to_move(state)
        state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    view = engine.view(state, 0)
    text = json.dumps(view)
    assert "s3cr3t-seed-7f3a" not in text
    assert [card["id"] for card in view["hand"]] == state["hands"][0]
    assert all(len(card["halves"]) == 2 for card in view["hand"])
    me, *others = view["seats"]
    assert me["captured"] is not None and len(me["captured"]) == len(state["captured"][0])
    for seat_view in others:
        seat = seat_view["seat"]
        assert seat_view["captured"] is None
        assert seat_view["captured_count"] == len(state["captured"][seat])
        assert seat_view["hand_size"] == len(state["hands"][seat])
        assert seat_view["hideout_size"] == len(state["hideouts"][seat])
        assert "hand" not in seat_view
    assert view["treasury"] == {
        cargo: len(stack) for cargo, stack in zip(("gold", "dynamite", "money"), state["treasury"])
    }
    assert [w["id"] for w in view["train"]] == state["train"]
    spectator = engine.view(state, None)
    assert spectator["hand"] is None and spectator["legal_actions"] == []
    assert all(seat_view["captured"] is None for seat_view in spectator["seats"])


def test_public_captures_show_every_captured_wagon(engine):
    table = {
        "seed": 8,
        "players": 2,
        "choices": 8,
        "variant_a_bullets": False,
        "variant_b_twos": False,
        "public_captures": True,
    }
    _config, state = new_game(engine, table)
    rng = random.Random(8)
    events = []
    while not state["captured"][1]:
        (seat,) = engine.to_move(state)
        state, events = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    view = engine.view(state, 0)
    assert [w["id"] for w in view["seats"][1]["captured"]] == state["captured"][1]
    captured = [e for e in events if e["type"] == "captured" and e["args"]["seat"] == 1]
    assert captured and "wagons" in captured[-1]["args"]


def test_captured_values_stay_secret_in_events_without_public_captures(engine):
    config = engine.default_config()
    state = engine.setup(config, 2, 8)
    rng = random.Random(8)
    while not engine.is_over(state):
        (seat,) = engine.to_move(state)
        state, events = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
        for index, event in enumerate(events):
            if event["type"] == "captured":
                assert "wagons" not in event["args"] and event["args"]["count"] >= 1
                # Only the capturing seat is told the values.
                secret = events[index + 1]
                assert secret["type"] == "loot_taken"
                assert secret["private_to"] == [event["args"]["seat"]]
                assert len(secret["args"]["wagons"]) == event["args"]["count"]


def test_same_seed_config_and_actions_give_the_same_game(engine):
    table = {
        "seed": 1234,
        "players": 4,
        "choices": 99,
        "variant_a_bullets": True,
        "variant_b_twos": True,
        "public_captures": False,
    }
    first = playout(engine, table, check=False)
    second = playout(engine, table, check=False)
    assert first == second
    other_seed = playout(engine, {**table, "seed": 1235}, check=False)
    assert other_seed[2] != first[2]


def test_json_round_trip_is_exact_and_shares_nothing(engine):
    state = engine.setup(engine.default_config(), 3, "round-trip")
    data = engine.to_json(state)
    assert json.loads(json.dumps(data)) == data
    restored = engine.from_json(data)
    assert restored == state
    restored["hands"][0].clear()
    assert state["hands"][0]
    with pytest.raises(ValueError):
        engine.from_json({"game": "colt"})


def test_a_stored_state_is_checked_not_copied(engine):
    """What the database just handed over is the caller's own: the page reads it as it is
    (no second JSON pass), but another game's state is still refused."""
    data = json.loads(json.dumps(engine.to_json(engine.setup(engine.default_config(), 3, "s"))))
    assert engine.from_stored(data) is data
    with pytest.raises(ValueError):
        engine.from_stored({"game": "colt"})
    # A move's new state is written as it is: already what to_json would store.
    state, _events = engine.apply(data, data["turn"], engine.legal_actions(data, data["turn"])[0])
    assert engine.to_stored(state) is state
    assert json.loads(json.dumps(state)) == engine.to_json(state) == state
