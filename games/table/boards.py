"""Each game's board, made ready for its templates: the viewer's legal moves hung on the pieces
they act on, and the names (``data-mark`` keys) of the board's spots and pieces.

A mark key names one thing on the board the same way everywhere: a choice that names a spot
(``spot-2-roof``), a piece that moved since the member's last visit (``bandit-3``), a piece
that travels when the board changes (``data-flip``). ``games.table.catchup`` derives the changed
ones from the events with the same keys, and ``static/js/game.js`` highlights, marks and animates
them. Nothing here reads the stored state: only the engine's view for this viewer.
"""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext

from games.table.catchup import spot_key
from games.templatetags.board_labels import (
    bullets_count,
    cargo_name,
    colt_card_name,
    colt_play_face_down_label,
    colt_play_label,
    napad_send_label,
)

TO_LOCOMOTIVE = "locomotive"


# ``json.dumps(..., sort_keys=True)`` without building an encoder per call: a board keys
# every legal action (a hand's 19 buttons), and building the encoder each time is waste.
_CANONICAL = json.JSONEncoder(sort_keys=True)


def action_key(action: dict[str, Any]) -> str:
    """An action as canonical JSON without its label: what the buttons post."""
    return _CANONICAL.encode({k: v for k, v in action.items() if k != "label"})


# --- To jest napad! ---------------------------------------------------------------------


class _CargoNames(dict):
    """Each cargo named once per board (a late board holds 15–25 played cards and a hand of up
    to 9, of 3 cargoes): a name is a translation lookup."""

    def __missing__(self, cargo: Any) -> Any:
        name = self[cargo] = cargo_name(cargo)
        return name


def napad_hand_named(hand: list[dict[str, Any]], cargo_names: dict | None = None) -> list:
    """Name each half of a hand's cards for the template (games/napad/cards.html hand_card):
    its cargo, and its bullets ("2 bullets") when it has some. The replay's every hand too."""
    names = _CargoNames() if cargo_names is None else cargo_names
    for card in hand:
        for half in card["halves"]:
            half["cargo_name"] = names[half.get("cargo")]
            half["bullets_label"] = bullets_count(half["bullets"]) if half.get("bullets") else ""
    return hand


def napad_decorate(view: dict[str, Any], legal: dict[str, dict[str, Any]]) -> bool:
    """Group played cards by colour (each named for screen readers: "gold 6 up", its other half
    marked down), name the halves of my hand and hang the legal play on each.

    Returns True: every legal action has its button on the board."""
    up_label = gettext("%(cargo)s %(value)s up")
    cargo_names = _CargoNames()
    for seat in view["seats"]:
        by_colour: dict[str, list[dict[str, Any]]] = {}
        cargo_of: dict[str, Any] = {}
        for card in seat["played"]:
            colour = card["colour"]
            for half in card["halves"]:
                half["down"] = half["colour"] != colour
            for half in card["halves"]:
                if half["colour"] == colour:
                    cargo = half["cargo"]
                    card["label"] = up_label % {"cargo": cargo_names[cargo], "value": half["value"]}
                    cargo_of.setdefault(colour, cargo)
                    break
            by_colour.setdefault(colour, []).append(card)
        seat["played_by_colour"] = [
            {
                "colour": colour,
                "cargo": cargo_of[colour],
                "cards": by_colour[colour],
                "total": seat["totals"][colour],
            }
            for colour in ("yellow", "red", "green")
            if colour in by_colour
        ]
    for card in napad_hand_named(view.get("hand") or [], cargo_names):
        for half in card["halves"]:
            key = action_key({"type": "play", "card": card["id"], "colour": half["colour"]})
            half["action"] = key if key in legal else None
            if half["action"]:
                half["send_label"] = napad_send_label(half)
    pass_key = action_key({"type": "pass"})
    view["pass_action"] = pass_key if pass_key in legal else None
    view["is_my_turn"] = bool(legal)
    # The hand is the decision all game long: it comes first, right below the status bar.
    view["hand_first"] = view.get("hand") is not None
    return True


# --- Colt Express -----------------------------------------------------------------------


def _spot_of(bandit: dict[str, Any]) -> str | None:
    if bandit["level"] in ("inside", "roof", "time_machine"):
        return spot_key(bandit["car"], bandit["level"])
    return None


def _punched_to(victim: dict[str, Any], direction: str) -> str | None:
    """Where a punch sends a bandit: one car along the train, the same level; off the
    locomotive's front is the Time Machine, and out of it the locomotive's inside."""
    car, level = victim["car"], victim["level"]
    if level == "time_machine":
        return spot_key(0, "inside")
    if level not in ("inside", "roof") or car is None:
        return None
    target = car - 1 if direction == TO_LOCOMOTIVE else car + 1
    return "spot-tm" if target < 0 else spot_key(target, level)


