"""The To jest napad! ruleset as data: the designed default config and its validation.

A config is a plain JSON-able dict an organiser edits in the admin. ``validate_config``
checks every field and reports *every* problem with a path such as
``gang_cards[3][1][1]: must be 2..7``, then returns a normalised copy with the optional
settings filled in.
"""

from __future__ import annotations

import json
from typing import Any

from ..base import ConfigError, phrase
from ..base import gettext_noop as _

COLOURS = ("yellow", "red", "green")
# Each wagon cargo belongs to one colour of gang-card halves.
CARGOES = ("gold", "dynamite", "money")
CARGO_OF_COLOUR = dict(zip(COLOURS, CARGOES))

GANGS_IN_BOX = 4
CARDS_PER_GANG = 15
WAGONS_PER_CARGO = 6
CARD_VALUES = (2, 7)
CARD_BULLETS = (0, 9)
WAGON_VALUES = (1, 10)
WAGON_BULLETS = (0, 9)

CARD_DATA_NOTE = (
    "Designed default card data: the published card-by-card values are not known, so every "
    "gang has the same balanced deck (each colour has 10 halves worth 2,3,3,4,4,5,5,6,6,7) and "
    "each cargo has wagons 2,2,3,3,4,5. This is not the published card list; replace the "
    "numbers with your copy's."
)


def _half(colour: str, value: int, bullets: int) -> list[Any]:
    return [colour, value, bullets]


# napad_default_cards.json from the shared rules: five cards for each pair of colours, the
# low half of one colour paired with the high half of the next, so no colour is stronger.
DEFAULT_GANG_CARDS: list[list[list[Any]]] = [
    [_half("yellow", 2, 2), _half("red", 7, 0)],
    [_half("yellow", 3, 2), _half("red", 6, 0)],
    [_half("yellow", 4, 1), _half("red", 4, 1)],
    [_half("yellow", 5, 1), _half("red", 5, 1)],
    [_half("yellow", 6, 0), _half("red", 3, 2)],
    [_half("red", 2, 2), _half("green", 7, 0)],
    [_half("red", 3, 2), _half("green", 6, 0)],
    [_half("red", 4, 1), _half("green", 4, 1)],
    [_half("red", 5, 1), _half("green", 5, 1)],
    [_half("red", 6, 0), _half("green", 3, 2)],
    [_half("green", 2, 2), _half("yellow", 7, 0)],
    [_half("green", 3, 2), _half("yellow", 6, 0)],
    [_half("green", 4, 1), _half("yellow", 4, 1)],
    [_half("green", 5, 1), _half("yellow", 5, 1)],
    [_half("green", 6, 0), _half("yellow", 3, 2)],
]

_DEFAULT_CONFIG: dict[str, Any] = {
    "card_data_note": CARD_DATA_NOTE,
    "gangs": ["cowboys", "mexicans", "deserters", "indians"],
    "gang_cards": DEFAULT_GANG_CARDS,
    # Optional per-gang decks: {"indians": [15 cards]}; a gang not listed uses gang_cards.
    "gang_decks": {},
    "wagons": {cargo: [2, 2, 3, 3, 4, 5] for cargo in CARGOES},
    "wagon_bullets": {cargo: [0] * WAGONS_PER_CARGO for cargo in CARGOES},
    "rounds": 6,
    "hand_size": 5,
    "reinforcements": 2,
    "variant_a_bullets": False,
    "variant_b_twos": False,
    "public_captures": False,
}

REQUIRED_KEYS = ("gangs", "gang_cards", "wagons", "rounds", "hand_size", "reinforcements")
VARIANT_FLAGS = ("variant_a_bullets", "variant_b_twos", "public_captures")
# (low, high, why) for the small integer settings.
INTEGER_SETTINGS = {
    "rounds": (1, 6, "each round takes one wagon from each stack of 6"),
    "hand_size": (1, CARDS_PER_GANG, "cards dealt from the hideout at the start"),
    "reinforcements": (0, CARDS_PER_GANG, "cards drawn after each round"),
}


def _copy(data: Any) -> Any:
    # Config data is plain JSON, so a JSON round trip copies it, more cheaply than deepcopy.
    return json.loads(json.dumps(data))


def default_config() -> dict[str, Any]:
    """A fresh copy of the designed default ruleset (safe for the caller to edit)."""
    return _copy(_DEFAULT_CONFIG)


def _is_int(value: Any) -> bool:
    # bool is an int subclass, but True is not a card value.
    return isinstance(value, int) and not isinstance(value, bool)


class _Problems:
    """Collects (path, message) pairs so one ConfigError can name all of them."""

    def __init__(self) -> None:
        self.items: list[tuple[str, dict[str, Any]]] = []

    def add(self, path: str, message: str, **args: Any) -> None:
        """``message`` is marked English that ``args`` fill (the admin translates it)."""
        self.items.append((path, phrase(message, **args)))

    def integer(self, path: str, value: Any, low: int, high: int) -> None:
        if not _is_int(value):
            self.add(path, _("must be a whole number %(low)s..%(high)s"), low=low, high=high)
        elif not low <= value <= high:
            self.add(path, _("must be %(low)s..%(high)s"), low=low, high=high)


