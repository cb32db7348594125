"""The events a To jest napad! game reports, one small constructor per kind.

Every event is ``{"type", "text", "args"}`` (plus ``"private_to"`` for a secret one): ``text``
is English with ``%(name)s`` placeholders, marked for translation, and ``args`` fills it.
``plural`` and ``terms`` (see ``base``) let the site say it in any language: a gang is the
subject of a sentence with its member's name beside it ("Alice (cowboys) passes."), cards
and wagons are named as printed ("gold 5 / dynamite 3"), seats in a list are seat references.
"""

from __future__ import annotations

from typing import Any

from ..base import gettext_noop as _
from ..base import phrase, plural_noop, seat_ref

Event = dict[str, Any]


def _event(
    kind: str,
    text: str,
    plural: str | None = None,
    terms: dict[str, Any] | None = None,
    **args: Any,
) -> Event:
    """``args`` hold the English of every argument; ``terms`` the word-made ones as phrases
    (built here by hand: the simulator makes thousands of these a second)."""
    made: Event = {"type": kind, "text": text, "args": args}
    if plural is not None:
        made["plural"] = plural
    if terms:
        made["terms"] = terms
    return made


def describe_wagons(wagons: list[dict[str, Any]]) -> str:
    return ", ".join(f"{w['cargo']} {w['value']}" for w in wagons)


def describe_card(card: dict[str, Any]) -> str:
    first, second = card["halves"]
    return f"{first['cargo']} {first['value']} / {second['cargo']} {second['value']}"


def _gangs_english(gangs: list[str]) -> str:
    return ", ".join(gangs)


def wagon_phrases(wagons: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Wagons as printed: "gold 3", one phrase each."""
    return [phrase(_("%(cargo)s %(value)s"), cargo=w["cargo"], value=w["value"]) for w in wagons]


def card_phrase(card: dict[str, Any]) -> dict[str, Any]:
    """A gang card as printed, both halves: "gold 5 / dynamite 3"."""
    first, second = card["halves"]
    return phrase(
        _("%(cargo)s %(value)s / %(other_cargo)s %(other_value)s"),
        cargo=first["cargo"],
        value=first["value"],
        other_cargo=second["cargo"],
        other_value=second["value"],
    )


def _gang_refs(seats: list[int], gangs: list[str]) -> list[dict[str, Any]]:
    return [seat_ref(seat, gang) for seat, gang in zip(seats, gangs)]


def round_started(round_number: int, gang: str, seat: int) -> Event:
    return _event(
        "round_started",
        _("Round %(round)s begins; %(gang)s holds the starting player marker."),
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


def card_played(
    seat: int,
    gang: str,
    card: int,
    colour: str,
    value: int,
    bullets: int,
    other: list[Any] | None = None,
) -> Event:
    """``other`` is the card's half that faces down ([colour, value, bullets]): the log names
    the card as printed, the half sent first. The site says a colour as the cargo it bids for
    (``Wording.terms["colour"]``: a yellow card goes for the gold)."""
    # Built literally: this is the event of nearly every action, on the simulator's hot path.
    if other is None:
        other = (colour, value)
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
            "other_colour": other[0],
            "other_value": other[1],
        },
    }


_CARD_PLAYED = _(
    "%(gang)s sends %(colour)s %(value)s (card %(colour)s %(value)s / "
    "%(other_colour)s %(other_value)s)."
)


def passed(seat: int, gang: str, automatic: bool) -> Event:
    if automatic:
        text = _("%(gang)s has no cards in hand and passes.")
    else:
        text = _("%(gang)s passes.")
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
    args: dict[str, Any] = {
        "seat": seat,
        "gang": gang,
        "colour": colour,
        "cargo": cargo,
        "total": total,
        "count": count,
    }
    if wagons is None:
        texts = plural_noop(
            "%(gang)s wins the %(cargo)s with %(total)s and captures %(count)s wagon.",
            "%(gang)s wins the %(cargo)s with %(total)s and captures %(count)s wagons.",
        )
    else:
        texts = plural_noop(
            "%(gang)s wins the %(cargo)s with %(total)s and captures %(count)s wagon: "
            "%(wagons_text)s.",
            "%(gang)s wins the %(cargo)s with %(total)s and captures %(count)s wagons: "
            "%(wagons_text)s.",
        )
        args.update(wagons=wagons, wagons_text=describe_wagons(wagons))
    return _event("captured", **texts, **args)


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
        _("Tie on %(cargo)s at %(total)s between %(gangs)s: the wagons stay on the train."),
        terms={"gangs": _gang_refs(seats, gangs)},
        colour=colour,
        cargo=cargo,
        total=total,
        seats=seats,
        gangs_text=_gangs_english(gangs),
        gangs=_gangs_english(gangs),
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
        **plural_noop(
            "%(gang)s draws %(count)s card from the hideout (%(hideout_left)s left).",
            "%(gang)s draws %(count)s cards from the hideout (%(hideout_left)s left).",
        ),
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
        cards_text=", ".join(describe_card(card) for card in cards),
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
        **plural_noop(
            "Game over: %(winners)s wins with a score of %(score)s.",
            "Game over: %(winners)s win with a score of %(score)s.",
        ),
        terms={"winners": _gang_refs(winners, gangs)},
        seats=winners,
        gangs_text=_gangs_english(gangs),
        score=score,
        count=len(winners),
        winners=_gangs_english(gangs),
    )


def derived_terms(event: Event) -> dict[str, Any]:
    """The phrases of an event's wagons and cards, from the structured arguments every such
    event keeps (``wagons``, ``cards``): built only when the site says the event."""
    args = event.get("args") or {}
    terms: dict[str, Any] = {}
    if isinstance(args.get("wagons"), list) and "wagons_text" in args:
        terms["wagons_text"] = wagon_phrases(args["wagons"])
    if isinstance(args.get("cards"), list) and "cards_text" in args:
        terms["cards_text"] = [card_phrase(card) for card in args["cards"]]
    return terms
