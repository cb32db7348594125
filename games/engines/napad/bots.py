"""Bots for To jest napad!: a random one and a heuristic one.

A bot is ``bot(engine, state, seat, rng) -> action`` and returns one of
``engine.legal_actions(state, seat)``. The heuristic bot decides from ``engine.view(state,
seat)`` only, so it never peeks at what its seat could not see at the table. Both draw
randomness only through ``rng.random()`` (the stable method).
"""

from __future__ import annotations

import random
from typing import Any

from ..base import stable_choice

# Both constants were tuned with ``manage.py simulate`` against random bots.
# A lead of this many points per rival still bidding counts as a sure win; smaller leads are
# worth proportionally less, since rivals who have not passed can still overtake.
SAFE_LEAD_PER_RIVAL = 4
# Cards that win go into the box: each point on a card (both halves) costs this much loot.
CARD_POINT_COST = 0.25


def random_bot(engine: Any, state: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    """Any legal action, uniformly."""
    return stable_choice(engine.legal_actions(state, seat), rng)


def _prizes(table: dict[str, Any]) -> dict[str, int]:
    prizes = {"yellow": 0, "red": 0, "green": 0}
    for wagon in table["train"]:
        prizes[wagon["colour"]] += wagon["value"]
    return prizes


def _rival_best(totals: dict[str, list[int]], colour: str, seat: int) -> int:
    return max(total for other, total in enumerate(totals[colour]) if other != seat)


def heuristic_bot(
    engine: Any, state: dict[str, Any], seat: int, rng: random.Random
) -> dict[str, Any]:
    """Bid for expected loot, stall cheaply while rivals still bid, pass when nothing helps.

    1. Take the play that most raises the expected loot: for its colour, the wagons' value
       times the gain in the chance of winning (from the lead over the best rival and how many
       rivals still bid), minus the cost of the card if it wins (it goes into the box).
    2. Else, while rivals still bid, send a card where it cannot win: it returns to hand at
       the division, so it costs nothing and keeps this seat able to answer later. A card that
       exactly ties a rival's total is preferred, as a tie denies them the wagons.
    3. Else pass, keeping the cards for later rounds.
    """
    return heuristic_choice(engine.view(state, seat), seat, rng)


def heuristic_choice(table: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    """The heuristic's action from the seat's view ``table`` (``engine.view(state, seat)``)."""
    actions = table["legal_actions"]
    if not actions:
        raise ValueError(f"seat {seat} has nothing to do")
    prizes = _prizes(table)
    totals = table["totals"]
    rival_best = {colour: _rival_best(totals, colour, seat) for colour in totals}
    hand = {card["id"]: card for card in table["hand"]}
    rivals_bidding = sum(
        1 for other in table["seats"] if other["seat"] != seat and not other["passed"]
    )

    def chance(lead: int) -> float:
        if lead <= 0:
            return 0.0
        if rivals_bidding == 0:
            return 1.0
        return min(1.0, lead / (SAFE_LEAD_PER_RIVAL * rivals_bidding))

    best_action = None
    best_gain = 0.0
    stalls = []
    for action in actions:
        if action["type"] != "play":
            continue
        colour = action["colour"]
        halves = hand[action["card"]]["halves"]
        up = next(h for h in halves if h["colour"] == colour)
        other = next(h for h in halves if h["colour"] != colour)
        mine = totals[colour][seat]
        after = mine + up["value"]
        if after <= rival_best[colour]:
            tie_denies = prizes[colour] if after == rival_best[colour] else 0
            stalls.append((-tie_denies, up["value"], action["card"], colour, action))
            continue
        gain = prizes[colour] * (
            chance(after - rival_best[colour]) - chance(mine - rival_best[colour])
        ) - chance(after - rival_best[colour]) * CARD_POINT_COST * (up["value"] + other["value"])
        if gain <= 0:
            continue
        gain += rng.random() * 1e-3  # breaks exact ties between equal cards without bias
        if gain > best_gain:
            best_gain = gain
            best_action = action
    if best_action is not None:
        return best_action
    if rivals_bidding and stalls:
        return min(stalls)[-1]
    for action in actions:
        if action["type"] == "pass":
            return action
    # Forced to play (the marker's first turn) with nothing worth it: spend the weakest half.
    return min(
        actions,
        key=lambda a: (
            next(h["value"] for h in hand[a["card"]]["halves"] if h["colour"] == a["colour"]),
            -prizes[a["colour"]],
            a["card"],
        ),
    )


BOTS = {"random": random_bot, "heuristic": heuristic_bot}
