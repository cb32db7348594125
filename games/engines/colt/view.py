"""What one seat (or a spectator, ``seat=None``) may see of a Colt Express state.

Secrets and who knows them:

- Hands and deck order: the owner only (the owner sees his hand; everyone sees sizes).
- The pile: everyone sees, in order, who played each card (the table watches every turn, and
  the turn order is public), and whether it was played face down. The kind of a face-down card
  is shown to its owner only, until it resolves; a tunnel card is just a back with its
  player's colour, exactly what the table saw.
- Purse values: on the floors, nobody; in a bandit's loot, only its owner. Counts by kind are
  public everywhere. Jewels ($500) and strongboxes ($1000) are never secret.
- Future round cards: hidden; only how many remain.
- The Time Machine traveller's hideout: his owner only, until he reappears at Stealin'.
- The seed: never.

Public and shown to everyone: the whole ruleset config, the turn order still to come in this
turn (``turn_order``: the Schemin' queue, turns taken this round, who is still to be asked at
Pickpocketing) and the round cards already played, so a reader (a search bot) can rebuild
the table from the view alone.

Once the game is over everything is shown (the end screen explains the score).
"""

from __future__ import annotations

from typing import Any

from .data import (
    BULLETS_PER_BANDIT,
    CARD_LABELS,
    EVENT_TEXTS,
    HIDDEN,
    LOCOMOTIVE,
    LOOT_KINDS,
    ROUNDS,
    TIME_MACHINE,
    TURN_LABELS,
    token_kind,
    token_value,
)
from .flow import to_move
from .schemin import current_turns
from .state import State


def _counts(tokens: list[str]) -> dict[str, int]:
    counts = dict.fromkeys(LOOT_KINDS, 0)
    for token in tokens:
        counts[token_kind(token)] += 1
    return counts


def revealed_cards(state: State) -> int:
    """How many pile cards have been turned over: those resolved, and the one whose owner is
    choosing how it resolves (its kind is public from then on)."""
    phase = state["phase"]
    if phase == "stealin":
        return state["resolving"] + (1 if state["pending"] is not None else 0)
    if phase == "pickpocket":
        return len(state["pile"])
    return 0


def _where(state: State, seat: int, viewer: int | None, everything: bool) -> dict[str, Any]:
    car, level = state["car"][seat], state["level"][seat]
    if level == HIDDEN and not everything and viewer != seat:
        return {"car": None, "level": HIDDEN}
    return {"car": car, "level": level}


def view(state: State, viewer: int | None) -> dict[str, Any]:
    everything = state["phase"] == "over"
    players = state["players"]
    cars = state["cars"]
    last = len(cars) - 1
    round_index = state["round"]

    train = []
    for car, car_name in enumerate(cars):
        train.append(
            {
                "index": car,
                "name": car_name,
                "is_locomotive": car_name == LOCOMOTIVE,
                "is_caboose": car == last,
                "marshal": state["marshal"] == car,
                "inside": {"loot": _counts(state["inside"][car]), "bandits": []},
                "roof": {"loot": _counts(state["roof"][car]), "bandits": []},
            }
        )
    time_machine = None
    if state["tm"]:
        time_machine = {"loot": _counts(state["tm_loot"]), "bandits": []}

    bandits = []
    for seat in range(players):
        where = _where(state, seat, viewer, everything)
        if where["level"] == TIME_MACHINE:
            time_machine["bandits"].append(seat)
        elif where["level"] in ("inside", "roof"):
            train[where["car"]][where["level"]]["bandits"].append(seat)
        loot = state["loot"][seat]
        bandit = {
            "seat": seat,
            "character": state["characters"][seat],
            **where,
            "loot": _counts(loot),
            "bullets_left": state["bullets"][seat],
            "bullets_fired": BULLETS_PER_BANDIT - state["bullets"][seat],
            "bullets_received": state["received"][seat],
            "deck_size": len(state["deck"][seat]),
            "hand_size": len(state["hand"][seat]),
        }
        if everything or viewer == seat:
            bandit["purse_values"] = sorted(token_value(t) for t in loot if t[0] == "p")
            bandit["loot_value"] = sum(token_value(t) for t in loot)
        bandits.append(bandit)

    revealed = revealed_cards(state)
    pile = []
    for index, (seat, card, face_down, turn) in enumerate(state["pile"]):
        resolved = index < revealed
        known = not face_down or resolved or everything or viewer == seat
        pile.append(
            {
                "seat": seat,
                "face_down": face_down,
                "card": card if known else None,
                "card_label": CARD_LABELS[card] if known else None,
                "turn": turn,
                "resolved": resolved,
            }
        )

    round_card = None
    if 0 <= round_index < len(state["round_deck"]):
        card_name = state["round_deck"][round_index]
        turns = current_turns(state)
        round_card = {
            "name": card_name,
            "turns": list(turns),
            "turn_labels": [TURN_LABELS[t] for t in turns],
            "turn_index": state["turn"] if state["phase"] == "schemin" else None,
            "event": EVENT_TEXTS[card_name],
        }

    pending = state["pending"]
    shown_pending = None
    if pending is not None:
        shown_pending = {"seat": pending["seat"], "kind": pending["kind"], "card": pending["card"]}

    return {
        "game": "colt",
        "viewer": viewer,
        "players": players,
        "phase": state["phase"],
        "round": round_index + 1,
        "rounds_total": ROUNDS,
        "round_cards_left": max(0, len(state["round_deck"]) - round_index - 1),
        "round_card": round_card,
        "first_player": state["first_player"],
        "to_move": to_move(state),
        "train": train,
        "marshal": state["marshal"],
        "time_machine": time_machine,
        "bandits": bandits,
        "hand": list(state["hand"][viewer]) if viewer is not None else None,
        "pile": pile,
        "resolving": state["resolving"] if state["phase"] == "stealin" else None,
        "pending": shown_pending,
        "neutral_bullets_left": state["neutral"],
        "strongbox_in_reserve": "strongbox" in state["reserve"],
        "config": {
            **state["config"],
            "time_machine": state["tm"],
            "turn_face_down": dict(state["config"]["turn_face_down"]),
        },
        "turn_order": {
            "queue": list(state["queue"]) if state["phase"] == "schemin" else [],
            "turns_taken": list(state["turns_taken"]),
            "pickpocket_queue": list(state["pickpocket_queue"]),
        },
        "round_cards_played": list(state["round_deck"][: max(0, round_index)]),
    }
