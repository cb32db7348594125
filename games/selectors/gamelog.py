"""The game log in words: engine events turned into lines a viewer may read, in their language.

The HTTP views, the consumer (through ``games.table.rendering``), the API, the replay and the digest
share these, so a viewer only ever reads the public events and their own private ones (every
seat's after the end). Each logged action (a ``GameEvent``) becomes an *entry*:

``{"seq", "seat", "when", "by_clock", "texts", "lines", "round", "phase", "cache_key"}``

- ``lines``: one per engine event, ``{"icon", "text", "private", "round", "phase"}`` — the
  icon names a kind of action (a symbol of ``static/img/log-icons.svg``); ``private`` marks a
  line only its seat could read during the game ("You draw ..."); after the end the other
  seats' private lines read under their members' names ("Bob draws ...").
- ``texts``: the lines' texts (what the log said before it had lines).
- ``round`` / ``phase``: where the action was made (the round's number, a phase key of the
  engine's ``Wording``); a line's own ``round`` / ``phase`` may be later (the last pass of a
  Napad round runs the division of the loot and the next round's start).
- ``cache_key``: a digest of everything the entry was read from (the action, the reading, the
  round and phase it starts in), so one string names its content: the templates' fragment
  cache varies on it instead of hashing the whole entry on every render.
Entries are data, never markup: ``log_groups`` puts the lines under round / phase headings,
and templates/jinja2/games/log/ renders them (the table's box, the whole log, the replay).
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from cachetools import LRUCache
from django.utils.translation import get_language, gettext

from games.engines.base import Wording
from games.models import GameEvent
from games.text.wording import Names, phrase_format, wording_for

T = TypeVar("T")

# The kind of action each event type is, as the symbol drawn beside its line. Types are the
# engines' (both games share the common ones: a card played, cards drawn, a round begins).
ICONS = {
    "round_started": "round",
    "round_over": "round",
    "wagons_attached": "wagon",
    "card_played": "card",
    "card_played_secret": "card",
    "passed": "pass",
    "pickpocket_declined": "pass",
    "captured": "loot",
    "loot_taken": "loot",
    "rob": "loot",
    "cheyenne_takes": "loot",
    "strongbox_placed": "loot",
    "tie": "tie",
    "unclaimed": "nothing",
    "nothing_happens": "nothing",
    "reinforcements": "draw",
    "cards_drawn": "draw",
    "draw": "draw",
    "marker_passed": "marker",
    "schemin_over": "pile",
    "card_resolved": "reveal",
    "move": "move",
    "pushed": "move",
    "bandit_moved": "move",
    "floor": "floor",
    "fire": "fire",
    "punch": "punch",
    "punched": "punch",
    "drop": "drop",
    "purse_lost": "drop",
    "purse_value": "purse",
    "ransom": "purse",
    "pickpocket": "purse",
    "marshal_moved": "marshal",
    "flee_marshal": "marshal",
    "neutral_bullet": "bullet",
    "neutral_bullets_out": "bullet",
    "round_event": "event",
    "time_travel": "time",
    "reappears": "time",
    "time_machine_bonus": "time",
    "hidden": "hide",
    "hideout": "hide",
    "game_over": "end",
}
DEFAULT_ICON = "dot"


def event_text(
    event: dict[str, Any],
    names: Names | None = None,
    *,
    kind: str | None = None,
    wording: Wording | None = None,
    others: bool = False,
) -> str:
    """An engine event in words, in the viewer's language.

    With ``names`` (seat → member) a gang or bandit named in the event gets its player's name
    beside it: the engines know gangs, the table knows people. ``others``: a private event as
    the other seats read it after the end ("Bob draws ..." rather than "You draw ...")."""
    wording = wording or wording_for(kind)
    text = None
    if others:
        text = event.get("others_text") or wording.others_texts.get(event.get("type", ""))
    return phrase_format(event, wording=wording, names=names, text=text)


def _line(event: dict[str, Any], text: str, *, private: bool = False) -> dict[str, Any]:
    icon = ICONS.get(event.get("type", ""), DEFAULT_ICON)
    return {"icon": icon, "text": text, "private": private}


# The log's three caches (cachetools, bounded, least recently used dropped first). A page,
# a move's answer and every socket's render read the table's last actions again, and
# formatting them is the log's main cost. Their keys name a logged action for good
# (``_action_key``: its game, its place in the log and the moment it was saved) and everything
# its words depend on, so an entry is never stale: nothing needs emptying, and a process's
# restart is the only other way out.
#
# ``TEXTS``: an action's texts, per way of reading them: which private lines are shown and
# whether each is the reader's own ("You draw ..." / "Bob draws ..."), the game's wording,
# the reader's language and the seats' names.
_LOCK = threading.Lock()
TEXTS: LRUCache[tuple, list[str]] = LRUCache(maxsize=4096)
# ``ENTRIES``: an action as a log entry (its lines grouped and numbered), per reader.
ENTRIES: LRUCache[tuple, tuple[dict[str, Any], int | None, str | None]] = LRUCache(maxsize=4096)
# ``ROUND_STARTS``: how many rounds an action starts (almost always none), per game kind.
ROUND_STARTS: LRUCache[tuple, int] = LRUCache(maxsize=4096)


def _cached(cache: LRUCache, key: tuple, make: Callable[..., T], *args: Any) -> T:
    """``cache[key]``, made by ``make(*args)`` the first time it is asked for. The arguments
    are passed, not bound in a closure: a log asks for its 20 entries on every page."""
    # cachetools' caches are not thread-safe, and the consumer renders on threads of its own.
    with _LOCK:
        value = cache.get(key)
    if value is None:
        value = make(*args)
        with _LOCK:
            cache[key] = value
    return value


def _reading(names: Names | None) -> tuple:
    """What a reading of the log depends on besides the events: the reader's language and
    the seats' names (worked out once per log, not once per action)."""
    return get_language(), tuple(sorted((names or {}).items()))


