"""The Colt Express ruleset as data: the published defaults and their validation.

A config is a flat JSON dict. ``validate_config`` reports every problem at once, each with its
path (``turn_face_down.T: must be true or false``), and returns a normalised copy.
"""

from __future__ import annotations

from typing import Any

from ..base import ConfigError
from .data import TURN_TYPES

ROUND_DECKS = ("published", "guide")
CHARACTER_SELECTIONS = ("random", "chosen")


def default_config() -> dict[str, Any]:
    """The published game: 4 round cards + 1 station, random characters, no Time Machine."""
    return {
        "time_machine": False,
        "round_deck": "published",
        "character_selection": "random",
        "two_player_cars": 2,
        "hand_size": 6,
        "doc_hand_size": 7,
        "draw_count": 3,
        # Decision (spec): normal turns face up, tunnels face down (the guide swaps them).
        "turn_face_down": {"N": False, "T": True, "S": False, "R": False},
    }


def _check_int(problems: list, path: str, value: Any, low: int, high: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        problems.append((path, f"must be an integer from {low} to {high}"))


def validate_config(config: Any) -> dict[str, Any]:
    """Check a config; raise :class:`ConfigError` listing every problem, else return a copy."""
    if not isinstance(config, dict):
        raise ConfigError([("", "must be an object")])
    problems: list[tuple[str, str]] = []
    defaults = default_config()
    for key in sorted(set(config) - set(defaults), key=str):
        problems.append((str(key), "is not a setting of Colt Express"))
    for key in defaults:
        if key not in config:
            problems.append((key, "is missing"))
    if "time_machine" in config and not isinstance(config["time_machine"], bool):
        problems.append(("time_machine", "must be true or false"))
    if "round_deck" in config and config["round_deck"] not in ROUND_DECKS:
        problems.append(("round_deck", f"must be one of {', '.join(ROUND_DECKS)}"))
    selection = config.get("character_selection")
    if "character_selection" in config and selection not in CHARACTER_SELECTIONS:
        problems.append(
            ("character_selection", f"must be one of {', '.join(CHARACTER_SELECTIONS)}")
        )
    if "two_player_cars" in config and config["two_player_cars"] not in (2, 3):
        problems.append(("two_player_cars", "must be 2 or 3"))
    if "hand_size" in config:
        _check_int(problems, "hand_size", config["hand_size"], 1, 10)
    if "doc_hand_size" in config:
        _check_int(problems, "doc_hand_size", config["doc_hand_size"], 1, 10)
    if "draw_count" in config:
        _check_int(problems, "draw_count", config["draw_count"], 1, 10)
    if "turn_face_down" in config:
        faces = config["turn_face_down"]
        if not isinstance(faces, dict):
            problems.append(("turn_face_down", "must be an object of turn type to true/false"))
        else:
            for turn in TURN_TYPES:
                if turn not in faces:
                    problems.append((f"turn_face_down.{turn}", "is missing"))
                elif not isinstance(faces[turn], bool):
                    problems.append((f"turn_face_down.{turn}", "must be true or false"))
            for turn in sorted(set(faces) - set(TURN_TYPES), key=str):
                problems.append((f"turn_face_down.{turn}", "is not a turn type (N, T, S, R)"))
    if problems:
        raise ConfigError(problems)
    normalised = dict(config)
    normalised["turn_face_down"] = dict(config["turn_face_down"])
    return normalised
