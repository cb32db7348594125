"""Small summaries of timings: median and 95th percentile in milliseconds, and the spread
(min / median / max) of a figure measured several times."""

from __future__ import annotations

import math
import statistics


def percentile(values: list[float], fraction: float) -> float:
    """The nearest-rank percentile (``fraction`` in 0..1) of a non-empty list."""
    ordered = sorted(values)
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[rank - 1]


def latency_summary(seconds: list[float]) -> dict:
    return {
        "count": len(seconds),
        "median_ms": round(statistics.median(seconds) * 1000, 2),
        "p95_ms": round(percentile(seconds, 0.95) * 1000, 2),
        "max_ms": round(max(seconds) * 1000, 2),
    }


def spread(values: list[float], digits: int = 3) -> dict:
    """A figure measured in several repeats: ``{"min", "median", "max", "runs"}``. The
    machine is shared, so one run alone says little; the median is the figure to quote."""
    return {
        "min": round(min(values), digits),
        "median": round(statistics.median(values), digits),
        "max": round(max(values), digits),
        "runs": len(values),
    }


def spread_text(figure: dict, unit: str = "") -> str:
    """``min / median / max`` as one short string for the table."""
    return f"{figure['min']} / {figure['median']} / {figure['max']}{unit}"