def _action_key(game_event: Any) -> tuple:
    """What names one logged action for good: its game, its place in the game's log and the
    moment it was saved (a row id reused after a deletion never comes back with the same
    microsecond). An action without them (built in memory, never saved) is named by its
    content, hashed, which is slower (docs/performance.md)."""
    game_id = getattr(game_event, "game_id", None)
    created_at = getattr(game_event, "created_at", None)
    seq = getattr(game_event, "seq", None)
    if game_id is not None and seq is not None and created_at is not None:
        return game_id, seq, created_at
    return (_digest((game_event.public_events, game_event.private_events)),)


def _texts(
    game_event: Any,
    shown: list[tuple[int, dict[str, Any], bool]],
    wording: Wording,
    names: Names | None,
    reading: tuple | None = None,
    action: tuple | None = None,
) -> list[str]:
    """The texts of the action's public events, then of the private ones shown (their
    place among its private events, the event, whether it is the reader's own). ``action``:
    ``_action_key(game_event)``, when the caller has it."""
    key = (
        action or _action_key(game_event),
        tuple((index, mine) for index, _event, mine in shown),
        id(wording),
        *(reading or _reading(names)),
    )
    return _cached(TEXTS, key, _texts_format, game_event, shown, wording, names)


def _texts_format(
    game_event: Any,
    shown: list[tuple[int, dict[str, Any], bool]],
    wording: Wording,
    names: Names | None,
) -> list[str]:
    texts = [event_text(event, names, wording=wording) for event in game_event.public_events]
    return texts + [
        event_text(event, names, wording=wording, others=not mine) for _i, event, mine in shown
    ]


