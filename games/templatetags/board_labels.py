"""Names on the boards as template filters: ``{{ half.cargo|cargo_name }}`` and
``{{ card|colt_card_name }}``, in the page's language.

Filters rather than an ``{% include %}`` of a small template: these names are drawn inside loops
over every card and wagon, where each include costs a template lookup, a context push and a chain
of ``{% if %}`` tags — many times a dictionary lookup. The msgids are the ones the templates used.
"""

from __future__ import annotations

from typing import Any

from django import template
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
