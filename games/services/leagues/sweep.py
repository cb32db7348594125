"""The leagues' beat job: open due rounds, close overdue ones, finish played-out seasons."""

from __future__ import annotations

from datetime import datetime

from .divisions import seasons_finish_played
from .rounds import rounds_sweep


def leagues_sweep(now: datetime | None = None) -> dict[str, int]:
    counts = rounds_sweep(now)
    counts["seasons_finished"] = len(seasons_finish_played())
    return counts
