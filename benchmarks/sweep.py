"""The turn-clock sweep over many running games, by calling the clocks' own benchmark
(``manage.py sweep_turns --benchmark``: builds the club inside a transaction, sweeps, rolls
back) on the bench's throwaway database."""

from __future__ import annotations

import io
import json

from django.core.management import call_command


def sweep_measure(*, games: int, due: int) -> dict:
    out = io.StringIO()
    call_command("sweep_turns", "--benchmark", "--games", str(games), "--due", str(due), stdout=out)
    report = json.loads(out.getvalue())
    # What beat runs every minute: find what is due through the indexes and queue one task per
    # item (the workers then act on them in parallel). `sweep_seconds` is the other figure:
    # acting on every due item in this one process, one after another.
    report["beat_sweep_seconds"] = round(report["find_seconds"] + report["fan_out_seconds"], 4)
    report["target"] = (
        "beat_sweep_seconds < 1 on PostgreSQL (100,000 games, 1,000 due); sweep_seconds is the "
        "serial cost of acting on every due item in one process"
    )
    return report
