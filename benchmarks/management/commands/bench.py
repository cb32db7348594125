"""``manage.py bench``: measure the site and print one JSON document (``--table`` adds a
readable table on stderr, so stdout stays machine-readable).

Sections (one module each in ``benchmarks``): engines, move_path, pages, comeback,
queries, broadcast, fanout, sweep, bots by default; ``wsgi`` (gunicorn workers, also ``--wsgi``) and
``daphne`` (real daphne processes) on request, as they start servers. ``--engines-baseline DIR``
adds a side-by-side measurement of another copy of the engines (e.g. the main branch's
``games/engines``) to the engines section. Every figure sits next to its floor and its target,
measured in the same run and repeated (``--repeats``: min / median / max); targets are
reported, never asserted. A run builds its own throwaway database (a temporary SQLite file, or
a uniquely named database on the server of ``--database-url``) and drops it at the end.
``--quick`` is the same run, smaller, in a minute or two.
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

from benchmarks import TARGETS
from benchmarks.bots import bots_measure
from benchmarks.comeback import comeback_measure
from benchmarks.daphnes import daphne_measure
from benchmarks.engines import engines_measure
from benchmarks.environment import bench_environment
from benchmarks.fanout import fanout_measure
from benchmarks.move_path import move_path_measure
from benchmarks.pages import pages_measure
from benchmarks.publish import publish_measure
from benchmarks.queries import queries_measure
from benchmarks.stats import spread_text
from benchmarks.sweep import sweep_measure
from benchmarks.wsgi import wsgi_measure
from games.text.parsing import strict_ints

SECTIONS = (
    "engines", "move_path", "pages", "comeback", "queries", "broadcast", "fanout", "sweep", "bots",
    "wsgi", "daphne",
)  # fmt: skip
# The ones that start servers run only when asked for (``--wsgi``, ``--only``).
DEFAULT_SECTIONS = SECTIONS[:-2]
# Sections that need no database.
PURE = {"engines", "bots"}
FULL = {
    "engine_games": 2000,
    "moves": 400,
    "sockets": "50,200",
    "sweep_games": 100_000,
    "repeats": 5,
    "page_requests": 20,
    "comeback_pages": 200,
    "broadcast_calls": 200,
    "wsgi_moves": 120,
    "daphne_setups": "200x1,1000x2",
    "daphne_moves": 5,
    "bot_games": 4,
}
QUICK = {
    "engine_games": 100,
    "moves": 60,
    "sockets": "50,200",
    "sweep_games": 5_000,
    "repeats": 3,
    "page_requests": 8,
    "comeback_pages": 30,
    "broadcast_calls": 50,
    "wsgi_moves": 40,
    "daphne_setups": "200x1,1000x2",
    "daphne_moves": 3,
    "bot_games": 1,
}
WSGI_CLIENTS = 4


def _sizes(text: str) -> list[int]:
    parts = [part.strip() for part in text.split(",") if part.strip()]
    sizes = strict_ints(parts)
    if len(sizes) != len(parts):
        raise CommandError("--sockets: comma-separated whole numbers, e.g. 50,200")
    if not sizes or min(sizes) < 1:
        raise CommandError("--sockets: at least one size, each at least 1")
    return sizes


def _setups(text: str) -> list[tuple[int, int]]:
    try:
        setups = [
            tuple(int(n) for n in part.lower().split("x")) for part in text.split(",") if part
        ]
    except ValueError:
        setups = []
    if not setups or any(len(s) != 2 or min(s) < 1 for s in setups):
        raise CommandError("--daphne-setups: sockets x processes, e.g. 200x1,1000x2")
    return setups


class Command(BaseCommand):
    help = "Measure engines, the move path, queries, WebSocket fan-out and the deadline sweep."

    def add_arguments(self, parser):
        parser.add_argument("--quick", action="store_true", help="A reduced run (< 1 minute).")
        parser.add_argument("--table", action="store_true", help="Also a table, on stderr.")
        parser.add_argument(
            "--only",
            default=",".join(DEFAULT_SECTIONS),
            help=f"Sections to run: {', '.join(SECTIONS)} (default: all but wsgi and daphne).",
        )
        parser.add_argument(
            "--wsgi",
            action="store_true",
            help="Also the move path through gunicorn (one sync worker, then two).",
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
        parser.add_argument(
            "--comeback-pages", type=int, help="Pages of each kind timed in 'comeback'."
        )
        parser.add_argument("--sockets", help="Fan-out sizes, e.g. 50,200.")
        parser.add_argument("--sweep-games", type=int, help="Running games for the sweep.")
        parser.add_argument("--sweep-due", type=int, help="Of which due (default 1%%).")
        parser.add_argument("--repeats", type=int, help="Runs of each figure (min/median/max).")
        parser.add_argument("--page-requests", type=int, help="Page requests per repeat.")
        parser.add_argument("--broadcast-calls", type=int, help="Broadcasts per repeat.")
        parser.add_argument("--wsgi-moves", type=int, help="Moves per burst through gunicorn.")
        parser.add_argument(
            "--daphne-setups", help="Sockets x daphne processes, e.g. 200x1,1000x2."
        )
        parser.add_argument("--daphne-moves", type=int, help="Moves timed per daphne setup.")

    def handle(self, *args, **options):
        self.verbosity = options["verbosity"]
        sections = [name.strip() for name in options["only"].split(",") if name.strip()]
        if options["wsgi"] and "wsgi" not in sections:
            sections.append("wsgi")
        unknown = sorted(set(sections) - set(SECTIONS))
        if unknown:
            raise CommandError(f"--only: unknown section(s) {', '.join(unknown)}")
        sizes = dict(QUICK if options["quick"] else FULL)
        for key in sizes:
            if options[key] is not None:
                sizes[key] = options[key]
        sweep_due = options["sweep_due"]
        if sweep_due is None:
            sweep_due = max(1, sizes["sweep_games"] // 100)
        counts = ("engine_games", "moves", "sweep_games", "repeats", "page_requests")
        counts += ("comeback_pages",)
        counts += ("broadcast_calls", "wsgi_moves", "daphne_moves", "bot_games")
        if min(sizes[key] for key in counts) < 1:
            raise CommandError(
                ", ".join(f"--{key.replace('_', '-')}" for key in counts) + ": at least 1 each"
            )
        sockets = _sizes(str(sizes["sockets"]))
        setups = _setups(str(sizes["daphne_setups"]))
        repeats = sizes["repeats"]
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
        measures = {
            "move_path": (move_path_measure, {"moves": sizes["moves"], "repeats": repeats}),
            "pages": (pages_measure, {"requests": sizes["page_requests"], "repeats": repeats}),
            "comeback": (comeback_measure, {"pages": sizes["comeback_pages"]}),
            "queries": (queries_measure, {}),
            "broadcast": (
                publish_measure,
                {"calls": sizes["broadcast_calls"], "repeats": repeats},
            ),
            "fanout": (fanout_measure, {"sizes": sockets}),
            "sweep": (sweep_measure, {"games": sizes["sweep_games"], "due": sweep_due}),
            "wsgi": (
                wsgi_measure,
                {"clients": WSGI_CLIENTS, "moves": sizes["wsgi_moves"], "repeats": repeats},
            ),
            "daphne": (daphne_measure, {"setups": setups, "moves": sizes["daphne_moves"]}),
        }
        with environment as described:
            report["bench"].update(described)
            # In the bench's own order, whatever the order of --only.
            for section in SECTIONS:
                if section in sections and section in measures:
                    measure, arguments = measures[section]
                    self._run(report, timings, section, measure, **arguments)
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


def _moves(moves: list[int]) -> str:
    """A moment's deals' moves, "move 103" or "moves 98–112"."""
    first, last = min(moves), max(moves)
    return f"move {first}" if first == last else f"moves {first}–{last}"


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
                "",
            ),
            (
                "HTMX move / floor POST (min/med/max)",
                spread_text(move["ratio_spread"]),
                f">= {move['target_ratio']}",
            ),
            (
                "move latency",
                f"median {move['move_latency']['median_ms']} ms, "
                f"p95 {move['move_latency']['p95_ms']} ms",
                "",
            ),
        ]
    pages = report.get("pages", {})
    for name in ("napad", "colt"):
        figure = pages.get(name)
        if figure:
            rows += [
                (
                    f"{name}: full page GET / floor GET",
                    spread_text(figure["page_to_floor"]),
                    ">= 0.40",
                ),
                (
                    f"{name}: board fragment GET / floor GET",
                    spread_text(figure["fragment_to_floor"]),
                    ">= 0.60",
                ),
                (
                    f"{name}: page before the end ({_moves(figure['late_moves'])}) / "
                    f"at {_moves(figure['early_moves'])}, as many choices",
                    spread_text(figure["late_page_over_early_page"]),
                    "<= 1.05",
                ),
                (
                    f"{name}: page before the end ({_moves(figure['late_moves'])}) / "
                    f"at {_moves(figure['full_log_moves'])} (log full)",
                    spread_text(figure["late_page_over_full_log_page"]),
                    "<= 1.05",
                ),
            ]
    comeback = report.get("comeback")
    if comeback:
        for name, label in (
            ("coming_back", "game page, coming back (since your last visit)"),
            ("seen_all", "game page, all seen"),
            ("fragment", "table fragment (HTMX)"),
        ):
            figure = comeback[name]
            rows.append(
                (
                    label,
                    f"median {figure['latency']['median_ms']} ms, "
                    f"{figure['ratio_of_medians']} of the baseline's rate",
                    "",
                )
            )
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
    sent = report.get("broadcast")
    if sent:
        floor = sent["publish_floor_ms"]
        rows.append(
            (
                f"broadcast per move ({sent['channel_layer']})",
                spread_text(sent["broadcast_ms"], " ms")
                + (f" (one PUBLISH: {spread_text(floor, ' ms')})" if floor else ""),
                "<= 2 ms",
            )
        )
    for size, figure in report.get("fanout", {}).get("sizes", {}).items():
        delivery = figure["delivery"]
        rows.append(
            (
                f"fan-out {size} sockets",
                f"p50 {delivery['median_ms']} ms, p95 {delivery['p95_ms']} ms",
                "p95 <= 300 ms" if size == "200" else "",
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
    wsgi = report.get("wsgi")
    if wsgi:
        for workers in (1, 2):
            figure = wsgi[f"workers_{workers}"]
            rows.append(
                (
                    f"gunicorn {workers} worker(s): move / floor POST",
                    f"{spread_text(figure['ratio_move_to_floor'])} "
                    f"({figure['moves_per_second']['median']} moves/s)",
                    ">= 0.40",
                )
            )
        rows.append(
            (
                "2 WSGI workers / 1, moves (floor)",
                f"{wsgi['two_workers_over_one_moves']} ({wsgi['two_workers_over_one_floor']})",
                ">= 1.6",
            )
        )
    for key, figure in report.get("daphne", {}).get("setups", {}).items():
        size, processes = key.split("x")
        rows.append(
            (
                f"{size} sockets on {processes} daphne(s): p95",
                f"{spread_text(figure['delivery_p95_ms'], ' ms')}, "
                f"{figure['rss_kb_per_socket']} kB/socket "
                f"(move answer {figure['move_answer_ms']['median']} ms)",
                "<= 300 ms" if processes == "1" else "<= 1 s, <= 50 kB/socket",
            )
        )
    width = [max(len(row[column]) for row in rows) for column in range(3)] if rows else [0, 0, 0]
    lines = [f"{'measure'.ljust(width[0])}  {'figure'.ljust(width[1])}  target"]
    lines += [f"{a.ljust(width[0])}  {b.ljust(width[1])}  {c}" for a, b, c in rows]
    return "\n".join(lines)
