"""The engine contract shared by every game, and the small pure helpers engines build on.

An engine is a stateless object; everything about a game lives in its *state*, a plain
JSON-able dict (str keys only, lists indexed by seat, so ``from_json(to_json(s)) == s``).
Nothing in ``games.engines`` may import Django (an import-linter contract enforces it).

Contract (see ``Engine`` below for the exact signatures):

- ``default_config()`` / ``validate_config(config)`` – the ruleset as data;
  ``validate_config`` raises :class:`ConfigError` listing *every* problem with its path.
- ``setup(config, players, seed, *, first_player=None, identities=None)`` – a fresh game.
- ``to_move(state)`` – seats that must act now, ``[]`` when the game is over.
- ``legal_actions(state, seat)`` – JSON-able dicts, each with a human ``"label"``.
- ``apply(state, seat, action)`` – ``(new_state, events)``; never mutates ``state``;
  raises :class:`IllegalAction` (clear message) for anything illegal or malformed.
- ``view(state, seat)`` – what that seat may see (``None``: a spectator). Never the seed.
- ``is_over(state)`` / ``result(state)`` – ``result`` is
  ``{"ranking": [{"seat", "place", "score"}, ...] (best first; tied seats share a place),
  "scores": [score per seat], "breakdown": [dict per seat, what the end screen explains],
  "tie_break": str (how ties were settled)}``.
- ``to_json(state)`` / ``from_json(data)`` – exact round trip.
- ``timeout_action(state, seat)`` – the action the clock plays for a seat that ran out of time.
- ``bots`` – ``{name: bot}``; a bot is ``bot(engine, state, seat, rng) -> action`` where
  ``rng`` is the bot's own ``random.Random`` (never the game's). A bot decides from what its
  seat may know: the search bots (``games.engines.search``) are built so that they cannot do
  otherwise (they see ``view`` and ``legal_actions`` only).
- ``bot_levels`` – ``{level: bot name}`` for the levels of :data:`BOT_LEVELS` (``easy``:
  random-ish, ``medium``: the heuristic, ``hard``: the search), so the site offers levels and
  stores bot names (``Seat.bot_kind``) that old games keep using.
- ``identities(config)`` – the gangs / characters a seat can be given;
  ``seat_identity(state, seat)`` – the one a seat has (public).
- ``options(config)`` – the variants a table creator may switch, as
  ``[{"key", "label", "type": "bool"|"choice", "choices"?, "help"}]``; ``apply_options``
  folds chosen values into a config snapshot (validated again).

Events are dicts ``{"type": str, "text": str, "args": dict, ...}``: ``text`` is an English
message with ``%(name)s`` placeholders (marked with :func:`gettext_noop` so the site can
translate it) and ``args`` fills it. An event with ``"private_to": [seat, ...]`` may be shown
only to those seats; every other event is public.

Randomness: only :func:`rng_for` and the helpers built on ``random.Random.random()``, the one
method whose output Python promises to keep stable across versions. ``shuffle``/``choice``/
``randrange`` are not stable, so they are never used on game state.
"""

from __future__ import annotations

import hashlib
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]
Bot = Callable[[Any, State, int, random.Random], Action]

# The levels a table, a league or a simulation picks from, weakest first.
BOT_LEVELS = ("easy", "medium", "hard")


def gettext_noop(message: str) -> str:
    """Mark an English message for translation without importing Django (makemessages sees it)."""
    return message


class EngineError(Exception):
    """Base class for errors an engine raises on purpose."""


class IllegalAction(EngineError):
    """The action is not legal now (or is malformed). The state is untouched."""


class ConfigError(EngineError):
    """A ruleset config is invalid. ``problems`` is a list of ``(path, message)`` pairs."""

    def __init__(self, problems: Sequence[tuple[str, str]]):
        self.problems = list(problems)
        super().__init__("; ".join(f"{path}: {message}" for path, message in self.problems))

    def as_dict(self) -> dict[str, list[str]]:
        """Problems grouped by path, as a form would show them next to each field."""
        grouped: dict[str, list[str]] = {}
        for path, message in self.problems:
            grouped.setdefault(path, []).append(message)
        return grouped


