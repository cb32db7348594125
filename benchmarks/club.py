"""The bench's club: members without passwords, tables of them, and the next legal move.

Everything is made through the same services the site uses (``game_create``, ``seat_join``,
``game_start``), so a bench game is a real game.
"""

from __future__ import annotations

import random
import string
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone
from django.utils.crypto import get_random_string

from games.engines import get_engine
from games.models import Game, Player, Ruleset
from games.models.players import display_name_key
from games.services.play import game_create, game_start, seat_join
from games.services.rulesets import rulesets_install_defaults

NAPAD_RULESET = "napad-designed-default"


def members_create(count: int, *, prefix: str) -> list:
    """``count`` members (each gets a Player from the site's ``post_save`` signal)."""
    users = get_user_model().objects.bulk_create(
        [
            get_user_model()(username=f"{prefix}-{index}", email=f"{prefix}-{index}@example.org")
            for index in range(count)
        ]
    )
    # bulk_create sends no post_save, so the profiles are made here in one go.
    Player.objects.bulk_create(
        [
            # (bulk_create calls no save(), which keeps the key otherwise)
            Player(
                user=user,
                display_name=f"{prefix} {index}",
                display_name_key=display_name_key(f"{prefix} {index}"),
            )
            for index, user in enumerate(users)
        ]
    )
    return list(get_user_model().objects.filter(username__startswith=f"{prefix}-").order_by("pk"))


def logged_in_client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def session_cookies(users: list) -> list[str]:
    """A logged-in session for each member, made in one INSERT (a thousand sockets need a
    thousand sessions), as the ``Cookie`` header a browser would send to the bench's servers:
    the session and a CSRF token (its secret in the cookie, the same in ``X-CSRFToken``)."""
    store, backend = SessionStore(), settings.AUTHENTICATION_BACKENDS[0]
    expires = timezone.now() + timedelta(days=1)
    rows, cookies = [], []
    for user in users:
        # A session key as Django makes them (lower-case letters and digits); a random 32
        # characters are unique enough for a throwaway club.
        key = get_random_string(32, string.ascii_lowercase + string.digits)
        data = {SESSION_KEY: str(user.pk), BACKEND_SESSION_KEY: backend}
        data[HASH_SESSION_KEY] = user.get_session_auth_hash()
        rows.append(Session(session_key=key, session_data=store.encode(data), expire_date=expires))
        # The CSRF cookie's secret: 32 letters and digits, what CsrfViewMiddleware accepts.
        csrf = get_random_string(32)
        cookies.append(f"{settings.SESSION_COOKIE_NAME}={key}; {settings.CSRF_COOKIE_NAME}={csrf}")
    Session.objects.bulk_create(rows)
    return cookies


def csrf_headers(cookie: str) -> dict[str, str]:
    """The headers of a POST from the page ``cookie`` belongs to (htmx sends the token)."""
    token = cookie.rsplit("=", 1)[1]
    return {"Cookie": cookie, "X-CSRFToken": token, "HX-Request": "true"}


def game_started(players: list, *, slug: str = NAPAD_RULESET) -> Game:
    """A running game with one seat for each of ``players`` (no bots: nothing waits on
    Celery), opened by the first of them."""
    rulesets_install_defaults()
    ruleset = Ruleset.objects.get(slug=slug, version=1)
    game = game_create(
        creator=players[0],
        ruleset=ruleset,
        seats=len(players),
        options={},
        turn_time_limit=timedelta(hours=24),
    )
    for user in players[1:]:
        seat_join(game_id=game.pk, user=user)
    return game_start(game_id=game.pk, user=players[0])


def decision_now(game_id: int) -> tuple[Game, int, list[dict]] | None:
    """The game, the seat to move and the actions it chooses among; None once the game is
    over (or waits on nobody)."""
    game = Game.objects.get(pk=game_id)
    if game.status != Game.Status.RUNNING or not game.to_move:
        return None
    engine = get_engine(game.kind)
    position = game.to_move[0]
    return game, position, engine.legal_actions(engine.from_json(game.state), position)


def next_move(game_id: int, rng: random.Random) -> tuple[int, int, dict] | None:
    """(user id of the member to move, version, a random legal action), or None once the
    game is over. Read outside any timing: it is the player's thinking, not the server's."""
    decision = decision_now(game_id)
    if decision is None:
        return None
    game, position, actions = decision
    user_id = game.seats.get(position=position).player.user_id
    return user_id, game.version, actions[int(rng.random() * len(actions))]
