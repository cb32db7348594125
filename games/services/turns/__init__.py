"""Moves no member clicks, made above the play service: the bot's move (:mod:`.bots`), the
clock's timeout (:mod:`.timeouts`) and the minute's sweep that finds them (:mod:`.sweep`),
and a standing order given for a card that waits on it right now (:mod:`.orders`). Each
makes its move with ``games.services.play.move_play_for_seat``, the move core and then the
after-move pipeline, so each runs what every move owes (docs/architecture.md, "Layers").
"""

from .bots import auto_move_play, bot_move_play
from .orders import standing_order_set
from .sweep import turns_sweep, turns_sweep_fan_out
from .timeouts import timeouts_expired_apply, turn_timeout_apply, turn_timeout_due_apply

__all__ = [
    "auto_move_play",
    "bot_move_play",
    "standing_order_set",
    "timeouts_expired_apply",
    "turn_timeout_apply",
    "turn_timeout_due_apply",
    "turns_sweep",
    "turns_sweep_fan_out",
]
