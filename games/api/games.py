"""One game for the caller: its view, the caller's legal actions, submitting a move, the log.

Everything about the board comes from ``engine.view`` for the caller's own seat (the public
view for a spectator), never from the stored state. The seed is shown only once the game is
over. The log gives public events in words plus the caller's own private ones; the stored
actions (which may hold secrets) are never read here.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja import Query, Router, Status

from games.engines import get_engine
from games.models import Game, GameEvent
from games.selectors.gamelog import log_entries
from games.selectors.naming import seat_names
from games.selectors.tables import TableAccess
from games.services import play
from games.text.wording import action_label

from .schemas import (
    MAX_ID,
    ActionsOut,
    ErrorOut,
    GameOut,
    LogOut,
    MoveIn,
    MoveOut,
    ValidationErrorOut,
    WholeNumber,
)
from .tables import BODY_ERRORS, GameId, table_data, visible_game

router = Router(tags=["games"])

GAME_ERRORS = {
    401: ErrorOut,
    403: ErrorOut,
    404: ErrorOut,
    422: ValidationErrorOut,
    429: ErrorOut,
}
LOG_LIMIT = 500


def _state(game: Game) -> dict[str, Any] | None:
    if game.state is None:
        return None
    return get_engine(game.kind).from_json(game.state)


def log_for(game: Game, position: int | None, *, since: int = 0, limit: int = LOG_LIMIT):
    """Log entries after ``since`` as ``position`` may read them (``action`` is not loaded)."""
    events = list(
        GameEvent.objects.filter(game=game, seq__gt=since).defer("action").order_by("seq")[:limit]
    )
    return [
        {
            "seq": entry["seq"],
            "seat": entry["seat"],
            "at": entry["when"],
            "by_clock": entry["by_clock"],
            "texts": entry["texts"],
        }
        for entry in log_entries(events, position, names=seat_names(game), kind=game.kind)
    ]


@router.get("/games/{id:game_id}", response={200: GameOut, **GAME_ERRORS})
def game_detail(request: HttpRequest, game_id: WholeNumber = GameId):
    """The table and the board as you may see it: your seat's view, or the public view."""
    game, access = visible_game(request.auth, game_id)
    data = table_data(game, request.auth)
    engine = get_engine(game.kind)
    state = _state(game)
    data["view"] = engine.view(state, access.position) if state is not None else None
    over = game.status in {Game.Status.FINISHED, Game.Status.ABORTED}
    data["seed"] = game.seed if over and game.seed else None
    data["result"] = engine.result(state) if game.status == Game.Status.FINISHED and state else None
    return data


@router.get("/games/{id:game_id}/actions", response={200: ActionsOut, **GAME_ERRORS})
def actions_list(request: HttpRequest, game_id: WholeNumber = GameId):
    """Your legal actions now (none when it is not your turn), and the version to send."""
    game, access = visible_game(request.auth, game_id)
    if access.seat is None:
        return Status(403, {"detail": _("You have no seat at this table.")})
    position = access.position
    my_turn = game.status == Game.Status.RUNNING and position in game.to_move
    actions = []
    if my_turn:
        state = _state(game)
        engine = get_engine(game.kind)
        names = seat_names(game)
        for action in engine.legal_actions(state, position):
            actions.append(
                {
                    "label": action_label(engine, state, position, action, names),
                    "action": {k: v for k, v in action.items() if k != "label"},
                }
            )
    return {
        "game": game.pk,
        "version": game.version,
        "my_seat": position,
        "my_turn": my_turn,
        "actions": actions,
    }


def _refusal_status(game: Game | None, access: TableAccess, expected_version: int) -> int:
    """Why a move was refused, as an HTTP status: the service answers in words only."""
    if game is None:
        return 404
    if access.seat is None:
        return 403
    if game.status != Game.Status.RUNNING or game.version != expected_version:
        return 409
    return 400


@router.post(
    "/games/{id:game_id}/actions",
    response={200: MoveOut, 400: MoveOut, 409: MoveOut, **GAME_ERRORS, 403: MoveOut, **BODY_ERRORS},
)
def move_submit(request: HttpRequest, payload: MoveIn, game_id: WholeNumber = GameId):
    """Play one of your legal actions, made on ``expected_version`` of the game.

    Applied: 200 with the new version and what it caused (as you may read it). Refused: the
    reason in ``detail`` and the game's current version; 409 when the game moved on (a stale
    or repeated submission, nothing applied twice), 400 for an action that is not legal now,
    403 when you have no seat here.
    """
    game, access = visible_game(request.auth, game_id)
    result = play.move_submit(
        game_id=game.pk,
        user=request.auth,
        action=payload.action,
        expected_version=payload.expected_version,
    )
    if not result.ok:
        status = _refusal_status(result.game, access, payload.expected_version)
        return Status(
            status,
            {"applied": False, "detail": result.message, "version": result.version, "log": []},
        )
    version = result.version
    return {
        "applied": True,
        "detail": _("Move played."),
        "version": version,
        "log": log_for(game, access.position, since=version - 1, limit=1),
    }


@router.get("/games/{id:game_id}/log", response={200: LogOut, **GAME_ERRORS})
def game_log(
    request: HttpRequest,
    game_id: WholeNumber = GameId,
    since: WholeNumber = Query(0, ge=0, le=MAX_ID, description="only entries after this seq"),
    limit: WholeNumber = Query(LOG_LIMIT, ge=1, le=LOG_LIMIT),
):
    """The game's log: public events in words, and your own private events."""
    game, access = visible_game(request.auth, game_id)
    return {
        "game": game.pk,
        "version": game.version,
        "entries": log_for(game, access.position, since=since, limit=limit),
    }
