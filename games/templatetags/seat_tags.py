"""Seats in lists (lobby, home page): ``{{ seat|seat_label }}`` names it as the table does —
the member, a bot, or "Bot for Bob" when a bot plays a member's seat (games/table/rendering.py)."""

from __future__ import annotations

from django import template

from games.models import Seat
from games.selectors.naming import seat_name

register = template.Library()


@register.filter
def seat_label(seat: Seat) -> str:
    return seat_name(seat) if isinstance(seat, Seat) else ""
