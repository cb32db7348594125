"""The game log in words: engine events turned into lines a viewer may read, in their language.

The HTTP views, the consumer (through ``games.rendering``), the API and the replay share these,
so a viewer only ever reads the public events and their own private ones (every seat's after
the end).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.models import GameEvent


def event_text(event: dict[str, Any], names: dict[int, str] | None = None) -> str:
    """An engine event in words, in the viewer's language (the engine marks its texts).

    With ``names`` (seat → member), a gang named in the event gets its player's name beside
    it: the engines know gangs, the table knows people.
    """
    text = event.get("text", "")
    args = event.get("args", {})
    seat = args.get("seat") if isinstance(args, dict) else None
    if names and isinstance(args.get("gang"), str) and seat in names:
        args = {**args, "gang": f"{names[seat]} ({args['gang']})"}
    try:
        return _(text) % args
    except (KeyError, TypeError, ValueError):
        return text


def event_texts(
    game_event: GameEvent,
    position: int | None,
    *,
    everything: bool = False,
    names: dict[int, str] | None = None,
) -> list[str]:
    """What a viewer may read of one logged action: public events and their own private ones."""
    texts = [event_text(event, names) for event in game_event.public_events]
    for event in game_event.private_events:
        if everything or (position is not None and position in event.get("private_to", ())):
            texts.append(event_text(event, names))
    return texts


def log_entries(
    events: list[GameEvent],
    position: int | None,
    *,
    everything: bool = False,
    names: dict[int, str] | None = None,
) -> list[dict[str, Any]]:
    return [
        {
            "seq": event.seq,
            "seat": event.seat,
            "when": event.created_at,
            "by_clock": event.by_clock,
            "texts": event_texts(event, position, everything=everything, names=names),
        }
        for event in events
    ]
