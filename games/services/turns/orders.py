"""A member gives a standing order (games/services/standing_orders.py saves it); the card may
be waiting for this very choice right now, so the play service carries it out at once
(``games.services.play.standing_orders_apply``, a move like any other).
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser

from games.models import StandingOrder

from ..play import standing_orders_apply
from ..standing_orders import standing_order_save


def standing_order_set(
    *, game_id: int, user: AbstractBaseUser, pile_index: int, choice: str
) -> StandingOrder | None:
    """Attach (or replace) the order for one of the member's cards still to resolve, and
    carry it out if its card waits for it; an empty ``choice`` removes it (the member will be
    asked). Raises ``StandingOrderError`` for an order the member cannot give."""
    order = standing_order_save(game_id=game_id, user=user, pile_index=pile_index, choice=choice)
    if order is not None:
        standing_orders_apply(game_id)
    return order
