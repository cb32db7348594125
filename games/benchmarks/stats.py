"""Small summaries of timings: median and 95th percentile in milliseconds."""

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
