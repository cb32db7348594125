"""Bots for Colt Express: ``random`` and ``heuristic`` (``bot(engine, state, seat, rng)``).

The heuristic bot plans with its own cards only. In Schemin' it tracks where its already
played cards will take it (other players' cards are unknown or ignored) and prefers, from that
projected spot: robbing when loot lies there, firing when someone is in reach, moving toward
loot away from the marshal, otherwise drawing. In Stealin' it takes the most valuable loot,
shoots and punches the richest bandit, moves to the richest spot the marshal doesn't guard,
and sends the marshal toward other bandits.
"""

from __future__ import annotations

import random
from typing import Any

from ..base import stable_choice
from .data import (
    FIRE,
    FLOOR,
    INSIDE,
    MARSHAL,
    MOVE,
    PUNCH,
    ROB,
    ROOF,
    TIME_MACHINE,
    token_value,
)

Action = dict[str, Any]


def random_bot(engine: Any, state: dict, seat: int, rng: random.Random) -> Action:
    return stable_choice(engine.legal_actions(state, seat), rng)


def _spot_value(state: dict, car: int, level: str) -> int:
    if level == TIME_MACHINE:
        tokens = state["tm_loot"]
    elif level == INSIDE:
        tokens = state["inside"][car]
    else:
        tokens = state["roof"][car]
    # Floor purses are valued at their average, since the bot may not know them.
    return sum(350 if token[0] == "p" else token_value(token) for token in tokens)


def _wealth(state: dict, seat: int) -> int:
    return len(state["loot"][seat])


def _projected_spot(state: dict, seat: int) -> tuple[int, str]:
    """Where this bandit will roughly be after its own cards already in the pile."""
    car, level = state["car"][seat], state["level"][seat]
    for owner, card, _face_down, _turn in state["pile"]:
        if owner != seat:
            continue
        if card == FLOOR and level != TIME_MACHINE:
            level = ROOF if level == INSIDE else INSIDE
        elif card == MOVE:
            car, level = _best_step(state, car, level)
    return car, level


def _best_step(state: dict, car: int, level: str) -> tuple[int, str]:
    last = len(state["cars"]) - 1
    if level == TIME_MACHINE:
        return 0, INSIDE
    reach = 1 if level == INSIDE else 3
    best, best_value = (car, level), -1
    for other in range(max(0, car - reach), min(last, car + reach) + 1):
        if other == car:
            continue
        value = _spot_value(state, other, level)
        if level == INSIDE and other == state["marshal"]:
            value = -1000
        if value > best_value:
            best, best_value = (other, level), value
    return best


def _schemin_choice(state: dict, seat: int, actions: list[Action]) -> Action:
    plays = {a["card"]: a for a in actions if a["type"] == "play" and not a.get("face_down")}
    plays.update({a["card"]: a for a in actions if a["type"] == "play" and a["card"] not in plays})
    draw = next((a for a in actions if a["type"] == "draw"), None)
    car, level = _projected_spot(state, seat)
    here = _spot_value(state, car, level)
    marshal_near = level == INSIDE and abs(state["marshal"] - car) <= 1
    if ROB in plays and here > 0:
        return plays[ROB]
    if FIRE in plays and state["bullets"][seat] > 0 and _someone_near(state, seat, car, level):
        return plays[FIRE]
    if FLOOR in plays and level == INSIDE and marshal_near and here == 0:
        return plays[FLOOR]
    if FLOOR in plays and level in (INSIDE, ROOF):
        other = ROOF if level == INSIDE else INSIDE
        if _spot_value(state, car, other) > here and not (
            other == INSIDE and car == state["marshal"]
        ):
            return plays[FLOOR]
    if MOVE in plays:
        target = _best_step(state, car, level)
        if _spot_value(state, *target) > here:
            return plays[MOVE]
    if PUNCH in plays and _others_at(state, seat, car, level):
        return plays[PUNCH]
    if draw is not None and len(state["hand"][seat]) < 8:
        return draw
    for card in (MOVE, FLOOR, ROB, FIRE, PUNCH, MARSHAL):
        if card in plays:
            return plays[card]
    return draw if draw is not None else actions[0]


def _others_at(state: dict, seat: int, car: int, level: str) -> bool:
    return any(
        other != seat and state["car"][other] == car and state["level"][other] == level
        for other in range(state["players"])
    )


def _someone_near(state: dict, seat: int, car: int, level: str) -> bool:
    for other in range(state["players"]):
        if other == seat:
            continue
        other_car, other_level = state["car"][other], state["level"][other]
        if level == ROOF and other_level == ROOF and other_car != car:
            return True
        if level == INSIDE and other_level == INSIDE and abs(other_car - car) == 1:
            return True
    return False


def _choice_score(state: dict, seat: int, action: Action) -> float:
    kind = action["type"]
    if kind in ("move", "floor"):
        to = action["to"]
        car, level = to["car"], to["level"]
        score = _spot_value(state, car, level)
        if level == INSIDE and car == state["marshal"]:
            score -= 2000
        if level == TIME_MACHINE:
            score += 200
        return score
    if kind == "rob":
        return {"strongbox": 3, "jewel": 2, "purse": 1}[action["loot"]]
    if kind in ("fire", "punch"):
        victim = action["target"] if kind == "fire" else action["victim"]
        score = _wealth(state, victim) * 10
        if kind == "punch":
            loot = action["loot"]
            score += {"strongbox": 3, "jewel": 2, "purse": 1, None: 0}[loot]
            score += 5 if action.get("take") else 0
        return score
    if kind == "marshal":
        step = -1 if action["direction"] == "locomotive" else 1
        to = state["marshal"] + step
        hits = sum(
            (1 if other != seat else -3)
            for other in range(state["players"])
            if state["car"][other] == to and state["level"][other] == INSIDE
        )
        return hits
    if kind == "pickpocket":
        return 1 if action["take"] else 0
    if kind == "hide":
        car = action["car"]
        return -5000 if car == state["marshal"] else _spot_value(state, car, INSIDE)
    return 0


def heuristic_bot(engine: Any, state: dict, seat: int, rng: random.Random) -> Action:
    actions = engine.legal_actions(state, seat)
    if state["phase"] == "schemin":
        return _schemin_choice(state, seat, actions)
    best = max(_choice_score(state, seat, action) for action in actions)
    return stable_choice([a for a in actions if _choice_score(state, seat, a) == best], rng)


BOTS = {"random": random_bot, "heuristic": heuristic_bot}

__all__ = ["BOTS", "heuristic_bot", "random_bot"]
