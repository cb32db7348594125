"""Names and counts on the boards as template filters, in the page's language:
``{{ half.cargo|cargo_name }}``, ``{{ card|colt_card_name }}``, ``{{ card.id|napad_card_label }}``,
``{{ half.bullets|bullets_count }}`` and the seats' counts.

Filters rather than an ``{% include %}`` of a small template or a ``{% blocktranslate %}``: these
texts are drawn inside loops over every card, half and seat, where an include costs a template
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
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

register = template.Library()

CARGO_NAMES = {"gold": _("gold"), "dynamite": _("dynamite"), "money": _("money")}
COLT_CARD_NAMES = {
    "move": _("Move"),
    "floor": _("Floor change"),
    "fire": _("Fire"),
    "rob": _("Robbery"),
    "punch": _("Punch"),
    "marshal": _("Marshal"),
}
BULLET_CARD = "bullet:"


@register.filter
def cargo_name(cargo: Any) -> Any:
    """A Napad cargo in words; anything else as it is."""
    name = CARGO_NAMES.get(cargo) if isinstance(cargo, str) else None
    return cargo if name is None else str(name)


@register.filter
def colt_card_name(card: Any) -> Any:
    """A Colt Express action card in words ("bullet:<seat>" cards are all "Bullet")."""
    if not isinstance(card, str):
        return card
    name = COLT_CARD_NAMES.get(card)
    if name is None and card.startswith(BULLET_CARD):
        name = _("Bullet")
    return card if name is None else str(name)


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
