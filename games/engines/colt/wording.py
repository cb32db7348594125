"""Colt Express's words: places on the train as phrases, its game terms, and how its log reads
(a ``base.Wording``).

A place is said differently after "moves" (to the roof of car E), "stands" (on the roof of
car E) and "hides" (under car E), and other languages inflect each differently, so each form
is its own phrase. Car names are letters, said as they are. ``docs/glossary.md`` lists every
term with its Polish and Portuguese (the rulebooks' own words).
"""

from __future__ import annotations

from typing import Any

from ..base import Phrase, Wording, phrase, plural_noop
from ..base import gettext_noop as _
from .data import (
    CARD_LABELS,
    EVENT_TEXTS,
    INSIDE,
    LOOT_LABELS,
    ROUND_CARDS,
    STATION_CARDS,
    TIME_MACHINE,
    TURN_LABELS,
)

ROUND_CARD_NAMES = {
    "Angry Marshal": _("Angry Marshal"),
    "Swivel Arm": _("Swivel Arm"),
    "Braking": _("Braking"),
    "Take It All!": _("Take It All!"),
    "Passengers' Rebellion": _("Passengers' Rebellion"),
    "Tunnels": _("Tunnels"),
    "Speed-up": _("Speed-up"),
    "Marshal's Revenge": _("Marshal's Revenge"),
    "Pickpocketing": _("Pickpocketing"),
    "Hostage-Taking of the Conductor": _("Hostage-Taking of the Conductor"),
}
assert set(ROUND_CARD_NAMES) == set(ROUND_CARDS) | set(STATION_CARDS)
BULLET_LABEL = _("a bullet")
CAUSES = {"the marshal": _("the marshal"), "the passengers": _("the passengers")}
PHASE_NAMES = {
    "schemin": _("Schemin'"),
    "stealin": _("Stealin'"),
    "round_end": _("End of the round"),
    "time_machine": _("Time Machine"),
    "end": _("End of the game"),
    # The state's own phases that the log has no heading for (the board names them).
    "pickpocket": _("Pickpocketing"),
    "hide": _("Time Machine"),
    "over": _("game over"),
}

# --- places ----------------------------------------------------------------------------------


def _car(cars: list[str], car: int) -> str:
    return cars[car]


def place_to(cars: list[str], car: int, level: str) -> Phrase:
    """Where a bandit goes: "onto the roof of car E", "into the locomotive"."""
    if level == TIME_MACHINE:
        return phrase(_("into the Time Machine"))
    if level == INSIDE:
        if car == 0:
            return phrase(_("into the locomotive"))
        return phrase(_("into car %(car)s"), car=_car(cars, car))
    if car == 0:
        return phrase(_("onto the roof of the locomotive"))
    return phrase(_("onto the roof of car %(car)s"), car=_car(cars, car))


def place_at(cars: list[str], car: int, level: str) -> Phrase:
    """Where something is: "on the roof of car E", "inside the locomotive"."""
    if level == TIME_MACHINE:
        return phrase(_("in the Time Machine"))
    if level == INSIDE:
        if car == 0:
            return phrase(_("inside the locomotive"))
        return phrase(_("inside car %(car)s"), car=_car(cars, car))
    if car == 0:
        return phrase(_("on the roof of the locomotive"))
    return phrase(_("on the roof of car %(car)s"), car=_car(cars, car))


def under_car(cars: list[str], car: int) -> Phrase:
    """Where a time traveller hides: "under car E", "under the locomotive"."""
    if car == 0:
        return phrase(_("under the locomotive"))
    return phrase(_("under car %(car)s"), car=_car(cars, car))


# The same places in English, as plain strings: what an event's ``args`` keep (built on the
# engine's hot path, where a phrase would cost more; a test checks they say the same).


def place_to_english(car: int, name: str, level: str) -> str:
    if level == TIME_MACHINE:
        return "into the Time Machine"
    if level == INSIDE:
        return "into the locomotive" if car == 0 else f"into car {name}"
    return "onto the roof of the locomotive" if car == 0 else f"onto the roof of car {name}"


