"""The club's data. One module per area; everything is importable from ``games.models``."""

from .games import Game, GameEvent, Seat
from .notifications import Notification
from .players import Player
from .rulesets import Ruleset

__all__ = ["Game", "GameEvent", "Notification", "Player", "Ruleset", "Seat"]