def rng_for(seed: int | str, stream: str | int) -> random.Random:
    """A deterministic RNG for one use (one shuffle, one deal) of one game.

    The game's secret ``seed`` and a ``stream`` label (e.g. ``"round-3-deck-2"``) are hashed
    together, so each shuffle is independent of how many random numbers earlier ones drew and
    a game can be replayed from its seed on any Python version.
    """
    digest = hashlib.sha256(f"{seed}:{stream}".encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


def stable_shuffle(items: list[T], rng: random.Random) -> list[T]:
    """Fisher–Yates shuffle (in place, also returned) using only ``rng.random()``."""
    rand = rng.random
    for i in range(len(items) - 1, 0, -1):
        j = int(rand() * (i + 1))
        items[i], items[j] = items[j], items[i]
    return items


def stable_choice(items: Sequence[T], rng: random.Random) -> T:
    """Pick one item using only ``rng.random()``."""
    if not items:
        raise IndexError("cannot choose from an empty sequence")
    return items[int(rng.random() * len(items))]


def stable_randbelow(n: int, rng: random.Random) -> int:
    """An integer in ``range(n)`` using only ``rng.random()``."""
    return int(rng.random() * n)


def bot_level(engine: Engine, bot_name: str) -> str | None:
    """The level a bot plays at (``None`` for a bot no level names)."""
    return next((level for level, name in engine.bot_levels.items() if name == bot_name), None)


def bot_name(engine: Engine, name_or_level: str) -> str | None:
    """The bot a level (``"hard"``) or a bot name (``"search"``) stands for, if there is one."""
    if not isinstance(name_or_level, str):
        return None
    name = engine.bot_levels.get(name_or_level, name_or_level)
    return name if name in engine.bots else None


class Engine(ABC):
    """Base class documenting the contract; each game subclasses it and fills every method."""

    kind: str = ""
    name: str = ""
    min_players: int = 2
    max_players: int = 2
    bots: dict[str, Bot] = {}
    # The names every engine of this site uses; an engine with other bots overrides it.
    bot_levels: dict[str, str] = {"easy": "random", "medium": "heuristic", "hard": "search"}

    @abstractmethod
    def default_config(self) -> dict[str, Any]: ...

    @abstractmethod
    def validate_config(self, config: Any) -> dict[str, Any]: ...

    def options(self, config: dict[str, Any]) -> list[dict[str, Any]]:
        return []

    def apply_options(self, config: dict[str, Any], chosen: dict[str, Any]) -> dict[str, Any]:
        """A new config with the chosen option values folded in, validated again."""
        known = {option["key"] for option in self.options(config)}
        unknown = sorted(set(chosen) - known)
        if unknown:
            raise ConfigError([(key, "is not an option of this game") for key in unknown])
        merged = {**config, **chosen}
        self.validate_config(merged)
        return merged

    @abstractmethod
    def identities(self, config: dict[str, Any]) -> list[str]: ...

    @abstractmethod
    def setup(
        self,
        config: dict[str, Any],
        players: int,
        seed: int | str,
        *,
        first_player: int | None = None,
        identities: Sequence[str] | None = None,
    ) -> State: ...

    @abstractmethod
    def to_move(self, state: State) -> list[int]: ...

    @abstractmethod
    def legal_actions(self, state: State, seat: int) -> list[Action]: ...

    @abstractmethod
    def apply(self, state: State, seat: int, action: Any) -> tuple[State, list[Event]]: ...

    @abstractmethod
    def view(self, state: State, seat: int | None) -> dict[str, Any]: ...

    @abstractmethod
    def is_over(self, state: State) -> bool: ...

    @abstractmethod
    def result(self, state: State) -> dict[str, Any]: ...

    @abstractmethod
    def seat_identity(self, state: State, seat: int) -> str: ...

    @abstractmethod
    def timeout_action(self, state: State, seat: int) -> Action: ...

    @abstractmethod
    def to_json(self, state: State) -> dict[str, Any]: ...

    @abstractmethod
    def from_json(self, data: dict[str, Any]) -> State: ...
