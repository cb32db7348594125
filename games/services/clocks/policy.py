"""What a table's clock does: reminder points, timeouts before a bot takes over, "+24 h".

Club-wide defaults come from settings (``NAPAD_REMINDER_POINTS``, ``NAPAD_TIMEOUTS_TO_BOT``,
``NAPAD_EXTENSION_HOURS``); a game (e.g. one created for a league fixture) may override them in
``Game.options["clock"]`` — ``{"reminder_points": [50, 80, 95], "timeouts_to_bot": 3,
"stand_in_level": "hard"}`` — set with ``clock_policy_set``
(games/services/clocks/deadlines.py) after ``game_create`` (the
engine never sees that key). ``stand_in_level`` is the level (``games.text.bots``) of the bot that
takes a seat after repeated timeouts and the one a moderator is offered first.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings

from games.models import Game
from games.text.bots import DEFAULT_STAND_IN_LEVEL, LEVEL_LABELS

DEFAULT_REMINDER_POINTS = (50, 80, 95)
DEFAULT_TIMEOUTS_TO_BOT = 3
DEFAULT_EXTENSION_HOURS = 24


@dataclass(frozen=True)
class ClockPolicy:
    # Percentages of the turn time after which a reminder goes out, ascending.
    reminder_points: tuple[int, ...]
    # Consecutive timeouts after which the seat is handed to a bot (0: never).
    timeouts_to_bot: int
    extension_hours: int
    # The level of the bot that takes over a seat (easy / medium / hard).
    stand_in_level: str = DEFAULT_STAND_IN_LEVEL


def reminder_points_clean(value) -> tuple[int, ...]:
    points = sorted({int(point) for point in value if 0 < int(point) < 100})
    return tuple(points)


def clock_policy(game: Game) -> ClockPolicy:
    override = (game.options or {}).get("clock") or {}
    points = override.get(
        "reminder_points", getattr(settings, "NAPAD_REMINDER_POINTS", DEFAULT_REMINDER_POINTS)
    )
    timeouts = override.get(
        "timeouts_to_bot", getattr(settings, "NAPAD_TIMEOUTS_TO_BOT", DEFAULT_TIMEOUTS_TO_BOT)
    )
    hours = getattr(settings, "NAPAD_EXTENSION_HOURS", DEFAULT_EXTENSION_HOURS)
    level = override.get("stand_in_level")
    return ClockPolicy(
        reminder_points=reminder_points_clean(points),
        timeouts_to_bot=max(0, int(timeouts)),
        extension_hours=hours,
        stand_in_level=level if level in LEVEL_LABELS else DEFAULT_STAND_IN_LEVEL,
    )
