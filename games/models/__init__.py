"""The club's data. One module per area; everything is importable from ``games.models``."""

from .games import Game, GameEvent, Seat
from .notifications import Notification
from .players import Player
from .rulesets import Ruleset
from .tables import ChatMessage, Invitation

__all__ = [
    "ChatMessage",
    "Game",
    "GameEvent",
    "Invitation",
    "Notification",
    "Player",
    "Ruleset",
    "Seat",
]