def _check_deck(problems: _Problems, path: str, deck: Any) -> None:
    if not isinstance(deck, list):
        problems.add(path, _("must be a list of %(count)s cards"), count=CARDS_PER_GANG)
        return
    if len(deck) != CARDS_PER_GANG:
        problems.add(
            path,
            _("must have %(count)s cards, not %(found)s"),
            count=CARDS_PER_GANG,
            found=len(deck),
        )
    for index, card in enumerate(deck):
        _check_card(problems, f"{path}[{index}]", card)


def _check_card(problems: _Problems, path: str, card: Any) -> None:
    if not isinstance(card, list) or len(card) != 2:
        problems.add(
            path, _("must be two halves [[colour, value, bullets], [colour, value, bullets]]")
        )
        return
    colours = []
    for side, half in enumerate(card):
        half_path = f"{path}[{side}]"
        if not isinstance(half, list) or len(half) != 3:
            problems.add(half_path, _("must be [colour, value, bullets]"))
            continue
        colour, value, bullets = half
        if colour not in COLOURS:
            problems.add(f"{half_path}[0]", _("must be one of %(names)s"), names=", ".join(COLOURS))
        else:
            colours.append(colour)
        problems.integer(f"{half_path}[1]", value, *CARD_VALUES)
        problems.integer(f"{half_path}[2]", bullets, *CARD_BULLETS)
    if len(colours) == 2 and colours[0] == colours[1]:
        problems.add(
            path,
            _("both halves are %(colour)s; a card's halves must differ in colour"),
            colour=colours[0],
        )


def _check_per_cargo(problems: _Problems, key: str, data: Any, low: int, high: int) -> None:
    if not isinstance(data, dict):
        problems.add(key, _("must map each cargo (%(names)s) to a list"), names=", ".join(CARGOES))
        return
    for cargo in data:
        if cargo not in CARGOES:
            problems.add(
                f"{key}.{cargo}", _("is not a cargo (use %(names)s)"), names=", ".join(CARGOES)
            )
    for cargo in CARGOES:
        path = f"{key}.{cargo}"
        if cargo not in data:
            problems.add(path, _("is required"))
            continue
        values = data[cargo]
        if not isinstance(values, list):
            problems.add(path, _("must be a list of %(count)s numbers"), count=WAGONS_PER_CARGO)
            continue
        if len(values) != WAGONS_PER_CARGO:
            problems.add(
                path,
                _("must have %(count)s wagons, not %(found)s"),
                count=WAGONS_PER_CARGO,
                found=len(values),
            )
        for index, value in enumerate(values):
            problems.integer(f"{path}[{index}]", value, low, high)


def validate_config(config: Any) -> dict[str, Any]:
    """Check a ruleset; raise ConfigError naming every problem, else return it normalised."""
    problems = _Problems()
    if not isinstance(config, dict):
        raise ConfigError([("config", phrase(_("must be an object of settings")))])

    for key in config:
        if key not in _DEFAULT_CONFIG:
            problems.add(str(key), _("is not a setting of To jest napad!"))
    for key in REQUIRED_KEYS:
        if key not in config:
            problems.add(key, _("is required"))

    gangs = config.get("gangs")
    known_gangs: set[str] = set()
    if "gangs" in config:
        if not isinstance(gangs, list) or not all(isinstance(g, str) and g for g in gangs):
            problems.add("gangs", _("must be a list of gang names"))
        else:
            known_gangs = set(gangs)
            if len(gangs) != GANGS_IN_BOX:
                problems.add(
                    "gangs",
                    _("must list %(count)s gangs, not %(found)s"),
                    count=GANGS_IN_BOX,
                    found=len(gangs),
                )
            if len(known_gangs) != len(gangs):
                problems.add("gangs", _("must not repeat a gang"))

    if "gang_cards" in config:
        _check_deck(problems, "gang_cards", config["gang_cards"])

    gang_decks = config.get("gang_decks", {})
    if not isinstance(gang_decks, dict):
        problems.add("gang_decks", _("must map gang names to their 15 cards"))
    else:
        for gang, deck in gang_decks.items():
            if known_gangs and gang not in known_gangs:
                problems.add(f"gang_decks.{gang}", _("is not one of the gangs"))
            _check_deck(problems, f"gang_decks.{gang}", deck)

    if "wagons" in config:
        _check_per_cargo(problems, "wagons", config["wagons"], *WAGON_VALUES)
    if "wagon_bullets" in config:
        _check_per_cargo(problems, "wagon_bullets", config["wagon_bullets"], *WAGON_BULLETS)

    for key, (low, high, _why) in INTEGER_SETTINGS.items():
        if key in config:
            problems.integer(key, config[key], low, high)
    for key in VARIANT_FLAGS:
        if key in config and not isinstance(config[key], bool):
            problems.add(key, _("must be true or false"))
    if "card_data_note" in config and not isinstance(config["card_data_note"], str):
        problems.add("card_data_note", _("must be text"))

    if problems.items:
        raise ConfigError(problems.items)
    return _copy({key: config.get(key, value) for key, value in _DEFAULT_CONFIG.items()})


def deck_for(config: dict[str, Any], gang: str) -> list[list[list[Any]]]:
    """The 15 cards of one gang: its own deck if the config gives one, else the shared cards."""
    return config["gang_decks"].get(gang, config["gang_cards"])
