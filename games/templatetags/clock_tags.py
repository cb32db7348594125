"""``{% clock_panel %}`` on the game page: who is on leave, the clock's notices, the "+24 h"
button and (Colt Express) the member's standing orders — rendered for the page's viewer.

Its reads are kept on the game it is drawn from (games/selectors.py ``read_once``): the
answer to a move shares the leave the turn clock read, and every viewer of one broadcast
shares one read of each."""

from __future__ import annotations

from django import template
from django.urls import reverse

from games.models import Game
from games.services.clocks import extension_available, players_on_leave
from games.services.notifications import table_notices
from games.services.standing_orders import standing_orders_for

register = template.Library()
PANEL_NOTICES = 5


@register.inclusion_tag("clocks/panel.html", takes_context=True)
def clock_panel(context) -> dict:
    game: Game | None = context.get("game")
    if game is None or game.status != Game.Status.RUNNING:
        return {"show": False}
    position = context.get("position")
    my_seat = context.get("my_seat")
    viewer = my_seat.player if my_seat is not None else None
    # The board's own view of this viewer (games/rendering.py board_context): the orders read
    # the pile from it instead of asking the engine again.
    orders = (
        standing_orders_for(game, position, view=context.get("view"))
        if position is not None
        else []
    )
    return {
        "show": True,
        "game": game,
        "csrf_token": context.get("csrf_token"),
        "on_leave": players_on_leave(game, seats=context.get("seats")),
        "notices": table_notices(game, limit=PANEL_NOTICES),
        "extend_seat": extension_available(game, viewer, context.get("seats")),
        "orders": orders,
        # Each order's form posts here: reversed once, not twice per card.
        "order_url": reverse("standing_order_set", args=[game.pk]) if orders else "",
    }
