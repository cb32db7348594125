"""``{% clock_panel %}``: the clock panel of the game page, its fragments and socket pushes,
rendered from templates/clocks/panel.html for the context's viewer (games/services/clock_panel.py
builds what it shows)."""

from __future__ import annotations

from typing import Any

from django import template

from games.services.clock_panel import clock_panel_context

register = template.Library()


@register.inclusion_tag("clocks/panel.html#panel", takes_context=True)
def clock_panel(context: template.Context) -> dict[str, Any]:
    """The panel for this page's viewer; Django passes the page's CSRF token on to it."""
    return clock_panel_context(
        context.get("game"),
        position=context.get("position"),
        my_seat=context.get("my_seat"),
        view=context.get("view"),
        seats=context.get("seats"),
    )
