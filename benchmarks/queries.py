"""SQL queries per game page and per move, early and late in a game.

One 4-player Napad game is played to its end through the move endpoint; every move and a full
game page (the next player's) after it are counted with ``CaptureQueriesContext``. The figure
asked for is move 200, but a 4-player game ends after about 110 actions, so the late point is
move 200 or the game's last move before the end, whichever comes first — the report says which.
Constant means the same count at both points: nothing grows with the event log.
"""

from __future__ import annotations

import json
import random

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from .club import game_started, logged_in_client, members_create, next_move

PLAYERS = 4
LATE_MOVE = 200
HTMX = {"HTTP_HX_REQUEST": "true"}


def _counted(request) -> tuple[int, object]:
    with CaptureQueriesContext(connection) as captured:
        response = request()
    return len(captured.captured_queries), response


def queries_measure() -> dict:
    users = members_create(PLAYERS, prefix="counter")
    clients = {user.pk: logged_in_client(user) for user in users}
    rng = random.Random("bench-queries")  # noqa: S311 (choosing moves, not secrets)
    game = game_started(users)
    page_url = reverse("game_detail", args=[game.pk])
    act_url = reverse("game_act", args=[game.pk])
    per_move: list[int] = []
    per_page: list[int] = []
    while len(per_move) < LATE_MOVE:
        upcoming = next_move(game.pk, rng)
        if upcoming is None:
            break
        user_id, version, action = upcoming
        data = {"action": json.dumps(action), "version": str(version)}
        count, response = _counted(lambda: clients[user_id].post(act_url, data, **HTMX))  # noqa: B023
        if response.status_code != 200:
            raise RuntimeError(f"move {version + 1} answered {response.status_code}")
        per_move.append(count)
        following = next_move(game.pk, rng)
        if following is None:
            # The end screen is another page; the late point is the last move before it.
            per_move.pop()
            break
        count, response = _counted(lambda: clients[following[0]].get(page_url))  # noqa: B023
        if response.status_code != 200:
            raise RuntimeError(f"the game page answered {response.status_code}")
        per_page.append(count)
    late = min(LATE_MOVE, len(per_move))
    return {
        "game": "napad",
        "players": PLAYERS,
        "late_move": late,
        "late_move_note": "move 200 or the last move before the end, whichever comes first",
        "per_move": {"move_1": per_move[0], f"move_{late}": per_move[late - 1]},
        "per_page": {"after_move_1": per_page[0], f"after_move_{late}": per_page[late - 1]},
        "per_move_range": [min(per_move), max(per_move)],
        "per_page_range": [min(per_page), max(per_page)],
        "constant": per_move[0] == per_move[late - 1] and per_page[0] == per_page[late - 1],
        "target": "constant",
    }
