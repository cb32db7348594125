"""Hard bots' thinking time: CPU seconds per decision of the search bot, in whole games.

Seat 0 is the hard bot (``search``), the other seats medium bots, four players, to the end of
the game; every decision of the hard bot is timed with ``time.process_time`` (CPU time of this
process: other processes on the machine do not count against it). Decisions with a single
legal action need no search and are counted apart.
"""

from __future__ import annotations

import statistics
import time

from games.engines import get_engine
from games.engines.base import rng_for

PLAYERS = 4
TARGET_MEDIAN = 0.3
TARGET_MAX = 1.0


def _decisions(kind: str, config: dict, games: int) -> tuple[list[float], int]:
    engine = get_engine(kind)
    hard, medium = engine.bots[engine.bot_levels["hard"]], engine.bots[engine.bot_levels["medium"]]
    searched: list[float] = []
    forced = 0
    for game in range(games):
        seed = f"bench-bots-{game}"
        state = engine.setup(config, PLAYERS, seed)
        rngs = [rng_for(seed, f"bot-{seat}") for seat in range(PLAYERS)]
        while True:
            movers = engine.to_move(state)
            if not movers:
                break
            seat = movers[0]
            if seat == 0:
                single = len(engine.legal_actions(state, seat)) == 1
                started = time.process_time()
                action = hard(engine, state, seat, rngs[seat])
                spent = time.process_time() - started
                if single:
                    forced += 1
                else:
                    searched.append(spent)
            else:
                action = medium(engine, state, seat, rngs[seat])
            state, _events = engine.apply(state, seat, action)
    return searched, forced


def bots_measure(*, games: int) -> dict:
    colt = get_engine("colt").default_config()
    report = {}
    for name, kind, config in (
        ("napad", "napad", get_engine("napad").default_config()),
        ("colt", "colt", {**colt, "time_machine": False}),
        ("colt_time_machine", "colt", {**colt, "time_machine": True}),
    ):
        searched, forced = _decisions(kind, config, games)
        ordered = sorted(searched)
        report[name] = {
            "games": games,
            "players": PLAYERS,
            "decisions": len(searched),
            "single_option_decisions": forced,
            "median_cpu_seconds": round(statistics.median(ordered), 3) if ordered else None,
            "p95_cpu_seconds": round(ordered[int(0.95 * (len(ordered) - 1))], 3)
            if ordered
            else None,
            "max_cpu_seconds": round(ordered[-1], 3) if ordered else None,
            "target_median_cpu_seconds": TARGET_MEDIAN,
            "target_max_cpu_seconds": TARGET_MAX,
        }
    return report
