"""The game log's headings in templates: ``{% for group in log|log_grouped:game.kind %}``
(oldest first, the whole log and the replay) and ``log_grouped_newest`` (the table's recent
lines, newest first). See ``games.gamelog.log_groups``."""

from __future__ import annotations

from typing import Any

from django import template

from games.gamelog import log_groups

register = template.Library()


@register.filter
def log_grouped(entries: list[dict[str, Any]], kind: str | None = None) -> list[dict[str, Any]]:
    return log_groups(entries or [], kind)


@register.filter
def log_grouped_newest(
    entries: list[dict[str, Any]], kind: str | None = None
) -> list[dict[str, Any]]:
    return log_groups(entries or [], kind, newest_first=True)
