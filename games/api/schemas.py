"""What the API takes and gives, as ninja schemas (they make the OpenAPI document too).

A game's state never appears here: a game is described by its public table data plus
``engine.view`` for the caller's seat, so a response can hold only what the caller may see.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from ninja import Field, Schema

# Path and query integers are bounded so that nonsense (2**70) is refused at the door
# instead of overflowing a database integer.
MAX_ID = 2**31 - 1
USERNAME_PATTERN = r"^[\w.@+-]{1,150}$"


class ErrorOut(Schema):
    detail: str


class ValidationErrorOut(Schema):
    detail: str
    errors: list[dict[str, Any]] = []


class PlayErrorOut(Schema):
    detail: str
    problems: dict[str, list[str]] = {}


class MeOut(Schema):
    username: str
    display_name: str | None
    language: str | None


class RulesetRef(Schema):
    id: int
    kind: str
    slug: str
    version: int
    name: str


class BotOut(Schema):
    name: str = Field(..., description="what a seat stores and bot_seats accepts")
    level: Literal["easy", "medium", "hard"]
    description: str


class RulesetOut(RulesetRef):
    options: list[dict[str, Any]]
    bots: list[str]
    bot_levels: list[BotOut] = Field(
        ..., description="the bots by level, weakest first (bot_seats takes a name or a level)"
    )
    min_players: int
    max_players: int


class SeatOut(Schema):
    position: int
    name: str
    username: str | None
    bot: str | None
    bot_level: Literal["easy", "medium", "hard"] | None = Field(
        None, description="the level of the seat's bot, if it has one"
    )
    identity: str
    score: int | None
    place: int | None


class TableOut(Schema):
    id: int
    kind: str
    ruleset: RulesetRef
    status: str
    version: int
    seats_count: int
    invite_only: bool
    practice: bool = Field(False, description='a "play against bots" table: no rating counts it')
    created_by: str | None
    turn_time_limit_minutes: int
    seats: list[SeatOut]
    to_move: list[int]
    my_seat: int | None
    my_turn: bool
    deadline: datetime | None
    seed_hash: str
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None


class GameOut(TableOut):
    view: dict[str, Any] | None = Field(
        None, description="engine.view for the caller's seat (the public view for spectators)"
    )
    seed: str | None = Field(None, description="revealed once the game is over")
    result: dict[str, Any] | None = Field(None, description="ranking and score breakdown")


class TableCreateIn(Schema):
    ruleset_id: int | None = Field(None, ge=1, le=MAX_ID)
    kind: Literal["napad", "colt"] | None = Field(
        None, description="without a ruleset_id: the newest version of this game's plain ruleset"
    )
    seats: int = Field(..., ge=1, le=16)
    options: dict[str, Any] = Field(default_factory=dict)
    turn_time_limit_minutes: int = Field(24 * 60, ge=1, le=14 * 24 * 60)
    bot_seats: dict[int, str] = Field(
        default_factory=dict,
        description='seat position (from 0) to a bot name or a level ("easy", "medium", "hard")',
    )
    invite_only: bool = False
    invitees: list[Annotated[str, Field(pattern=USERNAME_PATTERN)]] = Field(
        default_factory=list, max_length=16, description="usernames of members to invite"
    )


class ActionOut(Schema):
    label: str
    action: dict[str, Any] = Field(..., description="post this back as the move's action")


class ActionsOut(Schema):
    game: int
    version: int
    my_seat: int | None
    my_turn: bool
    actions: list[ActionOut]


class MoveIn(Schema):
    action: dict[str, Any]
    expected_version: int = Field(..., ge=0, le=MAX_ID)


class LogEntryOut(Schema):
    seq: int
    seat: int | None
    at: datetime
    by_clock: bool
    texts: list[str]


class MoveOut(Schema):
    applied: bool
    detail: str
    version: int | None
    log: list[LogEntryOut] = []


class LogOut(Schema):
    game: int
    version: int
    entries: list[LogEntryOut]