def place_at_english(car: int, name: str, level: str) -> str:
    if level == TIME_MACHINE:
        return "in the Time Machine"
    if level == INSIDE:
        return "inside the locomotive" if car == 0 else f"inside car {name}"
    return "on the roof of the locomotive" if car == 0 else f"on the roof of car {name}"


def under_english(car: int, name: str) -> str:
    return "under the locomotive" if car == 0 else f"under car {name}"


def card_english(card: str) -> str:
    return BULLET_LABEL if card[0] == "b" else CARD_LABELS[card]


def derived_terms(event: dict[str, Any]) -> dict[str, Any]:
    """An event's places, cards and turns as phrases, from the arguments the event keeps
    (``car``, ``car_name``, ``level``, ``drawn``, ``turn_types``): built only when the site
    says the event."""
    args = event.get("args") or {}
    terms: dict[str, Any] = {}
    car, name = args.get("car"), args.get("car_name")
    if isinstance(car, int) and isinstance(name, str):
        cars = {car: name}
        level = args.get("level") or INSIDE  # the marshal and the strongbox: inside a car
        if "to_place" in args:
            terms["to_place"] = place_to(cars, car, level)
        if "at_place" in args:
            terms["at_place"] = place_at(cars, car, level)
        if "under" in args:
            terms["under"] = under_car(cars, car)
    drawn = args.get("drawn")
    if isinstance(drawn, list) and "cards" in args:
        terms["cards"] = [card_phrase(card) for card in drawn if isinstance(card, str)]
    turns = args.get("turn_types")
    if isinstance(turns, list) and "turns" in args:
        terms["turns"] = [phrase(TURN_LABELS[turn]) for turn in turns if turn in TURN_LABELS]
    return terms


def card_phrase(card: str) -> Phrase:
    """An action card as printed ("Robbery"); every bullet card is "a bullet"."""
    return phrase(BULLET_LABEL if card[0] == "b" else CARD_LABELS[card])


def _identity(values: Any) -> dict[str, str]:
    """Terms whose English value is the marked message itself (labels kept in the events)."""
    return {value: value for value in values if value}


WORDING = Wording(
    terms={
        "card": {**CARD_LABELS, **ROUND_CARD_NAMES},
        "card_label": _identity(CARD_LABELS.values()),
        "loot_label": _identity(LOOT_LABELS.values()),
        "why": CAUSES,
        "event_text": _identity(EVENT_TEXTS.values()),
        "turn": TURN_LABELS,
    },
    seat_args={
        "name": "seat",
        "target_name": "target",
        "victim_name": "victim",
        "first": "first_player",
    },
    phases={
        "round_started": "schemin",
        "card_played": "schemin",
        "card_played_secret": "schemin",
        "draw": "schemin",
        "schemin_over": "stealin",
        "card_resolved": "stealin",
        "nothing_happens": "stealin",
        "reappears": "stealin",
        "round_event": "round_end",
        "bandit_moved": "round_end",
        "strongbox_placed": "round_end",
        "purse_lost": "round_end",
        "ransom": "round_end",
        "pickpocket": "round_end",
        "pickpocket_declined": "round_end",
        "round_over": "round_end",
        "time_travel": "time_machine",
        "hidden": "time_machine",
        "hideout": "time_machine",
        "time_machine_bonus": "end",
        "game_over": "end",
    },
    phase_names=PHASE_NAMES,
    round_starts={"round_started": "number"},
    others_texts={
        "cards_drawn": _("%(who)s draws %(cards)s."),
        "card_played_secret": _("%(who)s plays %(card)s face down."),
        "purse_value": _("The purse %(who)s takes holds $%(value)s."),
        "hideout": _("%(who)s hides %(under)s."),
    },
    legacy_texts={
        "%(name)s draws %(count)s cards.": plural_noop(
            "%(name)s draws %(count)s card.", "%(name)s draws %(count)s cards."
        ),
        "%(name)s is alone in the Time Machine: $500 and %(count)s loot tokens.": plural_noop(
            "%(name)s is alone in the Time Machine: $500 and %(count)s loot token.",
            "%(name)s is alone in the Time Machine: $500 and %(count)s loot tokens.",
        ),
    },
    derive_terms=derived_terms,
)
