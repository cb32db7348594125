"""Helpers for the reliability tests: started tables, the move the seat to play would make,
and a snapshot of everything a move writes (to prove a refused or failed one wrote nothing)."""

from __future__ import annotations

import json
from datetime import timedelta

from games.engines import get_engine
from games.models import Game, GameEvent, Seat, TurnClock
from tests import gamekit

NAPAD = "napad-designed-default"
# The message the play service gives a move made on a version the game has left behind.
MOVED_ON = "The game moved on since your page was drawn; here is the table as it is now."


def started_game(
    creator, *others, slug: str = NAPAD, limit: timedelta = timedelta(hours=10)
) -> Game:
    """A started game created by ``creator`` and joined by ``others``, no bots."""
    return gamekit.started_game(creator, *others, slug=slug, limit=limit)


def mover_and_action(game: Game, users) -> tuple[object, dict]:
    """The member whose turn it is and the first legal action of their seat (no label)."""
    game.refresh_from_db()
    position = game.to_move[0]
    seat = Seat.objects.select_related("player").get(game=game, position=position)
    user = next(u for u in users if u.pk == seat.player.user_id)
    engine = get_engine(game.kind)
    action = engine.legal_actions(engine.from_json(game.state), position)[0]
    return user, {k: v for k, v in action.items() if k != "label"}


def game_snapshot(game_id: int) -> dict:
    """Everything a move changes: the game row's play fields, its log and its clock."""
    game = Game.objects.get(pk=game_id)
    clock = TurnClock.objects.filter(game_id=game_id).values().first()
    return {
        "version": game.version,
        "status": game.status,
        "state": json.dumps(game.state, sort_keys=True),
        "to_move": list(game.to_move),
        "deadline": game.deadline,
        "events": list(
            GameEvent.objects.filter(game_id=game_id).order_by("seq").values_list("seq", "action")
        ),
        "clock": clock,
    }
