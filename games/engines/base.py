"""The engine contract shared by every game, and the small pure helpers engines build on.

An engine is a stateless object; everything about a game lives in its *state*, a plain
JSON-able dict (str keys only, lists indexed by seat, so ``from_json(to_json(s)) == s``).
Nothing in ``games.engines`` may import Django (an import-linter contract enforces it).

Contract (see ``Engine`` below for the exact signatures):

- ``default_config()`` / ``validate_config(config)`` – the ruleset as data;
  ``validate_config`` raises :class:`ConfigError` listing *every* problem with its path.
- ``setup(config, players, seed, *, first_player=None, identities=None)`` – a fresh game.
- ``to_move(state)`` – seats that must act now, ``[]`` when the game is over.
- ``legal_actions(state, seat)`` – JSON-able dicts, each with a human ``"label"`` (English);
  ``action_phrase(state, seat, action)`` – the same label as a phrase, for other languages.
- ``apply(state, seat, action)`` – ``(new_state, events)``; never mutates ``state``;
  raises :class:`IllegalAction` (clear message) for anything illegal or malformed.
- ``view(state, seat)`` – what that seat may see (``None``: a spectator). Never the seed.
- ``is_over(state)`` / ``result(state)`` – ``result`` is
  ``{"ranking": [{"seat", "place", "score"}, ...] (best first; tied seats share a place),
  "scores": [score per seat], "breakdown": [dict per seat, what the end screen explains],
  "tie_break": str (how ties were settled)}``; ``result_notes(state)`` – the tie-break as
  phrases, for other languages.
- ``to_json(state)`` / ``from_json(data)`` – exact round trip; ``from_stored(data)`` /
  ``to_stored(state)`` – the same for a dict handed over whole (just decoded from the
  database, or a move's new state about to be written, held by nothing else): checked as
  ``from_json`` checks it, not copied.
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
  ``[{"key", "label", "type": "bool"|"choice", "choices"?, "help"}]`` (labels and help marked
  for translation); ``apply_options`` folds chosen values into a config snapshot (validated
  again).
- ``wording`` – a :class:`Wording`: the game's terms and how its log reads (see below).

Events are dicts ``{"type": str, "text": str, "args": dict, ...}``: ``text`` is an English
message with ``%(name)s`` placeholders (marked with :func:`gettext_noop` so the site can
translate it) and ``args`` fills it. An event with ``"private_to": [seat, ...]`` may be shown
only to those seats; every other event is public. So that the site can say an event in any
language (see ``games/text/wording.py``), an event may also carry:

- ``"plural"``: the English plural of ``text``, chosen by ``args["count"]`` (``ngettext``);
- ``"terms"``: ``{arg: phrase}`` for arguments that are made of words — a :func:`phrase`
  (``{"text", "args"}``, nested as deep as needed), a list of phrases (said as a list) or a
  seat reference ``{"seat", "identity"}``. ``args[arg]`` keeps the English, so
  ``text % args`` always reads right.

Each engine's ``wording`` (a :class:`Wording`) tells the site the rest: which argument values
are game terms to translate (card kinds, cargo, gangs...), which arguments name a seat, the
phase each event belongs to, how a private line reads to the other seats after the end.
Labels of actions (``action_phrase``) and the messages of :class:`IllegalAction` and
:class:`ConfigError` are phrases too.

Randomness: only :func:`rng_for` and the helpers built on ``random.Random.random()``, the one
method whose output Python promises to keep stable across versions. ``shuffle``/``choice``/
``randrange`` are not stable, so they are never used on game state.
"""

from __future__ import annotations

import hashlib
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
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


def plural_noop(singular: str, plural: str) -> dict[str, str]:
    """Mark an English message and its plural for translation as one (``ngettext``, chosen
    by ``args["count"]``): ``{"text": singular, "plural": plural}``, to spread into
    :func:`phrase` or an event (the club's makemessages knows this keyword)."""
    return {"text": singular, "plural": plural}


# --- phrases: words the site can say in any language ---------------------------------------

Phrase = dict[str, Any]


def phrase(text: str, plural: str | None = None, **args: Any) -> Phrase:
    """An English message (marked with ``gettext_noop``) and its arguments, as plain data.

    With ``plural``, ``args["count"]`` chooses between the two (``ngettext`` on the site).
    Arguments may themselves be phrases, lists of phrases or seat references."""
    made: Phrase = {"text": text, "args": args}
    if plural is not None:
        made["plural"] = plural
    return made


def seat_ref(seat: int, identity: str) -> dict[str, Any]:
    """A seat named in a phrase: the site says it with the member's name and the identity."""
    return {"seat": seat, "identity": identity}


def is_phrase(value: Any) -> bool:
    return isinstance(value, dict) and "text" in value


def english(value: Any) -> Any:
    """A phrase (or list, or seat reference) said in English; anything else as it is."""
    # Exact type checks and a flat fast path: events are built on the simulator's hot path.
    kind = type(value)
    if kind is dict:
        text = value.get("text")
        if text is None:
            if "seat" in value:
                return str(value.get("identity", value["seat"]))
            return value
        args = value.get("args")
        if not args:
            return text
        if value.get("plural") and args.get("count") != 1:
            text = value["plural"]
        said = args
        for arg in args.values():
            if type(arg) in (dict, list):
                said = {key: english(arg) for key, arg in args.items()}
                break
        try:
            return text % said
        except (KeyError, TypeError, ValueError):
            return text
    if kind is list:
        return ", ".join([str(english(item)) for item in value])
    return value


