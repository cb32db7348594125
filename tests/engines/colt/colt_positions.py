"""Hand-made Colt Express positions for rule tests, and the playout invariants.

``table`` builds a small position (bandits, marshal, loot, round card) on top of a real setup;
``resolve`` lays a pile and runs Stealin' until the first real choice; ``act`` applies an
action through the engine. Cars are indexed from the locomotive (0) to the caboose.
"""

from __future__ import annotations

import json
from collections import Counter

from games.engines.colt import flow
from games.engines.colt.data import (
    ACTION_CARDS,
    BULLETS_PER_BANDIT,
    NEUTRAL_BULLET,
    NEUTRAL_BULLETS,
    PURSE_VALUES,
    token_value,
)
from games.engines.colt.engine import ENGINE
from games.engines.colt.state import clone

INSIDE, ROOF, TM = "inside", "roof", "time_machine"
ALL_LOOT_VALUE = sum(PURSE_VALUES) + 6 * 500 + 2 * 1000


def table(
    players=3,
    characters=None,
    cars=2,
    tm=False,
    at=None,
    marshal=0,
    floor=None,
    loot=None,
    round_card="Tunnels",
    neutral=None,
    round_index=0,
):
    """A position: ``at`` maps seat -> (car, level); ``floor`` maps (car, level) -> tokens
    (level "time_machine" for the machine); ``loot`` maps seat -> tokens. Floors start empty,
    bandits with nothing; everything else comes from a real setup."""
    config = ENGINE.default_config()
    config["time_machine"] = tm
    characters = characters or ["Doc", "Ghost", "Cheyenne", "Tuco", "Django", "Belle"][:players]
    state = ENGINE.setup(config, players, seed=7, first_player=0, identities=characters)
    state = clone(state)
    state["cars"] = ["Locomotive", *"ABCDEF"[:cars]]
    state["inside"] = [[] for _ in range(cars + 1)]
    state["roof"] = [[] for _ in range(cars + 1)]
    state["tm_loot"] = []
    state["loot"] = [[] for _ in range(players)]
    for seat, (car, level) in (at or {}).items():
        state["car"][seat] = car
        state["level"][seat] = level
    for (car, level), tokens in (floor or {}).items():
        if level == TM:
            state["tm_loot"] = list(tokens)
        else:
            state[level][car] = list(tokens)
    for seat, tokens in (loot or {}).items():
        state["loot"][seat] = list(tokens)
    state["marshal"] = marshal
    if neutral is not None:
        state["neutral"] = neutral
    state["round"] = round_index
    state["round_deck"] = list(state["round_deck"])
    state["round_deck"][round_index] = round_card
    return state


def resolve(state, pile):
    """Lay ``pile`` ([(seat, card), ...] face up) and run Stealin' until a choice is needed."""
    state = clone(state)
    state["pile"] = [[seat, card, False, 0] for seat, card in pile]
    state["phase"] = "stealin"
    state["resolving"] = 0
    state["pending"] = None
    events = []
    flow.advance(state, events)
    return state, events


def run_events(state):
    """End the round now (empty pile): the round card's event and what follows."""
    return resolve(state, [])


def act(state, seat, **action):
    return ENGINE.apply(state, seat, action)


def where(state, seat):
    return state["car"][seat], state["level"][seat]


def types(events):
    return [event["type"] for event in events]


def choice_types(state, seat):
    return [{k: v for k, v in a.items() if k != "label"} for a in ENGINE.legal_actions(state, seat)]


# --- invariants ---------------------------------------------------------------------------


def loot_total(state):
    tokens = [t for spot in state["inside"] + state["roof"] for t in spot]
    tokens += state["tm_loot"] + state["reserve"]
    tokens += [t for owned in state["loot"] for t in owned]
    return sum(token_value(token) for token in tokens)


def cards_owned(state, seat):
    cards = list(state["deck"][seat]) + list(state["hand"][seat])
    cards += [card for owner, card, _down, _turn in state["pile"] if owner == seat]
    return cards


def check_invariants(state):
    players = state["players"]
    assert loot_total(state) == ALL_LOOT_VALUE + state["ransom"]
    fired_by = Counter()
    neutral_handed = 0
    for seat in range(players):
        cards = cards_owned(state, seat)
        actions = sorted(card for card in cards if not card.startswith("bullet"))
        bullets = [card for card in cards if card.startswith("bullet")]
        assert actions == sorted(ACTION_CARDS), (seat, actions)
        assert len(bullets) == state["received"][seat]
        for card in bullets:
            if card == NEUTRAL_BULLET:
                neutral_handed += 1
            else:
                fired_by[int(card.split(":")[1])] += 1
    for seat in range(players):
        assert fired_by[seat] + state["bullets"][seat] == BULLETS_PER_BANDIT
    assert neutral_handed + state["neutral"] == NEUTRAL_BULLETS
    for seat in range(players):
        assert not (state["level"][seat] == INSIDE and state["car"][seat] == state["marshal"])
    if ENGINE.is_over(state):
        assert ENGINE.to_move(state) == []
    else:
        movers = ENGINE.to_move(state)
        assert movers and ENGINE.legal_actions(state, movers[0])
    data = json.loads(json.dumps(ENGINE.to_json(state)))
    assert ENGINE.from_json(data) == state