def colt_choice_marks(view: dict[str, Any], action: dict[str, Any]) -> str:
    """The board's spots and bandits a Stealin' (or hideout, pickpocket) choice names."""
    bandits = view["bandits"]
    kind = action.get("type")
    me = view.get("viewer")
    mine = bandits[me] if isinstance(me, int) and 0 <= me < len(bandits) else None
    marks: list[str | None] = []
    if kind in ("move", "floor"):
        to = action.get("to") or {}
        marks.append(spot_key(to.get("car"), to.get("level")))
    elif kind == "fire":
        marks.append(f"bandit-{action.get('target')}")
    elif kind in ("rob", "pickpocket") and mine is not None:
        marks.append(_spot_of(mine))
    elif kind == "punch":
        victim = action.get("victim")
        if isinstance(victim, int) and 0 <= victim < len(bandits):
            marks += [f"bandit-{victim}", _punched_to(bandits[victim], action.get("direction"))]
    elif kind == "marshal":
        step = -1 if action.get("direction") == TO_LOCOMOTIVE else 1
        marks += ["marshal", spot_key(view["marshal"] + step, "inside")]
    elif kind == "hide":
        marks.append(f"car-{action.get('car')}")
    return " ".join(mark for mark in marks if mark)


def colt_card_named(card: str) -> dict[str, Any]:
    """A card of a hand as games/colt/cards.html card_face shows it: its name, and whether it
    is a bullet (the table's hand and the replay's every hand)."""
    return {"card": card, "name": colt_card_name(card), "is_bullet": card.startswith("bullet:")}


def colt_decorate(view: dict[str, Any], legal: dict[str, dict[str, Any]]) -> bool:
    """Put bandits (with names) into the spots they stand in, the pile's owners on the pile,
    and the legal Schemin' plays (each with its button's label) on the cards of my hand.

    Returns True when every legal action got its button on the board (Schemin'); Stealin'
    choices are left to the page's list of actions."""
    bandits = view["bandits"]
    # Whose row of the bandits' table (#bandit_row) is the viewer's, first to play, to move:
    # a row then shows only its bandit's data, the key its cached fragment is kept under.
    playing = view["phase"] != "over"
    to_move = view.get("to_move") or ()
    for bandit in bandits:
        bandit["css"] = bandit["character"].lower()
        bandit["is_viewer"] = bandit["seat"] == view.get("viewer")
        bandit["is_first"] = playing and bandit["seat"] == view.get("first_player")
        bandit["is_to_move"] = playing and bandit["seat"] in to_move
    # A bandit standing in a spot shows only who it is: the car holds just that, so a car's
    # data (the key of its cached fragment, games/colt/board.html) changes only when someone
    # moves in or out, not with a hand or a bullet.
    standing = [
        {key: bandit.get(key) for key in ("seat", "css", "character", "name")} for bandit in bandits
    ]
    for car in view["train"]:
        for level in ("inside", "roof"):
            car[level]["bandits"] = [standing[seat] for seat in car[level]["bandits"]]
            car[level]["mark"] = spot_key(car["index"], level)
    if view.get("time_machine"):
        view["time_machine"]["bandits"] = [
            standing[seat] for seat in view["time_machine"]["bandits"]
        ]
    view["hidden_bandits"] = [b for b in bandits if b["level"] == "hidden" and b["car"] is None]
    hiding = next((b for b in bandits if b["level"] == "hidden" and b["car"] is not None), None)
    view["my_hidden_spot"] = view["train"][hiding["car"]] if hiding else None
    pending = view.get("pending")
    current = pending.get("card") if pending else view.get("resolving")
    for index, card in enumerate(view["pile"]):
        card["bandit"] = standing[card["seat"]]
        card["is_resolving"] = current == index
        card["index"] = index
    if pending:
        pending["bandit"] = standing[pending["seat"]]
        pile_index = pending.get("card")
        if isinstance(pile_index, int) and 0 <= pile_index < len(view["pile"]):
            pending["pile_card"] = view["pile"][pile_index]
    placed = set()
    hand = []
    for position, card in enumerate(view.get("hand") or []):
        entry = {**colt_card_named(card), "plays": [], "position": position}
        for face_down in (False, True):
            key = action_key({"type": "play", "card": card, "face_down": face_down})
            if key in legal:
                label = colt_play_face_down_label(card) if face_down else colt_play_label(card)
                entry["plays"].append(
                    {
                        "json": key,
                        "face_down": face_down,
                        "label": label,
                        "first": not entry["plays"],
                    }
                )
                placed.add(key)
        hand.append(entry)
    view["hand_cards"] = hand
    draw_key = action_key({"type": "draw"})
    view["draw_action"] = draw_key if draw_key in legal else None
    if view["draw_action"]:
        placed.add(draw_key)
    view["is_my_turn"] = bool(legal)
    # In Schemin' the hand is the decision; in Stealin' the cards are on the pile and the
    # hand waits below the board.
    view["hand_first"] = view.get("hand") is not None and view["phase"] == "schemin"
    return bool(legal) and placed == set(legal)


def hand_named(kind: str, hand: list) -> list:
    """A seat's hand as the replay's "every hand" shows it (games/<kind>/hands.html), its cards
    named as the table's hand names them."""
    if kind == "napad":
        return napad_hand_named(hand)
    return [colt_card_named(card) for card in hand]


DECORATORS = {"napad": napad_decorate, "colt": colt_decorate}
CHOICE_MARKS = {"colt": colt_choice_marks}