def with_terms(made: dict[str, Any]) -> dict[str, Any]:
    """Move the word-made arguments of an event (phrases, lists of them, seat references) to
    ``terms`` and leave their English in ``args``: ``text % args`` keeps reading right."""
    args = made["args"]
    terms = None
    # A plain loop with exact type checks: this runs for every event of every simulated game.
    for key, value in args.items():
        kind = type(value)
        if kind is dict:
            wordy = "text" in value or "seat" in value
        elif kind is list and value and type(value[0]) is dict:
            wordy = "text" in value[0] or "seat" in value[0]
        else:
            continue
        if wordy:
            if terms is None:
                terms = {}
            terms[key] = value
    if terms:
        for key, value in terms.items():
            args[key] = english(value)
        made["terms"] = terms
    return made


@dataclass(frozen=True)
class Wording:
    """What the site needs to say an engine's events in the reader's language.

    - ``terms``: argument key → {value → English term (marked)}: the game terms an event
      argument can hold ("rob" → "Robbery", "cowboys" → "the cowboys").
    - ``seat_args``: argument key naming a seat's identity → the key holding that seat
      ("gang" → "seat"): the site puts the member's name beside it.
    - ``identity_key``: the ``terms`` entry that names identities (gangs), if any.
    - ``phase_names``: phase key → its name, for the log's headings and the board (the
      state's own ``phase`` values are keys too).
    - ``phases``: event type → the phase (key of ``phase_names``) it happens in; types not
      listed belong to the phase of the line before them. ``round_starts``: event type →
      the argument holding the number of the round it starts.
    - ``others_texts``: private event type → how the line reads to the other seats (once
      the game is over and everything is shown): "You draw..." → "%(name)s draws...".
    - ``legacy_texts``: an event text the engine no longer writes → what to say instead
      (``{"text", "plural"?}``), so games logged before a rewording read like new ones.
    - ``derive_terms``: builds an event's ``terms`` from its structured arguments, on demand.
    """

    terms: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    seat_args: Mapping[str, str] = field(default_factory=dict)
    identity_key: str | None = None
    phases: Mapping[str, str] = field(default_factory=dict)
    phase_names: Mapping[str, str] = field(default_factory=dict)
    round_starts: Mapping[str, str] = field(default_factory=dict)
    others_texts: Mapping[str, str] = field(default_factory=dict)
    legacy_texts: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    # event -> its terms, built from its structured arguments when the site says it (so the
    # engine's hot path builds no phrases); used when the event carries no "terms".
    derive_terms: Callable[[Event], dict[str, Any]] | None = None


class EngineError(Exception):
    """Base class for errors an engine raises on purpose."""


class IllegalAction(EngineError):
    """The action is not legal now (or is malformed). The state is untouched.

    ``IllegalAction(text, **args)``: ``text`` is an English message (marked) that ``args``
    fills, so the site can say it in the player's language (``phrase``)."""

    def __init__(self, text: str, **args: Any):
        self.phrase = phrase(text, **args)
        super().__init__(english(self.phrase))


class ConfigError(EngineError):
    """A ruleset config is invalid. ``problems`` is a list of ``(path, message)`` pairs.

    A message may also be a :func:`phrase`; ``problems`` then holds its English and
    ``phrases`` the phrase (the admin says it in the organiser's language)."""

    def __init__(self, problems: Sequence[tuple[str, Any]]):
        self.phrases = [
            (path, message if is_phrase(message) else phrase(str(message)))
            for path, message in problems
        ]
        self.problems = [(path, english(message)) for path, message in self.phrases]
        super().__init__("; ".join(f"{path}: {message}" for path, message in self.problems))

    def as_dict(self) -> dict[str, list[str]]:
        """Problems grouped by path, as a form would show them next to each field."""
        grouped: dict[str, list[str]] = {}
        for path, message in self.problems:
            grouped.setdefault(path, []).append(message)
        return grouped

    def phrases_by_path(self) -> dict[str, list[Phrase]]:
        """Like ``as_dict``, with each problem as a phrase to say in the reader's language."""
        grouped: dict[str, list[Phrase]] = {}
        for path, message in self.phrases:
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
    wording: Wording = Wording()
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

    def action_phrase(self, state: State, seat: int, action: Action) -> Phrase:
        """An action's label as a phrase (the site says it in the player's language). The
        default is the English label; engines whose labels carry game terms override it."""
        return phrase(str(action.get("label", "")))

    def result_notes(self, state: State) -> list[Phrase]:
        """How ties were settled, as phrases (``result()["tie_break"]`` is their English)."""
        return [phrase(self.result(state).get("tie_break", ""))]

    @abstractmethod
    def view(self, state: State, seat: int | None) -> dict[str, Any]: ...

    def board_view(self, state: State, seat: int | None) -> dict[str, Any]:
        """``view`` as the site's board draws it (games/table/rendering.py): engines may leave out
        keys their board templates never read — material for search bots and the API —, never
        add any, and never show more than ``view`` does. The default is ``view`` itself."""
        return self.view(state, seat)

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

    def from_stored(self, data: dict[str, Any]) -> State:
        """``from_json`` for a dict nobody else holds (decoded from the database for this
        caller alone): it need not be copied, since ``apply`` and ``view`` never change a
        state. Engines that can check a state without copying it override this: a board
        drawn from the state only reads it, so copying it first is wasted work."""
        return self.from_json(data)

    def to_stored(self, state: State) -> dict[str, Any]:
        """``to_json`` for a state nobody else holds (``apply``'s answer, about to be written
        and then only read): engines whose states are already plain JSON-able dicts hand it
        over as it is."""
        return self.to_json(state)