def event_lines(
    game_event: GameEvent,
    position: int | None,
    *,
    everything: bool = False,
    names: Names | None = None,
    kind: str | None = None,
    reading: tuple | None = None,
    action: tuple | None = None,
) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(engine event, line) for what a viewer may read of one logged action: the public
    events and their own private ones (every seat's when ``everything``), in the order the
    engine reported them. ``reading``: ``_reading(names)``, when the caller reads many;
    ``action``: ``_action_key(game_event)``, when the caller has it."""
    wording = wording_for(kind)
    shown = []
    for index, event in enumerate(game_event.private_events):
        mine = position is not None and position in event.get("private_to", ())
        if mine or everything:
            shown.append((index, event, mine))
    texts = _texts(game_event, shown, wording, names, reading, action)
    public = [(event, _line(event, text)) for event, text in zip(game_event.public_events, texts)]
    private = [
        (event, _line(event, text, private=True))
        for (_index, event, _mine), text in zip(shown, texts[len(public) :])
    ]
    if not private:
        return public
    places = [event.get("at") for event in game_event.private_events]
    if all(isinstance(place, int) for place in places):
        # Every event's place among all of them: the private ones say theirs, the public ones
        # fill the others in order.
        taken = set(places)
        total = len(public) + len(places)
        public_places = [i for i in range(total) if i not in taken]
        placed = list(zip(public_places, public)) + [(pair[0]["at"], pair) for pair in private]
        return [pair for _place, pair in sorted(placed, key=lambda item: item[0])]
    return _in_order(public, private)


# For a private event logged without its place ("at"), the public event it follows.
_FOLLOWS = {
    "cards_drawn": ("reinforcements", "draw"),
    "loot_taken": ("captured",),
    "card_played_secret": ("card_played",),
    "purse_value": ("rob", "cheyenne_takes", "pickpocket"),
    "hideout": ("hidden",),
}


def _in_order(public: list, private: list) -> list:
    """Public and private events back in the order the engine reported them: by the place
    each private event was logged at ("at"), or else right after the public event of its seat
    it follows ("Alice draws 3 cards." / "You draw ..."); a deal before the round's start."""
    merged = list(public)
    for event, line in private:
        seat = event.get("args", {}).get("seat")
        follows = _FOLLOWS.get(event.get("type", ""), ())
        at = next(
            (
                index + 1
                for index, (other, _line) in enumerate(merged)
                if other.get("type") in follows and other.get("args", {}).get("seat") == seat
            ),
            None,
        )
        if at is None:
            at = next(
                (
                    i + 1
                    for i, (other, _l) in enumerate(merged)
                    if other.get("type") == "round_started"
                ),
                len(merged),
            )
        merged.insert(at, (event, line))
    return merged


def event_texts(
    game_event: GameEvent,
    position: int | None,
    *,
    everything: bool = False,
    names: Names | None = None,
    kind: str | None = None,
) -> list[str]:
    """What a viewer may read of one logged action: public events and their own private ones."""
    lines = event_lines(game_event, position, everything=everything, names=names, kind=kind)
    return [line["text"] for _event, line in lines]


def log_entries(
    events: list[GameEvent],
    position: int | None,
    *,
    everything: bool = False,
    names: Names | None = None,
    kind: str | None = None,
    round_now: int | None = None,
) -> list[dict[str, Any]]:
    """The log entries of ``events`` (in seq order) as ``position`` may read them. The
    entries are new dicts; their ``lines`` are shared with later readings (``ENTRIES``) and
    are read, never changed.

    Round numbers come from the log itself when it starts at the first move; a log that
    starts later (the game page's last lines) needs ``round_now``, the round the game is in
    now, to number its rounds (without it they have a phase but no number)."""
    if not events:
        return []
    wording = wording_for(kind)
    actions = [_action_key(game_event) for game_event in events]
    round_number = 1 if events[0].seq == 1 else None
    if round_number is None and round_now is not None:
        starts = sum(
            _round_starts(game_event, action, kind, wording)
            for game_event, action in zip(events, actions, strict=True)
        )
        round_number = round_now - starts
    phase = None
    entries = []
    reading = _reading(names)
    for game_event, action in zip(events, actions, strict=True):
        reader = _reader(game_event, position, everything)
        key = (action, reader, everything, kind, reading, round_number, phase)
        entry, round_number, phase = _cached(
            ENTRIES,
            key,
            _entry_read,
            key,
            game_event,
            position,
            everything,
            names,
            kind,
            reading,
            action,
            round_number,
            phase,
        )
        entries.append({**entry})
    return entries


def _reader(game_event: Any, position: int | None, everything: bool) -> int | None:
    """Whose reading of the action an entry is: the viewer's own where it has private events
    for them (or every seat's show, each "You ..." or "Bob ..."), otherwise anyone's (``None``,
    as a spectator reads it) — the seats that see none of its private lines read the same
    entry, so one read for a member's move answer serves the next member's too. A kept
    action says whose its private events are (games/selectors/log_copy.py); an event row, or a copy
    kept before it said so, is looked into."""
    if position is None or everything:
        return position
    seats = getattr(game_event, "private_to", None)
    if seats is None:
        seats = {
            seat for event in game_event.private_events for seat in event.get("private_to", ())
        }
    return position if position in seats else None


def _round_starts(game_event: Any, action: tuple, kind: str | None, wording: Wording) -> int:
    return _cached(ROUND_STARTS, (action, kind), _starts_counted, game_event, wording)


def _starts_counted(game_event: Any, wording: Wording) -> int:
    return sum(1 for event in game_event.public_events if event.get("type") in wording.round_starts)


def _entry_read(
    key: tuple,
    game_event: Any,
    position: int | None,
    everything: bool,
    names: Names | None,
    kind: str | None,
    reading: tuple,
    action: tuple,
    round_number: int | None,
    phase: str | None,
) -> tuple[dict[str, Any], int | None, str | None]:
    """One action's entry, and the round and phase its last line leaves the log in. ``key``:
    the entry's key in ``ENTRIES`` (the same key always reads the same entry)."""
    wording = wording_for(kind)
    lines = []
    entry_round, entry_phase = None, None
    for event, line in event_lines(
        game_event,
        position,
        everything=everything,
        names=names,
        kind=kind,
        reading=reading,
        action=action,
    ):
        kind_of_event = event.get("type", "")
        if kind_of_event in wording.round_starts:
            number = event.get("args", {}).get(wording.round_starts[kind_of_event])
            round_number = number if isinstance(number, int) else round_number
        phase = wording.phases.get(kind_of_event, phase)
        line["round"], line["phase"] = round_number, phase
        if not lines:
            entry_round, entry_phase = round_number, phase
        lines.append(line)
    entry = {
        "seq": game_event.seq,
        "seat": game_event.seat,
        "when": game_event.created_at,
        "by_clock": game_event.by_clock,
        "texts": [line["text"] for line in lines],
        "lines": lines,
        "round": entry_round,
        "phase": entry_phase,
        "cache_key": _digest(key),
    }
    return entry, round_number, phase


def _digest(value: Any) -> str:
    """A short name for ``value``'s content: its ``repr`` (plain data, dates and strings:
    the same in every process), hashed."""
    return hashlib.blake2b(repr(value).encode(), digest_size=16).hexdigest()


def phase_title(round_number: int | None, phase: str | None, kind: str | None = None) -> str:
    """A heading of the log: "Round 2 · It's a robbery!"."""
    wording = wording_for(kind)
    name = gettext(wording.phase_names[phase]) if phase in wording.phase_names else ""
    if round_number is None:
        return name
    if not name:
        return gettext("Round %(round)s") % {"round": round_number}
    return gettext("Round %(round)s · %(phase)s") % {"round": round_number, "phase": name}


def log_groups(
    entries: list[dict[str, Any]], kind: str | None = None, *, newest_first: bool = False
) -> list[dict[str, Any]]:
    """The entries' lines under round / phase headings, in log order (or newest first):
    ``[{"round", "phase", "title", "entries": [entry with only that group's lines]}]``.

    An action whose lines cross a heading (a Napad round's last pass) appears under each
    heading with the lines that belong there. Each group's entry has a ``cache_key`` of its
    own (the entry's and where its lines start in it), and each group one naming all of its
    entries (templates/jinja2/games/log/groups.html caches on them). An entry built
    elsewhere, without a key, is named by its content."""
    groups: list[dict[str, Any]] = []
    for entry in entries:
        entry_key = entry.get("cache_key") or _digest(entry)
        for index, line in enumerate(entry["lines"]):
            key = (line["round"], line["phase"])
            if not groups or (groups[-1]["round"], groups[-1]["phase"]) != key:
                groups.append(
                    {
                        "round": key[0],
                        "phase": key[1],
                        "title": phase_title(key[0], key[1], kind),
                        "entries": [],
                    }
                )
            group_entries = groups[-1]["entries"]
            if not group_entries or group_entries[-1]["seq"] != entry["seq"]:
                # An entry's lines under one heading follow each other: where they start
                # says which they are.
                group_entries.append({**entry, "lines": [], "cache_key": f"{entry_key}.{index}"})
            group_entries[-1]["lines"].append(line)
    if newest_first:
        groups.reverse()
        for group in groups:
            group["entries"].reverse()
    for group in groups:
        group["cache_key"] = " ".join(entry["cache_key"] for entry in group["entries"])
    return groups
