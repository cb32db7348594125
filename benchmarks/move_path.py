"""Moves per second through the whole stack, side by side with the baseline view.

Each move is an HTMX POST to the real move endpoint (``game_act``) through Django's test
client — every middleware, ``services.play.move_submit``, the engine, the guarded save and event
log, the turn clock, the broadcast after commit and the fresh board rendered back. Requests to
the baseline view alternate with the moves in the same loop, so a slower or busier moment of
the machine weighs on both alike. Choosing the move (reading the state, listing legal actions)
happens outside the timings: it stands for the player thinking. The moves are cut into
``repeats`` consecutive runs, and the ratio of each run is reported as min / median / max.
"""

from __future__ import annotations

import json
import random
import statistics
import time

from django.urls import reverse

from .club import game_started, logged_in_client, members_create, next_move
from .stats import latency_summary, spread

PLAYERS = 4
HTMX = {"HTTP_HX_REQUEST": "true"}


def move_path_measure(*, moves: int, repeats: int = 1, warmup: int = 5) -> dict:
    users = members_create(PLAYERS, prefix="mover")
    clients = {user.pk: logged_in_client(user) for user in users}
    baseline_client = logged_in_client(users[0])
    baseline_url = reverse("bench_baseline")
    rng = random.Random("bench-move-path")  # noqa: S311 (choosing moves, not secrets)
    game = game_started(users)
    move_seconds: list[float] = []
    baseline_seconds: list[float] = []
    games_played = 1
    refused = 0
    while len(move_seconds) < moves + warmup:
        upcoming = next_move(game.pk, rng)
        if upcoming is None:
            game = game_started(users)
            games_played += 1
            continue
        user_id, version, action = upcoming
        url = reverse("game_act", args=[game.pk])
        data = {"action": json.dumps(action), "version": str(version)}
        started = time.perf_counter()
        response = clients[user_id].post(url, data, **HTMX)
        move_seconds.append(time.perf_counter() - started)
        if response.status_code != 200 or f'data-version="{version + 1}"' not in response.text:
            refused += 1

        started = time.perf_counter()
        response = baseline_client.post(baseline_url, {"note": "bench"})
        baseline_seconds.append(time.perf_counter() - started)
        if response.status_code != 200:
            raise RuntimeError(f"the baseline view answered {response.status_code}")
    # The first requests warm up URL resolution, templates and the engines' imports.
    move_seconds, baseline_seconds = move_seconds[warmup:], baseline_seconds[warmup:]
    runs = max(1, min(repeats, len(move_seconds)))
    ratios = []
    for run in range(runs):
        chunk = slice(run * len(move_seconds) // runs, (run + 1) * len(move_seconds) // runs)
        ratios.append(
            statistics.median(baseline_seconds[chunk]) / statistics.median(move_seconds[chunk])
        )
    move_rate = len(move_seconds) / sum(move_seconds)
    baseline_rate = len(baseline_seconds) / sum(baseline_seconds)
    return {
        "moves": len(move_seconds),
        "games_played": games_played,
        "refused_moves": refused,
        "moves_per_second": round(move_rate, 1),
        "baseline_requests_per_second": round(baseline_rate, 1),
        "ratio": round(move_rate / baseline_rate, 3),
        # The same ratio from the medians: steadier when other processes share the cores and
        # a few requests wait for a CPU.
        "ratio_of_medians": round(
            statistics.median(baseline_seconds) / statistics.median(move_seconds), 3
        ),
        # Of medians, per run: the figure to quote on a shared machine.
        "ratio_spread": spread(ratios),
        "target_ratio": 0.4,
        "move_latency": latency_summary(move_seconds),
        "baseline_latency": latency_summary(baseline_seconds),
    }
