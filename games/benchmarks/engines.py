"""Engine speed: complete random games per CPU second, through ``games.engines.simulator``.

CPU time, not wall time, so a busy machine (other processes on the two cores) does not pass
for a slow engine; one process, so the figure is per core.
"""

from __future__ import annotations

from games.engines import get_engine
from games.engines.simulator import simulate

PLAYERS = 4


def _one(kind: str, games: int, config: dict | None) -> dict:
    summary = simulate(kind, games, PLAYERS, seed="bench", config=config)
    return {
        "games": summary["games"],
        "players": PLAYERS,
        "games_per_cpu_second": summary["games_per_cpu_second"],
        "games_per_wall_second": summary["games_per_second"],
        "mean_actions_per_game": summary["mean_actions_per_game"],
        "actions_per_cpu_second": round(summary["actions"] / summary["cpu_seconds"], 1)
        if summary["cpu_seconds"]
        else None,
    }


def engines_measure(*, games: int) -> dict:
    colt = get_engine("colt").default_config()
    return {
        "napad": _one("napad", games, None) | {"target_games_per_second": 1000},
        "colt": _one("colt", games, {**colt, "time_machine": False})
        | {"target_games_per_second": 200},
        "colt_time_machine": _one("colt", games, {**colt, "time_machine": True})
        | {"target_games_per_second": 200},
    }
