"""Engine speed: complete random games per CPU second, through ``games.engines.simulator``.

CPU time, not wall time, so a busy machine (other processes on the two cores) does not pass
for a slow engine; one process, so the figure is per core.

``baseline`` (``bench --engines-baseline DIR``) measures another copy of the engines package
side by side in the same run — e.g. the main branch's ``games/engines`` — so a speed-up is a
ratio measured under the same load, not two figures from two different moments. The copy is
imported under a name of its own and played by the same loop, with its own random bot.
"""

from __future__ import annotations

import importlib
import importlib.util
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from games.engines import get_engine
from games.engines.base import rng_for
from games.engines.simulator import simulate

PLAYERS = 4
# Side by side: each engine plays this many alternating rounds; the best round counts, the
# way timeit does it (the least disturbed by the other processes on the machine).
ROUNDS = 5
_BASELINE_PACKAGE = "bench_baseline_engines"


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


def _configs() -> dict[str, tuple[str, dict | None]]:
    colt = get_engine("colt").default_config()
    return {
        "napad": ("napad", None),
        "colt": ("colt", {**colt, "time_machine": False}),
        "colt_time_machine": ("colt", {**colt, "time_machine": True}),
    }


def engines_measure(*, games: int, baseline: str | None = None) -> dict:
    targets = {"napad": 1000, "colt": 200, "colt_time_machine": 200}
    report: dict[str, Any] = {
        name: _one(kind, games, config) | {"target_games_per_second": targets[name]}
        for name, (kind, config) in _configs().items()
    }
    if baseline:
        report["side_by_side"] = side_by_side(baseline, games=games)
    return report


def load_baseline(directory: str) -> dict[str, Any]:
    """The engine objects of another copy of ``games/engines`` (a directory), by kind.

    The directory is copied to a temporary one first and imported from there, so measuring
    never writes into it (not even a ``__pycache__``)."""
    source = Path(directory).resolve()
    if not (source / "__init__.py").is_file():
        raise FileNotFoundError(f"{source} is not an engines package (no __init__.py)")
    path = Path(tempfile.mkdtemp(prefix="bench-engines-")) / "engines"
    shutil.copytree(source, path, ignore=shutil.ignore_patterns("__pycache__"))
    stale = [n for n in sys.modules if n.split(".")[0] == _BASELINE_PACKAGE]
    for name in stale:
        del sys.modules[name]
    spec = importlib.util.spec_from_file_location(
        _BASELINE_PACKAGE, path / "__init__.py", submodule_search_locations=[str(path)]
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules[_BASELINE_PACKAGE] = module
    spec.loader.exec_module(module)
    return {
        kind: importlib.import_module(f"{_BASELINE_PACKAGE}.{kind}.engine").ENGINE
        for kind in ("napad", "colt")
    }


def random_games_cpu_seconds(engine: Any, config: dict, games: int, seed: str) -> float:
    """CPU seconds for ``games`` complete games of the engine's own random bot."""
    bot = engine.bots["random"]
    started = time.process_time()
    for game in range(games):
        game_seed = f"{seed}-{game}"
        rngs = [rng_for(game_seed, f"bot-{seat}") for seat in range(PLAYERS)]
        state = engine.setup(config, PLAYERS, game_seed)
        while True:
            movers = engine.to_move(state)
            if not movers:
                break
            seat = movers[0]
            state, _events = engine.apply(state, seat, bot(engine, state, seat, rngs[seat]))
        engine.result(state)
    return time.process_time() - started


def side_by_side(directory: str, *, games: int) -> dict[str, Any]:
    """This checkout's engines and the baseline's, alternately, in one process: random games
    per CPU second of each (best of ``ROUNDS``), and the ratio."""
    baseline = load_baseline(directory)
    report: dict[str, Any] = {"baseline": str(Path(directory).resolve()), "rounds": ROUNDS}
    for name, (kind, config) in _configs().items():
        ours = get_engine(kind)
        theirs = baseline[kind]
        config = ours.default_config() if config is None else config
        best = {"this": float("inf"), "baseline": float("inf")}
        for _round in range(ROUNDS):
            for label, engine in (("baseline", theirs), ("this", ours)):
                seconds = random_games_cpu_seconds(engine, dict(config), games, "bench")
                best[label] = min(best[label], seconds)
        this_rate = games / best["this"]
        base_rate = games / best["baseline"]
        report[name] = {
            "games": games,
            "this_games_per_cpu_second": round(this_rate, 1),
            "baseline_games_per_cpu_second": round(base_rate, 1),
            "speed_up": round(this_rate / base_rate, 2),
        }
    return report
