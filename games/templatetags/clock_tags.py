"""``{% clock_panel %}`` on the game page: who is on leave, the clock's notices, the "+24 h"
button and (Colt Express) the member's standing orders — rendered for the page's viewer.

Its reads are kept on the game it is drawn from (games/selectors.py ``read_once``): the
answer to a move shares the leave the turn clock read, and every viewer of one broadcast
shares one read of each."""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.safestring import SafeString
from django.utils.translation import get_language

from games.models import Game
from games.services.clocks import extension_available, players_on_leave
from games.services.notifications import table_notices
from games.services.standing_orders import standing_orders_for

register = template.Library()
PANEL_NOTICES = 5


PANEL_TEMPLATE = "clocks/panel.html"
PANEL_PARTS = ("on_leave", "notices", "extend_seat", "orders")
# A panel with nothing on it — a running table's with every part empty (most tables, on
# every page, answer and push), or none at all — is the same markup every time: drawn once
# per process and language.
_EMPTY: dict[tuple[bool, str | None], SafeString] = {}


@register.simple_tag(takes_context=True)
def clock_panel(context: template.Context) -> SafeString:
    """The panel, drawn as an inclusion tag would draw ``clocks/panel.html`` with
    :func:`clock_panel_data`, but an empty one only once."""
    data = clock_panel_data(context)
    panel = context.template.engine.get_template(PANEL_TEMPLATE)
    if data["show"] and any(data[part] for part in PANEL_PARTS):
        return panel.render(context.new(data))
    key = (data["show"], get_language())
    drawn = _EMPTY.get(key)
    if drawn is None:
        drawn = _EMPTY[key] = panel.render(context.new(data))
    return drawn


def clock_panel_data(context: template.Context) -> dict:
    """What the panel shows this viewer: nothing unless the game runs (``show``)."""
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
