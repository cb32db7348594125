"""The events a To jest napad! game reports, one small constructor per kind.

Every event is ``{"type", "text", "args"}`` (plus ``"private_to"`` for a secret one): ``text``
is English with ``%(name)s`` placeholders, marked for translation, and ``args`` fills it.
"""

from __future__ import annotations

from typing import Any

from ..base import gettext_noop as _

Event = dict[str, Any]


def _event(kind: str, text: str, **args: Any) -> Event:
    return {"type": kind, "text": text, "args": args}


def describe_wagons(wagons: list[dict[str, Any]]) -> str:
    return ", ".join(f"{w['cargo']} {w['value']}" for w in wagons)


def round_started(round_number: int, gang: str, seat: int) -> Event:
    return _event(
        "round_started",
        _("Round %(round)s begins; %(gang)s hold the starting player marker."),
        round=round_number,
        gang=gang,
        seat=seat,
    )


def wagons_attached(round_number: int, wagons: list[dict[str, Any]]) -> Event:
    return _event(
        "wagons_attached",
        _("Round %(round)s: wagons attached to the train: %(wagons_text)s."),
        round=round_number,
        wagons=wagons,
        wagons_text=describe_wagons(wagons),
    )


def card_played(seat: int, gang: str, card: int, colour: str, value: int, bullets: int) -> Event:
    # Built literally: this is the event of nearly every action, on the simulator's hot path.
    return {
        "type": "card_played",
        "text": _CARD_PLAYED,
        "args": {
            "seat": seat,
            "gang": gang,
            "card": card,
            "colour": colour,
            "value": value,
            "bullets": bullets,
        },
    }


_CARD_PLAYED = _("%(gang)s send card %(card)s with %(colour)s %(value)s up.")


def passed(seat: int, gang: str, automatic: bool) -> Event:
    if automatic:
        text = _("%(gang)s have no cards in hand and pass.")
    else:
        text = _("%(gang)s pass.")
    return _event("passed", text, seat=seat, gang=gang, automatic=automatic)


def captured(
    seat: int,
    gang: str,
    colour: str,
    cargo: str,
    total: int,
    count: int,
    wagons: list[dict[str, Any]] | None,
) -> Event:
    """``wagons`` (with values) only when captured wagons are public; else just the count."""
    event = _event(
        "captured",
        _(
            "%(gang)s win the %(cargo)s with %(colour)s total %(total)s "
            "and capture %(count)s wagon(s)."
        ),
        seat=seat,
        gang=gang,
        colour=colour,
        cargo=cargo,
        total=total,
        count=count,
    )
    if wagons is not None:
        event["args"]["wagons"] = wagons
        event["args"]["wagons_text"] = describe_wagons(wagons)
    return event


def loot_taken(seat: int, wagons: list[dict[str, Any]]) -> Event:
    """The capturing seat's own record of the values it took (secret from the others)."""
    event = _event(
        "loot_taken",
        _("You capture %(wagons_text)s."),
        seat=seat,
        wagons=wagons,
        wagons_text=describe_wagons(wagons),
    )
    event["private_to"] = [seat]
    return event


def tied(colour: str, cargo: str, total: int, seats: list[int], gangs: list[str]) -> Event:
    return _event(
        "tie",
        _("Tie on %(cargo)s at %(total)s between %(gangs_text)s: the wagons stay on the train."),
        colour=colour,
        cargo=cargo,
        total=total,
        seats=seats,
        gangs_text=", ".join(gangs),
    )


def unclaimed(colour: str, cargo: str) -> Event:
    return _event(
        "unclaimed",
        _("Nobody robbed the %(cargo)s: the wagons stay on the train."),
        colour=colour,
        cargo=cargo,
    )


def reinforcements(seat: int, gang: str, count: int, hideout_left: int) -> Event:
    return _event(
        "reinforcements",
        _("%(gang)s draw %(count)s card(s) from the hideout (%(hideout_left)s left)."),
        seat=seat,
        gang=gang,
        count=count,
        hideout_left=hideout_left,
    )


def cards_drawn(seat: int, cards: list[dict[str, Any]]) -> Event:
    event = _event(
        "cards_drawn",
        _("You draw %(cards_text)s."),
        seat=seat,
        cards=cards,
        cards_text=", ".join(
            f"card {c['id']} ({c['halves'][0]['colour']} {c['halves'][0]['value']} / "
            f"{c['halves'][1]['colour']} {c['halves'][1]['value']})"
            for c in cards
        ),
    )
    event["private_to"] = [seat]
    return event


def marker_passed(seat: int, gang: str) -> Event:
    return _event(
        "marker_passed",
        _("The starting player marker passes to %(gang)s."),
        seat=seat,
        gang=gang,
    )


def game_over(winners: list[int], gangs: list[str], score: int) -> Event:
    return _event(
        "game_over",
        _("Game over: %(gangs_text)s win with %(score)s points."),
        seats=winners,
        gangs_text=", ".join(gangs),
        score=score,
    )
