"""Bots as the site offers them: three levels over the engines' bot names.

A level is what people choose (a table's bot seat, a league's stand-in, a balance simulation);
the bot's name (``engine.bot_levels[level]``) is what a ``Seat`` stores in ``bot_kind``, so the
seats of games created before levels existed ("random", "heuristic") keep their bots.

- easy — ``random``: any legal move;
- medium — ``heuristic``: plays by simple rules of thumb;
- hard — ``search``: samples what it cannot see and plays many games ahead
  (``games.engines.search``).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from games.engines.base import BOT_LEVELS, Engine, bot_level, bot_name

LEVEL_LABELS = {"easy": _("easy"), "medium": _("medium"), "hard": _("hard")}
LEVEL_HELP = {
    "easy": _("plays any legal move"),
    "medium": _("plays by simple rules of thumb"),
    "hard": _("thinks ahead: plays hundreds of possible games before each move"),
}
# A level any table can use when nothing else is said (the stand-in of a clock or a moderator).
DEFAULT_STAND_IN_LEVEL = "medium"


def level_of(engine: Any, bot_kind: str) -> str | None:
    """The level of a stored bot name (``None`` for a bot no level names)."""
    return bot_level(engine, bot_kind)


def bot_kind_for(engine: Any, name_or_level: str) -> str | None:
    """The bot name to store for a level (``"hard"``) or a bot name (``"search"``)."""
    return bot_name(engine, name_or_level)


def level_label(level: str | None, bot_kind: str = "") -> str:
    return str(LEVEL_LABELS[level]) if level in LEVEL_LABELS else bot_kind


def bot_choices(engine: Any) -> list[tuple[str, str]]:
    """``(bot name, "bot: hard")`` for each level the engine has, weakest first."""
    return [
        (engine.bot_levels[level], _("bot: %(kind)s") % {"kind": LEVEL_LABELS[level]})
        for level in BOT_LEVELS
        if bot_kind_for(engine, level)
    ]


def bots_described(engine: Any) -> list[dict[str, str]]:
    """The engine's bots for the API: name, level and what the level means."""
    rows = []
    for level in BOT_LEVELS:
        name = bot_kind_for(engine, level)
        if name is not None:
            rows.append({"name": name, "level": level, "description": str(LEVEL_HELP[level])})
    return rows


def seat_bot_label(bot_kind: str) -> str:
    """How a bot's seat is named at the table: "Bot (hard)". Both engines name their levels'
    bots alike (``Engine.bot_levels``), so a seat needs no engine (nor its game) for it."""
    return _("Bot (%(kind)s)") % {"kind": bot_level_label(bot_kind)}


def bot_level_label(bot_kind: str) -> str:
    """A stored bot name's level, in the reader's language ("hard"); an unknown bot's name."""
    return level_label(level_of(Engine, bot_kind), bot_kind)
