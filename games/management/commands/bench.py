"""``manage.py bench``: measure the site and print one JSON document (``--table`` adds a
readable table on stderr, so stdout stays machine-readable).

Sections (one module each in ``games.benchmarks``): engines, move_path, queries, fanout,
sweep, bots. ``--engines-baseline DIR`` adds a side-by-side measurement of another copy of the
engines (e.g. the main branch's ``games/engines``) to the engines section. Every figure sits
next to its target; targets are reported, never asserted. A run builds its own throwaway
database (a temporary SQLite file, or a uniquely named database on the server of
``--database-url``) and drops it at the end. ``--quick`` is the same run, smaller, in a minute
or two.
"""

from __future__ import annotations

import contextlib
import json
import os
import platform
import sys
import time

import django
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from games.benchmarks import TARGETS
from games.benchmarks.bots import bots_measure
from games.benchmarks.engines import engines_measure
from games.benchmarks.environment import bench_environment
from games.benchmarks.fanout import fanout_measure
from games.benchmarks.move_path import move_path_measure
from games.benchmarks.queries import queries_measure
from games.benchmarks.sweep import sweep_measure

SECTIONS = ("engines", "move_path", "queries", "fanout", "sweep", "bots")
# Sections that need no database.
PURE = {"engines", "bots"}
FULL = {
    "engine_games": 2000,
    "moves": 400,
    "sockets": "50,200",
    "sweep_games": 100_000,
    "bot_games": 4,
}
QUICK = {
    "engine_games": 100,
    "moves": 60,
    "sockets": "50,200",
    "sweep_games": 5_000,
    "bot_games": 1,
}


def _sizes(text: str) -> list[int]:
    try:
        sizes = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise CommandError("--sockets: comma-separated whole numbers, e.g. 50,200") from None
    if not sizes or min(sizes) < 1:
        raise CommandError("--sockets: at least one size, each at least 1")
    return sizes


