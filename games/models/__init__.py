"""The club's data. One module per area; everything is importable from ``games.models``."""

from .api_tokens import ApiToken
from .clocks import (
    DeadlineExtension,
    DigestSent,
    Leave,
    ReminderSent,
    StandingOrder,
    TableNotice,
    TurnClock,
)
from .games import Game, GameEvent, Seat
from .leagues import (
    Division,
    Fixture,
    FixtureSeat,
    League,
    Membership,
    Rating,
    RatingHistory,
    ResultRecord,
    Round,
    Season,
    Standing,
)
from .notifications import Notification
from .players import Player
from .push import PushDelivery, PushMessage, PushSubscription
from .rules_admin import ModerationAction, RulesText, SimulationRun
from .rulesets import Ruleset
from .tables import ChatMessage, Invitation
from .visits import TableVisit

__all__ = [
    "ApiToken",
    "DeadlineExtension",
    "DigestSent",
    "Leave",
    "ReminderSent",
    "StandingOrder",
    "TableNotice",
    "TurnClock",
    "Division",
    "Fixture",
    "FixtureSeat",
    "League",
    "Membership",
    "Rating",
    "RatingHistory",
    "ResultRecord",
    "Round",
    "Season",
    "Standing",
    "ChatMessage",
    "Game",
    "GameEvent",
    "Invitation",
    "ModerationAction",
    "Notification",
    "Player",
    "PushDelivery",
    "PushMessage",
    "PushSubscription",
    "Ruleset",
    "RulesText",
    "Seat",
    "SimulationRun",
    "TableVisit",
]
