"""One move reaching many open game pages held on real daphne processes (``--only daphne``).

200 sockets on one daphne, and (with ``--channel-layer configured``: Redis carries the move to
the other process) 1,000 over two. The sockets are real TCP WebSockets from this process
(``wsclient``), one member each: four players, the rest spectators. Each move is POSTed over
HTTP to the first daphne, and its delivery time runs from the POST to the moment each socket
holds the fragment of the new version — beside it the move's own answer, the floor no delivery
can beat. Repeated, and each figure reported as min / median / max over the moves. Memory is
the servers' resident size after the sockets connected, less before, per socket — "before"
being with one socket each already served (templates compiled, catalogues loaded: what any
server carries once, not per socket).
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from urllib.parse import urlencode

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connections
from django.urls import reverse

from .club import csrf_headers, game_started, members_create, next_move, session_cookies
from .servers import http_request, servers
from .stats import latency_summary, spread
from .wsclient import WebSocket

PLAYERS = 4
CONNECTING_AT_ONCE = 25
RECEIVE_TIMEOUT = 180  # seconds; a bound, not a target


async def _listen(socket: WebSocket, fresh: str) -> float:
    while True:
        text = await socket.receive_text()
        if fresh in text:
            return time.perf_counter()


async def _connect_all(ports: list[int], path: str, cookies: list[str]) -> list[WebSocket]:
    gate = asyncio.Semaphore(CONNECTING_AT_ONCE)

    async def one(index: int, cookie: str) -> WebSocket:
        async with gate:
            socket = await WebSocket.connect(ports[index % len(ports)], path, cookie=cookie)
            await socket.receive_text()  # the table as it is now
            return socket

    return await asyncio.wait_for(
        asyncio.gather(*(one(index, cookie) for index, cookie in enumerate(cookies))),
        RECEIVE_TIMEOUT,
    )


async def _one_setup(size: int, processes: int, moves: int, rng: random.Random) -> dict:
    users = await sync_to_async(members_create)(size, prefix=f"daphne{size}x{processes}")
    cookies = await sync_to_async(session_cookies)(users)
    by_user = dict(zip((user.pk for user in users), cookies))
    game = await sync_to_async(game_started)(users[:PLAYERS])
    path = f"/ws/games/{game.pk}/"
    act = reverse("game_act", args=[game.pk])
    with servers("daphne", processes) as started:
        ports = [port for _server, port in started]
        sockets = await _connect_all(ports, path, cookies[: len(ports)])
        idle_kb = sum(server.rss_kb() for server, _port in started)
        sockets += await _connect_all(ports, path, cookies[len(ports) :])
        try:
            busy_kb = sum(server.rss_kb() for server, _port in started)
            p95s, p50s, answers, delivered = [], [], [], []
            for _ in range(moves):
                user_id, version, action = await sync_to_async(next_move)(game.pk, rng)
                fresh = f'data-version="{version + 1}"'
                listeners = [asyncio.ensure_future(_listen(s, fresh)) for s in sockets]
                body = urlencode({"action": json.dumps(action), "version": str(version)})
                started_at = time.perf_counter()
                status, _text = await asyncio.to_thread(
                    http_request, ports[0], "POST", act, body=body,
                    headers=csrf_headers(by_user[user_id]),
                )  # fmt: skip
                answered = time.perf_counter() - started_at
                if status != 200:
                    raise RuntimeError(f"the bench move answered {status} on daphne")
                arrivals = await asyncio.wait_for(asyncio.gather(*listeners), RECEIVE_TIMEOUT)
                summary = latency_summary([at - started_at for at in arrivals])
                p95s.append(summary["p95_ms"])
                p50s.append(summary["median_ms"])
                answers.append(answered * 1000)
                delivered.append(len(arrivals))
        finally:
            await asyncio.gather(*(socket.close() for socket in sockets), return_exceptions=True)
    # The ORM ran in asgiref's worker thread: close its connection there.
    await sync_to_async(connections.close_all)()
    return {
        "sockets": size,
        "daphne_processes": processes,
        "moves": moves,
        "delivered_per_move": min(delivered),
        "delivery_p95_ms": spread(p95s, 1),
        "delivery_p50_ms": spread(p50s, 1),
        "move_answer_ms": spread(answers, 1),
        "rss_kb_per_socket": round((busy_kb - idle_kb) / max(1, size - len(started)), 1),
        "rss_mb_servers": round(busy_kb / 1024, 1),
    }


def daphne_measure(*, setups: list[tuple[int, int]], moves: int) -> dict:
    rng = random.Random("bench-daphne")  # noqa: S311 (choosing moves, not secrets)
    layer = settings.CHANNEL_LAYERS["default"]["BACKEND"].rsplit(".", 1)[-1]
    results, skipped = {}, {}
    for size, processes in setups:
        key = f"{size}x{processes}"
        if processes > 1 and layer == "InMemoryChannelLayer":
            skipped[key] = "needs --channel-layer configured (Redis joins the processes)"
            continue
        results[key] = asyncio.run(_one_setup(size, processes, moves, rng))
    return {
        "game": "napad",
        "players": PLAYERS,
        "channel_layer": layer,
        "setups": results,
        "skipped": skipped,
        "target": "200 on one daphne: p95 <= 300 ms; 1,000 over two: p95 <= 1 s, "
        "RSS <= 50 kB per socket",
    }
