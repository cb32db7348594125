"""What the API takes and gives, as ninja schemas (they make the OpenAPI document too).

A game's state never appears here: a game is described by its public table data plus
``engine.view`` for the caller's seat, so a response can hold only what the caller may see.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from ninja import Field, Schema
from pydantic import BeforeValidator

from games.text.parsing import INT_MAX, strict_int

# Path and query integers are bounded so that nonsense (2**70) is refused at the door
# instead of overflowing a database integer.
MAX_ID = INT_MAX
USERNAME_PATTERN = r"^[\w.@+-]{1,150}$"


def _whole_number(value: Any) -> Any:
    """A whole number as the site reads one (``games.text.parsing.strict_int``): a JSON integer,
    or ASCII digits for a path or query parameter. pydantic alone also takes " 1", "+1",
    "1_0" and 1.0 for 1."""
    if isinstance(value, str):
        number = strict_int(value, minimum=None, maximum=None)
        if number is None:
            raise ValueError("expected a whole number in ASCII digits")
        return number
    if isinstance(value, float) and value.is_integer():
        # JSON's own rule: 3.0 is the integer 3.
        return int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError("expected a whole number")
    return value


WholeNumber = Annotated[int, BeforeValidator(_whole_number)]
# Bounds inside the type, so an optional field keeps them (in the schema and when checked).
PositiveId = Annotated[int, Field(ge=1, le=MAX_ID), BeforeValidator(_whole_number)]


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
    # Say which game: a ruleset, or a kind (its plain ruleset's newest version).
    model_config = {
        "json_schema_extra": {"anyOf": [{"required": ["ruleset_id"]}, {"required": ["kind"]}]}
    }

    ruleset_id: PositiveId | None = None
    kind: Literal["napad", "colt"] | None = Field(
        None, description="without a ruleset_id: the newest version of this game's plain ruleset"
    )
    seats: WholeNumber = Field(..., ge=1, le=16)
    options: dict[str, Any] = Field(default_factory=dict)
    turn_time_limit_minutes: WholeNumber = Field(24 * 60, ge=1, le=14 * 24 * 60)
    bot_seats: dict[WholeNumber, str] = Field(
        default_factory=dict,
        description='seat position (from 0) to a bot name or a level ("easy", "medium", "hard")',
        json_schema_extra={"propertyNames": {"pattern": "^[0-9]{1,2}$"}},
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
    expected_version: WholeNumber = Field(..., ge=0, le=MAX_ID)


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
