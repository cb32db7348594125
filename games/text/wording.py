"""Phrases in the reader's language: engine events, action labels, engine errors, stored
notifications.

Engines cannot import Django, so they speak in *phrases* (``games.engines.base.phrase``):
an English message marked with ``gettext_noop`` plus its arguments, nested as deep as needed.
This module is the one place that turns a phrase into words, in the language active now:

- the message goes through ``gettext`` (``ngettext`` when the phrase has a ``plural``, chosen
  by ``args["count"]``);
- an argument that is a phrase, a list of phrases or a seat reference is said first (lists as
  "a, b and c");
- an argument whose value is one of the engine's game terms (``Wording.terms``: a card kind,
  a cargo, a gang, a round card...) is said as the term;
- an argument naming a seat's identity (``Wording.seat_args``: the gang, the bandit) gets the
  member's name beside it ("Alice (the cowboys)"), when the caller knows the names;
- ``%(who)s`` is always there: the member at ``args["seat"]``;
- a duration (``{"duration": seconds}``) is said as people say time left ("3 hours").

Anything that does not fit (a message an old catalogue lacks, a missing argument) falls back
to the English, never to an error: a log line is never worth a 500.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext, ngettext, pgettext

from games.engines import KINDS, get_engine
from games.engines.base import Wording, english
from games.text.bots import bot_level_label

Names = Mapping[int, str]


def wording_for(kind: str | None) -> Wording:
    """The engine's wording; for an unknown kind, every engine's terms together."""
    if kind in KINDS:
        return get_engine(kind).wording
    return _all_wordings()


_ALL: list[Wording] = []


def _all_wordings() -> Wording:
    if not _ALL:
        merged: dict[str, dict] = {}
        for field in ("terms", "seat_args", "phases", "others_texts", "legacy_texts"):
            merged[field] = {}
            for kind in KINDS:
                merged[field].update(getattr(get_engine(kind).wording, field))
        _ALL.append(Wording(**merged))
    return _ALL[0]


def join_words(items: list[str]) -> str:
    """ "a, b and c" in the active language."""
    items = [str(item) for item in items]
    if len(items) < 2:
        return items[0] if items else ""
    return gettext("%(list)s and %(last)s") % {"list": ", ".join(items[:-1]), "last": items[-1]}


def term(wording: Wording, key: str, value: Any) -> Any:
    """``value`` said as the game term it is under ``key`` (or as it is)."""
    terms = wording.terms.get(key)
    if terms is not None and isinstance(value, str) and value in terms:
        return gettext(terms[value])
    return value


def seat_label(seat: Any, names: Names | None) -> str:
    """The member at ``seat`` (or "seat N" when the names are not known)."""
    if names and seat in names:
        return names[seat]
    if isinstance(seat, int):
        return gettext("seat %(number)s") % {"number": seat + 1}
    return ""


def who(seat: Any, identity: Any, wording: Wording, names: Names | None) -> str:
    """A seat's identity (a gang, a bandit) with its member's name: "Alice (the cowboys)"."""
    said = identity
    if wording.identity_key:
        said = term(wording, wording.identity_key, identity)
    if names and seat in names:
        return pgettext("member and identity", "%(member)s (%(identity)s)") % {
            "member": names[seat],
            "identity": said,
        }
    return str(said)


def phrase_format(
    value: Any,
    *,
    wording: Wording | None = None,
    names: Names | None = None,
    terms: Mapping[str, Any] | None = None,
    text: str | None = None,
) -> str:
    """A phrase (or event, list, seat reference, plain value) in the active language.

    ``terms`` (an event's) say its word-made arguments; ``text`` replaces the phrase's own
    message (an event's line as the other seats read it)."""
    wording = wording or Wording()
    if isinstance(value, list):
        return join_words([phrase_format(item, wording=wording, names=names) for item in value])
    if not isinstance(value, dict):
        return "" if value is None else str(value)
    if "text" not in value:
        if "seat" in value:
            return who(value["seat"], value.get("identity"), wording, names)
        if isinstance(value.get("duration"), int | float):
            return time_left_words(value["duration"])
        return str(value)
    args = value.get("args") or {}
    if not isinstance(args, dict):
        args = {}
    message = text or value.get("text") or ""
    plural = None if text else value.get("plural")
    legacy = wording.legacy_texts.get(message) if not text else None
    if legacy:
        message, plural = legacy["text"], legacy.get("plural")
    if terms is None:
        terms = value.get("terms")
        if terms is None and wording.derive_terms is not None and "type" in value:
            terms = wording.derive_terms(value)
        terms = terms or {}
    formatted = _FormatArgs(args, terms, wording, names)
    try:
        if plural:
            count = args.get("count")
            translated = ngettext(message, plural, count if isinstance(count, int) else 0)
        else:
            translated = gettext(message) if message else ""
        return translated % formatted
    except (KeyError, TypeError, ValueError):
        if text:
            # The other seats' wording needs an argument this (older) event lacks.
            return phrase_format(value, wording=wording, names=names, terms=terms)
        return str(english({"text": message, "plural": plural, "args": args}))


class _FormatArgs(dict):
    """An event's arguments, each formatted only when the message asks for it."""

    def __init__(self, args: Mapping[str, Any], terms: Mapping[str, Any], wording, names):
        super().__init__()
        self._args, self._terms, self._wording, self._names = args, terms, wording, names

    def __missing__(self, key: str) -> Any:
        args, wording, names = self._args, self._wording, self._names
        if key in self._terms:
            said = phrase_format(self._terms[key], wording=wording, names=names)
        elif key in args:
            arg = args[key]
            if key in wording.seat_args and isinstance(arg, str):
                said = who(args.get(wording.seat_args[key]), arg, wording, names)
            elif isinstance(arg, dict | list):
                said = phrase_format(arg, wording=wording, names=names)
            else:
                said = term(wording, key, arg)
        elif key == "who":
            said = seat_label(args.get("seat"), names)
        else:
            raise KeyError(key)
        self[key] = said
        return said


def action_label(
    engine: Any, state: dict[str, Any], seat: int, action: dict[str, Any], names: Names | None
) -> str:
    """A legal action's label in the active language (the engine's ``action_phrase``)."""
    try:
        made = engine.action_phrase(state, seat, action)
    except (KeyError, TypeError, ValueError, IndexError):
        made = {"text": str(action.get("label", "")), "args": {}}
    return phrase_format(made, wording=engine.wording, names=names)


def error_text(error: Exception) -> str:
    """An engine's refusal (``IllegalAction``) or any error in the active language."""
    made = getattr(error, "phrase", None)
    if isinstance(made, dict):
        return phrase_format(made, wording=_all_wordings())
    return gettext(str(error))


def config_problems(error: Any) -> list[tuple[str, str]]:
    """A ``ConfigError``'s (path, problem) pairs, each problem in the active language."""
    phrases = getattr(error, "phrases", None)
    if phrases is None:
        return list(getattr(error, "problems", []))
    return [(path, phrase_format(message)) for path, message in phrases]


def bot_label(kind: Any) -> Any:
    """A stored bot kind in words: its level ("hard", games.text.bots); an unknown kind as it is."""
    return bot_level_label(kind) if isinstance(kind, str) else kind


def phase_label(kind: str | None, phase: Any) -> Any:
    """A phase of a game (a key of the engine's ``Wording.phase_names``) in words."""
    name = wording_for(kind).phase_names.get(phase) if isinstance(phase, str) else None
    return gettext(name) if name else phase


def time_left_words(seconds: float) -> str:
    """How long is left, in words of the active language ("2 hours", "3 days 4 hours")."""
    minutes = max(1, int(seconds // 60))
    if minutes < 120:
        return ngettext("%(n)s minute", "%(n)s minutes", minutes) % {"n": minutes}
    hours = minutes // 60
    if hours < 48:
        return ngettext("%(n)s hour", "%(n)s hours", hours) % {"n": hours}
    days = ngettext("%(n)s day", "%(n)s days", hours // 24) % {"n": hours // 24}
    rest = hours % 24
    if not rest:
        return days
    return f"{days} {ngettext('%(n)s hour', '%(n)s hours', rest) % {'n': rest}}"


def text_render(text: str, args: dict[str, Any] | None = None, *, plural: str | None = None) -> str:
    """A marked English text in the active language, filled with its arguments (which may
    be phrases, game terms or durations: :func:`phrase_format`)."""
    message: dict[str, Any] = {"text": text, "args": args or {}}
    if plural:
        message["plural"] = plural
    return phrase_format(message)
