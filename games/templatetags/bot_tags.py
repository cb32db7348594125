"""Bots in templates: ``{{ seat.bot_kind|bot_level }}`` names a bot seat by its level
("hard"), in the page's language (``games.text.bots``)."""

from __future__ import annotations

from django import template

from games.text.bots import bot_level_label

register = template.Library()


@register.filter
def bot_level(bot_kind: str) -> str:
    return bot_level_label(bot_kind)
