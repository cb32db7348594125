"""The log's last lines copied onto the game's own row (``Game.recent_events``).

Every page, HTMX fragment, socket push and move answer shows the log's last ``RECENT_EVENTS``
actions. Reading them from ``GameEvent`` cost a query of their own on each of those requests;
the game's row is read anyway, so each move also writes the last lines there, in the same
UPDATE that saves its state (games/services/moves.py).

The events table stays the record: a copy is used only when it provably ends at the
game's own version and reaches back far enough (``recent_events_read``); anything else (a game
saved before this column existed, an event written some other way, a page that wants more
lines) reads ``GameEvent`` as before. Like ``Game.state``, the copy holds private events and
never reaches a template as it is: the log shows each viewer only what is theirs
(games/selectors/gamelog.py). The action as submitted is not copied (it may hold a face-down card).

Each copied action holds its events as JSON *text* (``"events"``), parsed only when a reading
asks for them (``RecentEvent.public_events``): the log keeps what each action said once read
(games/selectors/gamelog.py ``ENTRIES``), so a page, answer or push reads its 20 actions without
parsing them again, and the game read for a request holds 20 strings instead of hundreds of
lists and dicts for the garbage collector to walk until it is freed. Copies written before
(``"public"`` / ``"private"`` as JSON) are read as they are; the next move writes the new form.
The column itself is text, not jsonb (``JSONTextField``, games/models/json_fields.py):
nothing queries into the copy, and PostgreSQL would write a jsonb value out on every read.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from games.models.json_fields import json_parsed

# The game page's log (games/table/rendering.py LOG_LINES): every request that draws it finds its
# lines on the row.
RECENT_EVENTS = 20


class RecentEvent:
    """What the log and "since your last visit" read of a ``GameEvent`` (same names). Its
    events are parsed from the copy's text the first time they are read."""

    __slots__ = (
        "game_id",
        "seq",
        "seat",
        "by_clock",
        "created_at",
        "private_to",
        "_text",
        "_events",
    )

    def __init__(
        self,
        *,
        game_id: int,
        seq: int,
        seat: int | None,
        by_clock: bool,
        created_at: datetime,
        events_text: str | None = None,
        public_events: list[dict[str, Any]] | None = None,
        private_events: list[dict[str, Any]] | None = None,
        private_to: list[int] | None = None,
    ):
        self.game_id, self.seq, self.seat = game_id, seq, seat
        self.by_clock, self.created_at = by_clock, created_at
        # The seats its private events are for, known without parsing them (the log shares
        # an action's entry among the readers who see none: games/selectors/gamelog.py
        # ``ENTRIES``); None in a copy written before it was copied.
        self.private_to = private_to
        self._text = events_text
        self._events = None if events_text is not None else (public_events, private_events)

    def _parsed(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        if self._events is None:
            events = json_parsed(self._text)
            self._events = (events["public"], events["private"])
        return self._events

    @property
    def public_events(self) -> list[dict[str, Any]]:
        return self._parsed()[0] or []

    @property
    def private_events(self) -> list[dict[str, Any]]:
        return self._parsed()[1] or []

    def __repr__(self) -> str:
        return f"RecentEvent(game_id={self.game_id}, seq={self.seq})"


def _events_text(event: Any) -> str:
    """An action's events as the copy keeps them: JSON text, keys sorted (the same text
    whether the events come from the move or back from the database, which may reorder
    them)."""
    events = {"public": event.public_events, "private": event.private_events}
    return _EVENTS_TEXT.encode(events)


# ``json.dumps`` with these settings, its encoder built once rather than on every move.
_EVENTS_TEXT = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def private_seats(private_events: list[dict[str, Any]]) -> list[int]:
    """The seats an action's private events are for (each event's ``private_to``), sorted."""
    return sorted({seat for event in private_events for seat in event.get("private_to", ())})


def recent_events_after_move(recent: list[dict[str, Any]], event: Any) -> list[dict[str, Any]]:
    """The row's new copy once ``event`` (the ``GameEvent`` just written) follows ``recent``,
    the copy that ended at the version before it (callers check that first)."""
    entry = {
        "seq": event.seq,
        "seat": event.seat,
        "by_clock": event.by_clock,
        "at": event.created_at.isoformat(),
        "events": _events_text(event),
        "private_to": private_seats(event.private_events),
    }
    return [*recent, entry][-RECENT_EVENTS:]


def recent_events_of(events: list[Any]) -> list[dict[str, Any]]:
    """A fresh copy from ``GameEvent`` rows (the last ones, oldest first)."""
    recent: list[dict[str, Any]] = []
    for event in events[-RECENT_EVENTS:]:
        recent = recent_events_after_move(recent, event)
    return recent


def recent_events_current(recent: Any, version: int) -> bool:
    """Whether ``recent`` ends at ``version`` and holds every event up to it (or the last
    ``RECENT_EVENTS``): a move may append to it, a read may use it."""
    if not isinstance(recent, list) or not recent or version < 1:
        return False
    if recent[-1].get("seq") != version:
        return False
    return (
        len(recent) >= min(version, RECENT_EVENTS)
        and recent[0].get("seq") == version - len(recent) + 1
    )


def recent_events_read(
    game_id: int, recent: Any, version: int, limit: int
) -> list[RecentEvent] | None:
    """The last ``limit`` events from the row's copy, oldest first, or ``None`` when the copy
    cannot answer (not current, or ``limit`` reaches further back than it holds)."""
    if limit < 1:
        return []
    if not recent_events_current(recent, version):
        return None
    if limit > len(recent) and recent[0]["seq"] != 1:
        return None
    return [
        RecentEvent(
            game_id=game_id,
            seq=entry["seq"],
            seat=entry["seat"],
            by_clock=entry["by_clock"],
            created_at=datetime.fromisoformat(entry["at"]),
            events_text=entry.get("events"),
            public_events=entry.get("public"),
            private_events=entry.get("private"),
            private_to=entry.get("private_to"),
        )
        for entry in recent[-limit:]
    ]
