"""Final scoring of a To jest napad! game: the basic count, variants A and B, and the ranking.

Works from the finished state alone: the captured wagons per seat and, for variant A, the
record of which gang cards captured them (those cards left the game, but their bullets count).
"""

from __future__ import annotations

from typing import Any

from ..base import english, phrase, seat_ref
from ..base import gettext_noop as _
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


def _tie_phrases(
    state: State, order: list[int], scores: list[int], hands: list[int]
) -> list[dict[str, Any]]:
    """How each tie on points was settled, as phrases (the end screen says them)."""
    notes = []
    gangs = state["gangs"]
    for score in sorted(set(scores), reverse=True):
        tied = [seat for seat in order if scores[seat] == score]
        if len(tied) < 2:
            continue
        seats = [seat_ref(seat, gangs[seat]) for seat in tied]
        if len({hands[seat] for seat in tied}) == 1:
            notes.append(
                phrase(
                    _(
                        "%(seats)s tie with a score of %(score)s and as many cards in hand "
                        "(%(cards)s): they share the place."
                    ),
                    seats=seats,
                    score=score,
                    cards=hands[tied[0]],
                )
            )
        else:
            notes.append(
                phrase(
                    _(
                        "%(seats)s tie with a score of %(score)s; the cards left in hand "
                        "(%(counts)s) decide, and equal counts share the place."
                    ),
                    seats=seats,
                    score=score,
                    counts=", ".join(str(hands[seat]) for seat in tied),
                )
            )
    return notes or [phrase(_("No ties on points."))]


def _order(scores: list[int], hands: list[int]) -> list[int]:
    # Highest score first; a tie on score goes to more cards in hand; after that it is shared.
    return sorted(range(len(scores)), key=lambda seat: (-scores[seat], -hands[seat], seat))


def tie_break_phrases(state: State) -> list[dict[str, Any]]:
    per_seat = breakdowns(state)
    scores = [entry["total"] for entry in per_seat]
    hands = [entry["cards_in_hand"] for entry in per_seat]
    return _tie_phrases(state, _order(scores, hands), scores, hands)


def ranking(state: State) -> dict[str, Any]:
    """The contract's result: ranking with shared places, scores, breakdowns and tie-breaks."""
    per_seat = breakdowns(state)
    scores = [entry["total"] for entry in per_seat]
    hands = [entry["cards_in_hand"] for entry in per_seat]
    order = _order(scores, hands)
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
    notes = _tie_phrases(state, order, scores, hands)
    return {
        "ranking": rows,
        "scores": scores,
        "breakdown": per_seat,
        "tie_break": " ".join(english(note) for note in notes),
    }
