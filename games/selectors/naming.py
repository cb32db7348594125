"""How the site names a seat: its member, a bot ("Bot (hard)"), or a bot standing in for a
member ("Bot for Bob"), so the board, the log, the digest and the API say who really moves."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.models import Game, Seat
from games.selectors.tables import game_seats
from games.text.bots import seat_bot_label


def seat_name(seat: Seat) -> str:
    """The name of one seat, in the active language."""
    if seat.player is not None:
        if seat.bot_kind:
            return _("Bot for %(name)s") % {"name": seat.player.display_name}
        return seat.player.display_name
    return seat_bot_label(seat.bot_kind)


def seat_names(game: Game) -> dict[int, str]:
    """Seat → its name, from the seats read with the game (``game_seats``)."""
    return {seat.position: seat_name(seat) for seat in game_seats(game)}
