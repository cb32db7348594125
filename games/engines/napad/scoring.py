"""Final scoring of a To jest napad! game: the basic count, variants A and B, and the ranking.

Works from the finished state alone: the captured wagons per seat and, for variant A, the
record of which gang cards captured them (those cards left the game, but their bullets count).
"""

from __future__ import annotations

from typing import Any

from .config import CARGO_OF_COLOUR, COLOURS

State = dict[str, Any]


def _bullets_by_colour(state: State, seat: int) -> dict[str, int]:
    """Per the spec's decision: bullets on the up halves of the capturing cards + wagon bullets."""
    deck = state["decks"][seat]
    wagons = state["wagons"]
    bullets = dict.fromkeys(COLOURS, 0)
    for capture in state["captures"][seat]:
        colour = capture["colour"]
        for card_id in capture["cards"]:
            for half_colour, _value, half_bullets in deck[card_id]:
                if half_colour == colour:
                    bullets[colour] += half_bullets
        for wagon_id in capture["wagons"]:
            bullets[colour] += wagons[wagon_id][2]
    return bullets


def breakdowns(state: State) -> list[dict[str, Any]]:
    """What the end screen explains for each seat, with ``total`` the score that ranks it."""
    rules = state["rules"]
    players = state["players"]
    wagons = state["wagons"]
    per_seat: list[dict[str, Any]] = []
    for seat in range(players):
        values_by_colour: dict[str, list[int]] = {colour: [] for colour in COLOURS}
        for wagon_id in state["captured"][seat]:
            colour, value, _bullets = wagons[wagon_id]
            values_by_colour[colour].append(value)
        bullets = _bullets_by_colour(state, seat)
        colours = {}
        for colour in COLOURS:
            values = sorted(values_by_colour[colour], reverse=True)
            colours[colour] = {
                "cargo": CARGO_OF_COLOUR[colour],
                "wagons": len(values),
                "values": values,
                "sum": sum(values),
                "highest": values[0] if values else 0,
                "bullets": bullets[colour],
            }
        twos = sum(values.count(2) for values in values_by_colour.values())
        per_seat.append(
            {
                "seat": seat,
                "gang": state["gangs"][seat],
                "colours": colours,
                "wagon_points": sum(c["sum"] for c in colours.values()),
                "twos": twos,
                "cards_in_hand": len(state["hands"][seat]),
            }
        )

    if rules["variant_a_bullets"]:
        for colour in COLOURS:
            most = max(entry["colours"][colour]["bullets"] for entry in per_seat)
            for entry in per_seat:
                line = entry["colours"][colour]
                # Zero bullets never earns the +1, even when everyone has zero.
                line["bullet_bonus"] = most > 0 and line["bullets"] == most
                line["points"] = line["wagons"] * (line["highest"] + int(line["bullet_bonus"]))
    else:
        for entry in per_seat:
            for line in entry["colours"].values():
                line["bullet_bonus"] = False
                line["points"] = line["sum"]

    most_twos = max(entry["twos"] for entry in per_seat)
    for entry in per_seat:
        if rules["variant_b_twos"] and most_twos > 0 and entry["twos"] == most_twos:
            entry["twos_bonus"] = entry["twos"]
        else:
            entry["twos_bonus"] = 0
        entry["colour_points"] = sum(line["points"] for line in entry["colours"].values())
        entry["variant_a"] = rules["variant_a_bullets"]
        entry["variant_b"] = rules["variant_b_twos"]
        entry["total"] = entry["colour_points"] + entry["twos_bonus"]
    return per_seat


def _seats_text(seats: list[int], gangs: list[str]) -> str:
    return " and ".join(f"seat {seat} ({gangs[seat]})" for seat in seats)


def ranking(state: State) -> dict[str, Any]:
    """The contract's result: ranking with shared places, scores, breakdowns and tie-breaks."""
    per_seat = breakdowns(state)
    scores = [entry["total"] for entry in per_seat]
    hands = [entry["cards_in_hand"] for entry in per_seat]
    # Highest score first; a tie on score goes to more cards in hand; after that it is shared.
    order = sorted(range(len(scores)), key=lambda seat: (-scores[seat], -hands[seat], seat))
    rows = []
    place = 0
    previous_key = None
    for position, seat in enumerate(order, start=1):
        key = (scores[seat], hands[seat])
        if key != previous_key:
            place = position
            previous_key = key
        rows.append(
            {"seat": seat, "place": place, "score": scores[seat], "cards_in_hand": hands[seat]}
        )

    notes = []
    gangs = state["gangs"]
    for score in sorted(set(scores), reverse=True):
        tied = [seat for seat in order if scores[seat] == score]
        if len(tied) < 2:
            continue
        hand_counts = ", ".join(f"{hands[seat]}" for seat in tied)
        if len({hands[seat] for seat in tied}) == 1:
            notes.append(
                f"{_seats_text(tied, gangs)} tied on {score} points and {hands[tied[0]]} cards "
                "in hand: they share the place."
            )
        else:
            notes.append(
                f"{_seats_text(tied, gangs)} tied on {score} points; cards left in hand "
                f"({hand_counts}) decide, and equal counts share the place."
            )
    return {
        "ranking": rows,
        "scores": scores,
        "breakdown": per_seat,
        "tie_break": " ".join(notes) if notes else "No ties on points.",
    }
