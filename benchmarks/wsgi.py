"""The move path through real gunicorn workers (``--wsgi``): moves per second against the floor
through the same server, with one sync worker and with two, and what the second worker adds.

Several clients (threads here, each playing a game of its own, so the row lock of one game
does not serialise them) POST HTMX moves to gunicorn; in alternating bursts the same clients
POST to the floor view instead. Every burst is timed on the wall clock, and the figures are
the spread over the repeats. The clients choose their moves before a burst starts (on their
own copy of the state): a member thinks on their own device, and the bench's clients share the
two cores with the servers, so choosing inside the burst charged the moves, not the floor, for
the clients' thinking (docs/performance.md). A game that ends within a burst is followed
by a new one dealt there, its moves chosen as they are played.
"""

from __future__ import annotations

import json
import random
import threading
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.db import connections
from django.urls import reverse

from games.engines import get_engine
from games.models import Game

from .club import csrf_headers, game_started, members_create, session_cookies
from .servers import http_request, servers
from .stats import spread

PLAYERS = 4


@dataclass(frozen=True)
class _Planned:
    """A move chosen ahead: its request, and the state and version it leads to."""

    path: str
    body: str
    headers: dict[str, str]
    state: Any
    version: int


class _Client:
    """One table's four members, playing their game through HTTP (a new one when it ends).

    They think on a copy of the game's state kept here: every move the server accepts is
    applied to the copy by the same engine (deterministic: the seed is in the state), so
    choosing the next move reads nothing from the database. The clients share the two cores
    with the servers being measured, and reading the game for every choice would charge the
    moves for the clients' own work. Before a burst they plan
    its moves (``plan``: each applied to a copy in turn), so the burst only sends them. A
    refused move (never expected) counts as refused, the copy is read again and the rest of
    the plan dropped."""

    def __init__(self, index: int, rng: random.Random):
        self.users = members_create(PLAYERS, prefix=f"wsgi{index}")
        self.cookies = dict(zip((u.pk for u in self.users), session_cookies(self.users)))
        self.rng = rng
        self.refused = 0
        self.planned: list[_Planned] = []
        self._read(game_started(self.users).pk)

    def _read(self, game_id: int) -> None:
        game = Game.objects.get(pk=game_id)
        self.game_id, self.version = game.pk, game.version
        self.engine = get_engine(game.kind)
        self.state = self.engine.from_json(game.state)
        self.user_by_seat = dict(game.seats.values_list("position", "player__user_id"))

    def _chosen(self, state: Any, version: int) -> _Planned:
        seat = self.engine.to_move(state)[0]
        actions = self.engine.legal_actions(state, seat)
        action = actions[int(self.rng.random() * len(actions))]
        after, _events = self.engine.apply(state, seat, action)
        return _Planned(
            path=reverse("game_act", args=[self.game_id]),
            body=urlencode({"action": json.dumps(action), "version": str(version)}),
            headers=csrf_headers(self.cookies[self.user_by_seat[seat]]),
            state=after,
            version=version + 1,
        )

    def plan(self, count: int) -> None:
        """Choose the next ``count`` moves (fewer if the game ends first)."""
        state, version = self.state, self.version
        self.planned = []
        while len(self.planned) < count and not self.engine.is_over(state):
            self.planned.append(self._chosen(state, version))
            state, version = self.planned[-1].state, self.planned[-1].version
        self.planned.reverse()  # taken from the end

    def move(self, port: int) -> None:
        if self.planned:
            chosen = self.planned.pop()
        else:
            if self.engine.is_over(self.state):
                self._read(game_started(self.users).pk)
            chosen = self._chosen(self.state, self.version)
        status, text = http_request(
            port, "POST", chosen.path, body=chosen.body, headers=chosen.headers
        )
        if status == 200 and f'data-version="{chosen.version}"' in text:
            self.state, self.version = chosen.state, chosen.version
        else:
            self.refused += 1
            self.planned = []
            self._read(self.game_id)

    def floor(self, port: int) -> None:
        status, _text = http_request(
            port,
            "POST",
            reverse("bench_baseline"),
            body="note=bench",
            headers=csrf_headers(next(iter(self.cookies.values()))),
        )
        if status != 200:
            raise RuntimeError(f"the floor view answered {status} through gunicorn")


def _burst(clients: list[_Client], work: str, port: int, each: int) -> float:
    """``each`` requests per client, all clients at once: requests per wall second (moves
    chosen before the clock starts)."""
    failures: list[BaseException] = []
    if work == "move":
        for client in clients:
            client.plan(each)

    def run(client: _Client) -> None:
        try:
            for _ in range(each):
                getattr(client, work)(port)
        except BaseException as error:  # reported below, in the bench's own thread
            failures.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(client,)) for client in clients]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    if failures:
        raise failures[0]
    return len(clients) * each / elapsed


def wsgi_measure(*, clients: int, moves: int, repeats: int) -> dict:
    rng = random.Random("bench-wsgi")  # noqa: S311 (choosing moves, not secrets)
    tables = [_Client(index, rng) for index in range(clients)]
    each = max(1, moves // clients)
    result: dict = {"clients": clients, "requests_per_client_per_burst": each}
    for workers in (1, 2):
        with servers("gunicorn", 1, workers=workers) as started:
            ((_server, port),) = started
            # Warm up every worker (imports, templates, connections) outside the timings.
            _burst(tables, "floor", port, 2)
            _burst(tables, "move", port, 2)
            move_rates, floor_rates, ratios = [], [], []
            for _ in range(repeats):
                move_rates.append(_burst(tables, "move", port, each))
                floor_rates.append(_burst(tables, "floor", port, each))
                ratios.append(move_rates[-1] / floor_rates[-1])
        result[f"workers_{workers}"] = {
            "moves_per_second": spread(move_rates, 1),
            "floor_requests_per_second": spread(floor_rates, 1),
            "ratio_move_to_floor": spread(ratios),
        }
    one, two = result["workers_1"], result["workers_2"]
    result["refused_moves"] = sum(table.refused for table in tables)
    # Medians of each: the repeats of the two servers ran minutes apart, not side by side.
    result["two_workers_over_one_moves"] = round(
        two["moves_per_second"]["median"] / one["moves_per_second"]["median"], 3
    )
    result["two_workers_over_one_floor"] = round(
        two["floor_requests_per_second"]["median"] / one["floor_requests_per_second"]["median"],
        3,
    )
    result["target"] = "move/floor >= 0.40; 2 workers / 1 (moves) >= 1.6"
    return result
