"""One move reaching many open game pages: p50/p95 delivery over WebSockets.

The sockets are real ``GameConsumer`` instances behind the site's own ASGI stack
(``napad_site.asgi.application``: origin check, session authentication, URL routing), driven
by ``channels.testing.WebsocketCommunicator`` in this process. Each belongs to its own member —
the four players and spectators — and renders its own view of the table when the move's
``game.updated`` arrives, exactly as under daphne. Delivery time runs from the moment the move
is submitted (so it includes the move itself, reported separately) to the moment each socket
has its fragment.
"""

from __future__ import annotations

import asyncio
import json
import random
import time

from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import connections

from games.services.play import move_submit

from .club import game_started, logged_in_client, members_create, next_move
from .stats import latency_summary

PLAYERS = 4
RECEIVE_TIMEOUT = 120  # seconds; a bound, not a target
HEADERS = [(b"origin", b"http://localhost"), (b"host", b"localhost")]


def _session_cookie(user) -> bytes:
    client = logged_in_client(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    return f"{settings.SESSION_COOKIE_NAME}={session}".encode()


def _world(largest: int) -> tuple[int, list, list[bytes]]:
    users = members_create(largest, prefix="watcher")
    game = game_started(users[:PLAYERS])
    return game.pk, users, [_session_cookie(user) for user in users]


async def _receive_timed(socket: WebsocketCommunicator) -> tuple[float, str]:
    text = await socket.receive_from(timeout=RECEIVE_TIMEOUT)
    return time.perf_counter(), text


async def _one_size(game_id: int, users: list, cookies: list[bytes], size: int, rng) -> dict:
    from napad_site.asgi import application

    sockets = [
        WebsocketCommunicator(
            application, f"/ws/games/{game_id}/", headers=[*HEADERS, (b"cookie", cookie)]
        )
        for cookie in cookies[:size]
    ]
    try:
        for socket in sockets:
            connected, code = await socket.connect(timeout=RECEIVE_TIMEOUT)
            if not connected:
                raise RuntimeError(f"a bench socket was refused with code {code}")
            await socket.receive_from(timeout=RECEIVE_TIMEOUT)  # the board as it is now
        user_id, version, action = await sync_to_async(next_move)(game_id, rng)
        mover = next(user for user in users if user.pk == user_id)
        receivers = [asyncio.ensure_future(_receive_timed(socket)) for socket in sockets]
        started = time.perf_counter()
        result = await sync_to_async(move_submit)(
            game_id=game_id, user=mover, action=json.dumps(action), expected_version=version
        )
        moved = time.perf_counter() - started
        if not result.ok:
            raise RuntimeError(f"the fan-out move was refused: {result.message}")
        arrivals = await asyncio.gather(*receivers)
        fresh = f'data-version="{version + 1}"'
        own_views = sum("Your hand" in text for _at, text in arrivals)
        delivered_in = [at - started for at, _text in arrivals]
        return {
            "sockets": size,
            "delivered": sum(fresh in text for _at, text in arrivals),
            "player_views": own_views,
            "move_ms": round(moved * 1000, 2),
            "delivery": latency_summary(delivered_in),
            # The sockets render one after another (asgiref runs every consumer's ORM work on
            # one thread), so the spread after the move is about one render per socket.
            "render_ms_per_socket": round((max(delivered_in) - moved) * 1000 / size, 2),
        }
    finally:
        await asyncio.gather(*(socket.disconnect() for socket in sockets))


async def _measure(sizes: list[int]) -> dict:
    rng = random.Random("bench-fanout")  # noqa: S311 (choosing moves, not secrets)
    try:
        game_id, users, cookies = await sync_to_async(_world)(max(sizes))
        results = {}
        for size in sizes:
            results[str(size)] = await _one_size(game_id, users, cookies, size, rng)
        return results
    finally:
        # No layer.flush() here: channels-redis's flush closes the connections of every event
        # loop that used the layer, this one's and the site's broadcast loop's
        # (games/broadcast.py), and a loop's connections can only be closed from that loop.
        # The sockets left their group when they disconnected; this loop's connections close
        # with it.
        # The consumers' ORM calls ran in asgiref's worker thread: close its connection there.
        await sync_to_async(connections.close_all)()


def fanout_measure(*, sizes: list[int]) -> dict:
    results = asyncio.run(_measure(sizes))
    return {
        "game": "napad",
        "players": PLAYERS,
        "sizes": results,
        "target": "200 sockets: p95 < 1000 ms",
    }
