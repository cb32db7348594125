"""Helpers for the play tests: the default rulesets, a started Napad or Colt Express table,
playing moves."""

from __future__ import annotations

import json
from datetime import timedelta

from games.engines import get_engine
from games.models import Game, Ruleset
from games.services.play import game_start, move_submit
from tests.gamekit import COLT, NAPAD, default_ruleset, open_table, started_game


def napad_ruleset(slug: str = NAPAD) -> Ruleset:
    return default_ruleset(slug)


def napad_table(creator, *others, bot_seats=None, seats=None, invite_only=False, invitees=None):
    """An open Napad table created by ``creator`` and joined by ``others``."""
    return open_table(
        creator,
        *others,
        bots=bot_seats,
        seats=seats,
        invite_only=invite_only,
        invitees=invitees or [],
    )


def napad_game(creator, *others, **kwargs) -> Game:
    """A started Napad game."""
    game = napad_table(creator, *others, **kwargs)
    return game_start(game_id=game.pk, user=creator)


def colt_game(creator, other, slug: str = COLT) -> Game:
    """A started two-seat Colt Express game of ``creator`` and ``other`` (ruleset ``slug``)."""
    return started_game(creator, other, slug=slug, limit=timedelta(hours=1))


def user_to_move(game: Game, users):
    """The user whose seat must act now."""
    game.refresh_from_db()
    seats = {seat.position: seat for seat in game.seats.select_related("player__user")}
    seat = seats[game.to_move[0]]
    return next(u for u in users if u.pk == seat.player.user_id)


def first_legal(game: Game) -> dict:
    game.refresh_from_db()
    engine = get_engine(game.kind)
    state = engine.from_json(game.state)
    return engine.legal_actions(state, game.to_move[0])[0]


def play_one(game: Game, users):
    """The member to move makes their first legal move."""
    user = user_to_move(game, users)
    action = first_legal(game)
    return move_submit(
        game_id=game.pk, user=user, action=json.dumps(action), expected_version=game.version
    )


def play_to_end(game: Game, users, limit: int = 2000) -> Game:
    for _step in range(limit):
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            return game
        result = play_one(game, users)
        assert result.ok, result.message
    raise AssertionError("the game did not end")
