"""Shared helpers for the To jest napad! engine tests: the engine, crafted tables, invariants."""

from __future__ import annotations

import copy
from types import SimpleNamespace
from typing import Any

import pytest

from games.engines import get_engine

# Wagon ids in the default data: gold 0-5, dynamite 6-11, money 12-17, values 2,2,3,3,4,5 each.
GOLD = {2: 0, 3: 2, 4: 4, 5: 5}
DYNAMITE = {2: 6, 3: 8, 4: 10, 5: 11}
MONEY = {2: 12, 3: 14, 4: 16, 5: 17}
# A few default cards by id: (up half colour, value) -> card id, for readable scenarios.
Y2_R7, Y3_R6, Y4_R4, Y5_R5, Y6_R3 = 0, 1, 2, 3, 4
R2_G7, R3_G6, R4_G4, R5_G5, R6_G3 = 5, 6, 7, 8, 9
G2_Y7, G3_Y6, G4_Y4, G5_Y5, G6_Y3 = 10, 11, 12, 13, 14


@pytest.fixture(scope="session")
def engine():
    return get_engine("napad")


def craft(
    engine: Any,
    *,
    players: int = 3,
    marker: int = 0,
    hands: dict[int, list[int]] | None = None,
    train: list[int] | None = None,
    config: dict[str, Any] | None = None,
    gangs: list[str] | None = None,
    seed: int | str = 1,
) -> dict[str, Any]:
    """A round-1 table with chosen hands and train; everything stays consistent (15 cards per
    gang, 18 wagons), the rest of each gang waits in its hideout."""
    config = config or engine.default_config()
    gangs = gangs or config["gangs"][:players]
    state = copy.deepcopy(
        engine.setup(config, players, seed, first_player=marker, identities=gangs)
    )
    for seat, hand in (hands or {}).items():
        state["hands"][seat] = list(hand)
        state["hideouts"][seat] = [card for card in range(15) if card not in hand]
    if train is not None:
        state["train"] = list(train)
        state["treasury"] = [
            [w for w in range(first, first + 6) if w not in train] for first in (0, 6, 12)
        ]
    # The marker opens, unless their hand is empty (then they are passed for at once).
    state["turn"] = marker
    return state


def play(engine: Any, state: dict[str, Any], seat: int, card: int, colour: str):
    return engine.apply(state, seat, {"type": "play", "card": card, "colour": colour})


def pass_(engine: Any, state: dict[str, Any], seat: int):
    return engine.apply(state, seat, {"type": "pass"})


def run(engine: Any, state: dict[str, Any], moves: list[tuple]) -> tuple[dict[str, Any], list]:
    """Apply ``(seat, card, colour)`` plays and ``(seat, "pass")`` passes; return state, events."""
    events: list = []
    for move in moves:
        if move[1] == "pass":
            state, new_events = pass_(engine, state, move[0])
        else:
            state, new_events = play(engine, state, *move)
        events.extend(new_events)
    return state, events


def check_invariants(engine: Any, state: dict[str, Any]) -> None:
    """Cards and loot are conserved; someone is to move exactly until the game is over."""
    for seat in range(state["players"]):
        cards = (
            state["hands"][seat]
            + state["hideouts"][seat]
            + [card for card, _colour in state["played"][seat]]
            + state["out"][seat]
        )
        assert sorted(cards) == list(range(15)), f"seat {seat} cards: {cards}"
    wagons = [w for stack in state["treasury"] for w in stack] + state["train"]
    wagons += [w for loot in state["captured"] for w in loot]
    assert sorted(wagons) == list(range(18))
    if engine.is_over(state):
        assert engine.to_move(state) == []
    else:
        movers = engine.to_move(state)
        assert len(movers) == 1
        assert engine.legal_actions(state, movers[0])


@pytest.fixture(scope="session")
def napad():
    """The helpers above as one namespace (tests take it as a fixture: importing from a
    conftest breaks as soon as another conftest is on the path)."""
    helpers = globals()
    return SimpleNamespace(**{name: helpers[name] for name in helpers if not name.startswith("_")})