class Command(BaseCommand):
    help = "Measure engines, the move path, queries, WebSocket fan-out and the deadline sweep."

    def add_arguments(self, parser):
        parser.add_argument("--quick", action="store_true", help="A reduced run (< 1 minute).")
        parser.add_argument("--table", action="store_true", help="Also a table, on stderr.")
        parser.add_argument(
            "--only", default=",".join(SECTIONS), help=f"Sections to run: {', '.join(SECTIONS)}."
        )
        parser.add_argument(
            "--database-url",
            default="",
            help="Run on this server (a throwaway database is created there and dropped).",
        )
        parser.add_argument(
            "--channel-layer",
            choices=["memory", "configured"],
            default="memory",
            help="memory (default: in-process) or the site's configured layer (e.g. Redis).",
        )
        parser.add_argument("--engine-games", type=int, help="Games per engine measurement.")
        parser.add_argument(
            "--engines-baseline",
            default="",
            help="Also measure this copy of games/engines side by side (e.g. main's).",
        )
        parser.add_argument("--bot-games", type=int, help="Games per hard-bot measurement.")
        parser.add_argument("--moves", type=int, help="Moves (and baseline requests) timed.")
        parser.add_argument("--sockets", help="Fan-out sizes, e.g. 50,200.")
        parser.add_argument("--sweep-games", type=int, help="Running games for the sweep.")
        parser.add_argument("--sweep-due", type=int, help="Of which due (default 1%%).")

    def handle(self, *args, **options):
        self.verbosity = options["verbosity"]
        sections = [name.strip() for name in options["only"].split(",") if name.strip()]
        unknown = sorted(set(sections) - set(SECTIONS))
        if unknown:
            raise CommandError(f"--only: unknown section(s) {', '.join(unknown)}")
        sizes = dict(QUICK if options["quick"] else FULL)
        for key in ("engine_games", "moves", "sockets", "sweep_games", "bot_games"):
            if options[key] is not None:
                sizes[key] = options[key]
        sweep_due = options["sweep_due"]
        if sweep_due is None:
            sweep_due = max(1, sizes["sweep_games"] // 100)
        if min(sizes["engine_games"], sizes["moves"], sizes["sweep_games"], sizes["bot_games"]) < 1:
            raise CommandError(
                "--engine-games, --moves, --sweep-games and --bot-games must be at least 1"
            )
        sockets = _sizes(str(sizes["sockets"]))
        if options["channel_layer"] == "configured" and not settings.REDIS_URL:
            # The embedded layer keeps its messages in the club's own SQLite file.
            raise CommandError("--channel-layer configured needs the Redis layer (REDIS_URL)")

        started = time.perf_counter()
        report: dict = {
            "bench": {
                "quick": options["quick"],
                "python": platform.python_version(),
                "django": django.get_version(),
                "cpus": os.cpu_count(),
                "started_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            },
            "targets": {name: TARGETS[name] for name in sections},
        }
        timings = report["bench"]["section_seconds"] = {}
        if "engines" in sections:
            self._run(
                report,
                timings,
                "engines",
                engines_measure,
                games=sizes["engine_games"],
                baseline=options["engines_baseline"] or None,
            )
        if "bots" in sections:
            self._run(report, timings, "bots", bots_measure, games=sizes["bot_games"])
        # The engines need no database; build one only for the sections that do.
        environment = (
            bench_environment(
                database_url=options["database_url"] or None,
                channel_layer=options["channel_layer"],
            )
            if set(sections) - PURE
            else contextlib.nullcontext({})
        )
        with environment as described:
            report["bench"].update(described)
            if "move_path" in sections:
                self._run(report, timings, "move_path", move_path_measure, moves=sizes["moves"])
            if "queries" in sections:
                self._run(report, timings, "queries", queries_measure)
            if "fanout" in sections:
                self._run(report, timings, "fanout", fanout_measure, sizes=sockets)
            if "sweep" in sections:
                self._run(
                    report,
                    timings,
                    "sweep",
                    sweep_measure,
                    games=sizes["sweep_games"],
                    due=sweep_due,
                )
        report["bench"]["seconds"] = round(time.perf_counter() - started, 1)
        self.stdout.write(json.dumps(report, indent=2))
        if options["table"]:
            sys.stderr.write(_table(report) + "\n")

    def _run(self, report: dict, timings: dict, section: str, measure, **sizes) -> None:
        if self.verbosity >= 1:
            sys.stderr.write(f"bench: {section}…\n")
            sys.stderr.flush()
        started = time.perf_counter()
        report[section] = measure(**sizes)
        timings[section] = round(time.perf_counter() - started, 1)


def _table(report: dict) -> str:
    """The figures people look at, one line each, with the target beside them."""
    rows: list[tuple[str, str, str]] = []
    engines = report.get("engines", {})
    for name, label in (
        ("napad", "Napad 4p"),
        ("colt", "Colt 4p"),
        ("colt_time_machine", "Colt 4p + TM"),
    ):
        if name in engines:
            figure = engines[name]
            rows.append(
                (
                    f"engine {label}",
                    f"{figure['games_per_cpu_second']:,} games/s/core",
                    f">= {figure['target_games_per_second']:,}",
                )
            )
    side = engines.get("side_by_side")
    if side:
        for name in ("napad", "colt", "colt_time_machine"):
            figure = side[name]
            rows.append(
                (
                    f"engine {name} vs baseline",
                    f"{figure['this_games_per_cpu_second']:,} vs "
                    f"{figure['baseline_games_per_cpu_second']:,} games/s/core "
                    f"(x{figure['speed_up']})",
                    "x2",
                )
            )
    for name, figure in report.get("bots", {}).items():
        rows.append(
            (
                f"hard bot decision, {name}",
                f"median {figure['median_cpu_seconds']} s, max {figure['max_cpu_seconds']} s "
                f"({figure['decisions']} decisions)",
                f"median <= {figure['target_median_cpu_seconds']} s, "
                f"max <= {figure['target_max_cpu_seconds']} s",
            )
        )
    move = report.get("move_path")
    if move:
        rows += [
            ("moves through HTTP", f"{move['moves_per_second']:,} /s", ""),
            ("baseline view", f"{move['baseline_requests_per_second']:,} /s", ""),
            (
                "ratio move/baseline",
                f"{move['ratio']} (of medians: {move['ratio_of_medians']})",
                f">= {move['target_ratio']}",
            ),
            (
                "move latency",
                f"median {move['move_latency']['median_ms']} ms, "
                f"p95 {move['move_latency']['p95_ms']} ms",
                "",
            ),
        ]
    queries = report.get("queries")
    if queries:
        late = queries["late_move"]
        rows += [
            (
                "queries per move",
                f"move 1: {queries['per_move']['move_1']}, move {late}: "
                f"{queries['per_move'][f'move_{late}']}",
                "constant",
            ),
            (
                "queries per page",
                f"after 1: {queries['per_page']['after_move_1']}, after {late}: "
                f"{queries['per_page'][f'after_move_{late}']}",
                "constant",
            ),
        ]
    for size, figure in report.get("fanout", {}).get("sizes", {}).items():
        delivery = figure["delivery"]
        rows.append(
            (
                f"fan-out {size} sockets",
                f"p50 {delivery['median_ms']} ms, p95 {delivery['p95_ms']} ms",
                "p95 < 1000 ms" if size == "200" else "",
            )
        )
    sweep = report.get("sweep")
    if sweep:
        due = sweep["due_reminders"] + sweep["due_timeouts"]
        rows.append(
            (
                f"beat sweep: find + queue ({sweep['database']})",
                f"{sweep['beat_sweep_seconds']} s over {sweep['games']:,} games, {due:,} due",
                "< 1 s on PostgreSQL",
            )
        )
        rows.append(
            (
                "acting on every due item, one process",
                f"{sweep['sweep_seconds']} s ({sweep['sweep_ms_per_item']} ms per item)",
                "",
            )
        )
    width = [max(len(row[column]) for row in rows) for column in range(3)] if rows else [0, 0, 0]
    lines = [f"{'measure'.ljust(width[0])}  {'figure'.ljust(width[1])}  target"]
    lines += [f"{a.ljust(width[0])}  {b.ljust(width[1])}  {c}" for a, b, c in rows]
    return "\n".join(lines)
