"""Helpers for the play tests: the default rulesets, a started Napad or Colt Express table,
playing moves."""

from __future__ import annotations

import json
from datetime import timedelta

from games.engines import get_engine
from games.models import Game, Ruleset
from games.services.play import game_create, game_start, move_submit, seat_join
from games.services.rulesets import rulesets_install_defaults


def napad_ruleset(slug: str = "napad-designed-default") -> Ruleset:
    rulesets_install_defaults()
    return Ruleset.objects.get(slug=slug, version=1)


def napad_table(creator, *others, bot_seats=None, seats=None, invite_only=False, invitees=None):
    """An open Napad table created by ``creator`` and joined by ``others``."""
    bot_seats = bot_seats or {}
    game = game_create(
        creator=creator,
        ruleset=napad_ruleset(),
        seats=seats or 1 + len(others) + len(bot_seats),
        options={},
        turn_time_limit=timedelta(hours=24),
        bot_seats=bot_seats,
        invite_only=invite_only,
        invitees=invitees or [],
    )
    for user in others:
        seat_join(game_id=game.pk, user=user)
    return game


def napad_game(creator, *others, **kwargs) -> Game:
    """A started Napad game."""
    game = napad_table(creator, *others, **kwargs)
    return game_start(game_id=game.pk, user=creator)


def colt_game(creator, other, slug: str = "colt-express") -> Game:
    """A started two-seat Colt Express game of ``creator`` and ``other`` (ruleset ``slug``)."""
    rulesets_install_defaults()
    game = game_create(
        creator=creator,
        ruleset=Ruleset.objects.get(slug=slug),
        seats=2,
        turn_time_limit=timedelta(hours=1),
    )
    seat_join(game_id=game.pk, user=other)
    return game_start(game_id=game.pk, user=creator)


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
