"""Practice: "Play against bots" — one click to a running table with hard bots in the other
seats, a short turn timer, and no rating change (``Game.practice``; the ratings leave such
games out, ``services/leagues/ratings.py``).

A member has at most one running practice table per game and variant: clicking again opens
it instead of dealing another (every hard bot's move is a search a Celery worker runs).
"""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from games.engines import get_engine
from games.models import Game, Ruleset
from games.text.bots import bot_kind_for

from .play import PlayError, game_create, game_start, player_for

PRACTICE_TURN_TIME = timedelta(minutes=5)
PRACTICE_SEATS = 4
PRACTICE_LEVEL = "hard"
# What the practice buttons offer: (key, game kind, table options).
PRACTICE_TABLES = {
    "napad": ("napad", {}),
    "colt": ("colt", {"time_machine": False}),
    "colt_time_machine": ("colt", {"time_machine": True}),
}


def practice_ruleset(kind: str) -> Ruleset:
    """The club's plain ruleset of a game (its first published one), newest version."""
    published = Ruleset.objects.filter(status=Ruleset.Status.PUBLISHED, kind=kind)
    first = published.order_by("created_at", "pk").first()
    if first is None:
        raise PlayError(_("There is no published ruleset for that game yet."))
    return published.filter(slug=first.slug).order_by("-version").first()


def practice_game_start(*, user: AbstractBaseUser, table: str) -> Game:
    """The member's running practice game of this kind, or a new one, dealt at once."""
    player = player_for(user)
    if table not in PRACTICE_TABLES:
        raise PlayError(_("There is no such practice table."))
    kind, options = PRACTICE_TABLES[table]
    ruleset = practice_ruleset(kind)
    engine = get_engine(kind)
    existing = (
        Game.objects.filter(
            practice=True,
            kind=kind,
            status=Game.Status.RUNNING,
            seats__player=player,
            seats__bot_kind="",
        )
        .order_by("-created_at")
        .only("pk", "options", "config")
    )
    for game in existing:
        if all(game.config.get(key) == value for key, value in options.items()):
            return game
    seats = min(PRACTICE_SEATS, engine.max_players)
    hard = bot_kind_for(engine, PRACTICE_LEVEL)
    with transaction.atomic():
        game = game_create(
            creator=user,
            ruleset=ruleset,
            seats=seats,
            options={
                key: value for key, value in options.items() if ruleset.config.get(key) != value
            },
            turn_time_limit=PRACTICE_TURN_TIME,
            bot_seats={position: hard for position in range(1, seats)},
            invite_only=True,
        )
        Game.objects.filter(pk=game.pk).update(practice=True)
        return game_start(game_id=game.pk, user=user)
