"""Names and counts on the boards as template filters, in the page's language:
``{{ half.cargo|cargo_name }}``, ``{{ card|colt_card_name }}``, ``{{ card.id|napad_card_label }}``,
``{{ half.bullets|bullets_count }}`` and the seats' counts; the game terms the engines hand
over as data — ``{{ seat.gang|gang_name }}``, ``{{ view.round_card.name|colt_round_card }}``,
``{{ turn|colt_turn }}``, ``{{ seat.bot_kind|bot_name }}``,
``{{ view.phase|phase_name:game.kind }}`` — and ``{{ text|translated }}`` for a message an
engine marked (a round card's event).

The terms are the engines' own (``games/engines/<game>/wording.py``, the rulebooks' words;
``docs/glossary.md``), so the board and the log say the same word for the same thing.

Filters rather than an ``{% include %}`` of a small template or a ``{% blocktranslate %}``: these
texts are rendered inside loops over every card, half and seat, where an include costs a template
lookup, a context push and a chain of ``{% if %}`` tags, and a blocktranslate a context push and
a render of its own — many times a dictionary lookup and one ``gettext``. The msgids are the ones
the templates used, and the output is the same: like blocktranslate, the number is localized and
escaped, the translated text is not escaped again.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.formats import localize
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, gettext_noop, ngettext

from games.engines.colt.data import CARD_LABELS, TURN_LABELS
from games.engines.colt.wording import ROUND_CARD_NAMES
from games.engines.napad.wording import CARGO_NAMES, GANG_NAMES
from games.text.wording import bot_label, phase_label

register = template.Library()

COLT_CARD_NAMES = CARD_LABELS
BULLET_CARD = "bullet:"
BULLET_NAME = gettext_noop("Bullet")


def _term(terms: dict[str, str], value: Any) -> Any:
    name = terms.get(value) if isinstance(value, str) else None
    return value if name is None else gettext(name)


@register.filter
def cargo_name(cargo: Any) -> Any:
    """A Napad cargo in words; anything else as it is."""
    return _term(CARGO_NAMES, cargo)


@register.filter
def gang_name(gang: Any) -> Any:
    """A Napad gang in words ("Mexicans"); a gang an organiser named otherwise as it is."""
    return _term(GANG_NAMES, gang)


@register.filter
def colt_round_card(name: Any) -> Any:
    """A Colt Express round card's name ("Angry Marshal")."""
    return _term(ROUND_CARD_NAMES, name)


@register.filter
def colt_turn(turn: Any) -> Any:
    """A turn of a round card ("N", "T", "S", "R") in words."""
    return _term(TURN_LABELS, turn)


@register.filter
def colt_card_name(card: Any) -> Any:
    """A Colt Express action card in words ("bullet:<seat>" cards are all "Bullet")."""
    if not isinstance(card, str):
        return card
    name = COLT_CARD_NAMES.get(card)
    if name is None and card.startswith(BULLET_CARD):
        name = BULLET_NAME
    return card if name is None else gettext(name)


@register.filter
def bot_name(kind: Any) -> Any:
    """A bot kind in words ("heuristic")."""
    return bot_label(kind)


@register.filter
def phase_name(phase: Any, game_kind: str | None = None) -> Any:
    """A phase of the game ("It's a robbery!", "Stealin'", "pickpocket" → its event)."""
    return phase_label(game_kind, phase)


@register.filter
def translated(text: Any) -> Any:
    """A message an engine marked for translation (``gettext_noop``), in the page's language."""
    return gettext(text) if isinstance(text, str) and text else text


def _filled(text: str, **values: Any) -> SafeString:
    """``text`` (already translated) with each value localized and escaped, as blocktranslate
    fills its placeholders."""
    filled = text % {key: conditional_escape(localize(v)) for key, v in values.items()}
    return mark_safe(filled)  # noqa: S308 (the catalogue's text, escaped values)


@register.filter
def napad_card_label(card_id: Any) -> SafeString:
    """ "Card 12": a gang card's name for screen readers."""
    return _filled(gettext("Card %(id)s"), id=card_id)


@register.filter
def bullets_count(bullets: Any) -> SafeString:
    """ "3 bullets" on a card half or a wagon."""
    return _filled(ngettext("%(bullets)s bullet", "%(bullets)s bullets", bullets), bullets=bullets)


@register.filter
def cards_in_hand(cards: Any) -> SafeString:
    return _filled(
        ngettext("%(cards)s card in hand", "%(cards)s cards in hand", cards), cards=cards
    )


@register.filter
def cards_in_hideout(cards: Any) -> SafeString:
    return _filled(
        ngettext("%(cards)s in the hideout", "%(cards)s in the hideout", cards), cards=cards
    )


@register.filter
def wagons_captured(wagons: Any) -> SafeString:
    return _filled(
        ngettext("%(wagons)s wagon captured", "%(wagons)s wagons captured", wagons),
        wagons=wagons,
    )


@register.filter
def napad_send_label(half: Any) -> SafeString:
    """ "Send it with gold 6 up": the button on one half of a gang card in the hand."""
    if not isinstance(half, dict):
        return mark_safe("")  # noqa: S308 (nothing to show)
    return _filled(
        gettext("Send it with %(cargo)s %(value)s up"),
        cargo=cargo_name(half.get("cargo")),
        value=half.get("value"),
    )


@register.filter
def colt_play_label(card: Any) -> SafeString:
    """ "Play Move": a Schemin' button on a card of the hand."""
    return _filled(gettext("Play %(card)s"), card=colt_card_name(card))


@register.filter
def colt_play_face_down_label(card: Any) -> SafeString:
    """ "Play Move face down"."""
    return _filled(gettext("Play %(card)s face down"), card=colt_card_name(card))
