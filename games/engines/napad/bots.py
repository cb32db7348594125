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

# A card that wins goes into the box with both its halves: weigh that loss against the loot.
PLAYED_HALF_COST = 0.5
OTHER_HALF_COST = 0.25
# Below this, a bid is not worth the cards it burns.
MIN_GAIN = 0.5


def random_bot(engine: Any, state: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    """Any legal action, uniformly."""
    return stable_choice(engine.legal_actions(state, seat), rng)


def _prizes(table: dict[str, Any]) -> dict[str, int]:
    prizes = {"yellow": 0, "red": 0, "green": 0}
    for wagon in table["train"]:
        prizes[wagon["colour"]] += wagon["value"]
    return prizes


def heuristic_bot(
    engine: Any, state: dict[str, Any], seat: int, rng: random.Random
) -> dict[str, Any]:
    """Bid where one card takes the lead on loot worth the card; otherwise pass to save cards.

    It never adds to a colour it already leads (those cards would only go into the box), and
    picks the cheapest card that takes the lead, so it keeps strong cards for later rounds.
    """
    table = engine.view(state, seat)
    actions = table["legal_actions"]
    if not actions:
        raise ValueError(f"seat {seat} has nothing to do")
    prizes = _prizes(table)
    totals = table["totals"]
    hand = {card["id"]: card for card in table["hand"]}

    best_action = None
    best_gain = MIN_GAIN
    for action in actions:
        if action["type"] != "play":
            continue
        colour = action["colour"]
        mine = totals[colour][seat]
        rivals = max(total for other, total in enumerate(totals[colour]) if other != seat)
        if prizes[colour] == 0 or mine > rivals:
            continue
        halves = hand[action["card"]]["halves"]
        up = next(h for h in halves if h["colour"] == colour)
        other = next(h for h in halves if h["colour"] != colour)
        if mine + up["value"] <= rivals:
            continue
        gain = (
            prizes[colour]
            - PLAYED_HALF_COST * up["value"]
            - OTHER_HALF_COST * other["value"]
            + rng.random() * 0.01  # breaks exact ties between equal cards without bias
        )
        if gain > best_gain:
            best_gain = gain
            best_action = action
    if best_action is not None:
        return best_action
    for action in actions:
        if action["type"] == "pass":
            return action
    # Forced to play (the marker's first turn) with nothing worth it: spend the weakest half
    # on the richest colour.
    return min(
        actions,
        key=lambda a: (
            next(h["value"] for h in hand[a["card"]]["halves"] if h["colour"] == a["colour"]),
            -prizes[a["colour"]],
            a["card"],
        ),
    )


BOTS = {"random": random_bot, "heuristic": heuristic_bot}
