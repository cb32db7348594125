"""The club's data. One module per area; everything is importable from ``games.models``."""

from .games import Game, GameEvent, Seat
from .notifications import Notification
from .players import Player
from .rules_admin import ModerationAction, RulesText, SimulationRun
from .rulesets import Ruleset
from .tables import ChatMessage, Invitation

__all__ = [
    "ChatMessage",
    "Game",
    "GameEvent",
    "Invitation",
    "ModerationAction",
    "Notification",
    "Player",
    "Ruleset",
    "RulesText",
    "Seat",
    "SimulationRun",
]
