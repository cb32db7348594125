"""Game pages per second through the whole stack, side by side with the baseline view.

A four-player Napad game is played through the move endpoint; every second move two members
who watch the table open its page: one coming back (the table moved on since their last look,
so the page has its "since your last visit" panel and records the visit), and one who has
seen everything (they dismissed the panel, so the page is the plain table). The HTMX fragment
of the table is timed too. Requests to the baseline view alternate with the pages in the same
loop, as in ``move_path``, so a busier moment of the machine weighs on both alike.
"""

from __future__ import annotations

import json
import random
import statistics
import time

from django.urls import reverse

from .club import game_started, logged_in_client, members_create, next_move
from .stats import latency_summary

PLAYERS = 4
HTMX = {"HTTP_HX_REQUEST": "true"}


def _timed(request) -> float:
    started = time.perf_counter()
    response = request()
    if response.status_code != 200:
        raise RuntimeError(f"a page answered {response.status_code}")
    return time.perf_counter() - started


def comeback_measure(*, pages: int, warmup: int = 5) -> dict:
    users = members_create(PLAYERS + 2, prefix="comer")
    players, (returning, uptodate) = users[:PLAYERS], users[PLAYERS:]
    clients = {user.pk: logged_in_client(user) for user in players}
    coming_back, seen_all = logged_in_client(returning), logged_in_client(uptodate)
    baseline_client = logged_in_client(players[0])
    baseline_url = reverse("bench_baseline")
    rng = random.Random("bench-page")  # noqa: S311 (choosing moves, not secrets)
    timings: dict[str, list[float]] = {"coming_back": [], "seen_all": [], "fragment": []}
    baseline: list[float] = []
    game = None
    moves = 0
    while len(timings["coming_back"]) < pages + warmup:
        upcoming = next_move(game.pk, rng) if game is not None else None
        if upcoming is None:
            game = game_started(players)
            page_url = reverse("game_detail", args=[game.pk])
            for client in (coming_back, seen_all):
                client.get(page_url)  # their first visit
            continue
        user_id, version, action = upcoming
        data = {"action": json.dumps(action), "version": str(version)}
        clients[user_id].post(reverse("game_act", args=[game.pk]), data, **HTMX)
        moves += 1
        if moves % 2:
            continue
        dismiss_url = reverse("since_dismiss", args=[game.pk])
        seen_all.post(dismiss_url, {"version": version + 1}, **HTMX)
        for name, request in (
            ("coming_back", lambda: coming_back.get(page_url)),  # noqa: B023
            ("seen_all", lambda: seen_all.get(page_url)),  # noqa: B023
            ("fragment", lambda: seen_all.get(page_url, **HTMX)),  # noqa: B023
        ):
            timings[name].append(_timed(request))
            baseline.append(_timed(lambda: baseline_client.post(baseline_url, {"note": "b"})))
    timings = {name: values[warmup:] for name, values in timings.items()}
    baseline = baseline[3 * warmup :]
    base_median = statistics.median(baseline)
    report: dict = {"pages": len(timings["coming_back"]), "moves": moves}
    for name, values in timings.items():
        report[name] = {
            "ratio_of_medians": round(base_median / statistics.median(values), 3),
            "latency": latency_summary(values),
        }
    report["baseline_latency"] = latency_summary(baseline)
    return report
