"""The clock panel's context: what the panel under a running game's board shows its viewer —
who is on leave, the table's latest notices, whom they may give "+24 h", and (Colt Express)
their standing orders. Data in, a dict out; templates/jinja2/clocks/panel.html renders it."""

from __future__ import annotations

from typing import Any

from games.models import Game, Seat
from games.services.clocks import extension_available, players_on_leave
from games.services.notifications import table_notices
from games.services.standing_orders import standing_orders_for

# How many of a table's notices the panel lists (a socket push reads as many ahead of its render).
PANEL_NOTICES = 5


def clock_panel_context(
    game: Game | None,
    *,
    position: int | None = None,
    my_seat: Seat | None = None,
    view: dict[str, Any] | None = None,
    seats: list[Seat] | None = None,
) -> dict[str, Any]:
    """The panel for the member at ``position`` (``my_seat``; both ``None`` for a spectator),
    or ``{"show": False}`` unless ``game`` runs. ``view`` and ``seats``: the board's own view
    of this viewer and the game's seats with their players, when the page has them already,
    so that they are not read again."""
    if game is None or game.status != Game.Status.RUNNING:
        return {"show": False}
    viewer = my_seat.player if my_seat is not None else None
    return {
        "show": True,
        "game": game,
        "on_leave": players_on_leave(game, seats=seats),
        "notices": table_notices(game, limit=PANEL_NOTICES),
        "extend_seat": extension_available(game, viewer, seats),
        "orders": standing_orders_for(game, position, view=view) if position is not None else [],
    }
