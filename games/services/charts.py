"""Charts rendered on the server as SVG coordinates (no JavaScript needed): a member's rating
history (one line) and the end screen's round-by-round loot of every player (one line each,
on one scale)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any


def _y_scale(values: Sequence[float], top: float, height: float) -> tuple[Callable, float, float]:
    """value → y (higher values higher up), and the range it spans (never empty)."""
    low, high = min(values), max(values)
    if high - low < 1:
        low, high = low - 1, high + 1

    def y_of(value: float) -> float:
        return round(top + height * (1 - (value - low) / (high - low)), 1)

    return y_of, low, high


def line_chart(
    values: Sequence[float], *, width: int = 600, height: int = 200, padding: int = 28
) -> dict:
    """Coordinates for a line chart of ``values`` (oldest first), with three y-axis ticks.

    Returns ``{"points": "x,y x,y …", "dots": [{"x", "y", "value"}], "ticks": [{"y",
    "label"}], "width", "height"}``; empty ``points`` when there is nothing to draw.
    """
    chart = {"width": width, "height": height, "points": "", "dots": [], "ticks": []}
    if not values:
        return chart
    inner_w, inner_h = width - 2 * padding, height - 2 * padding
    y_of, low, high = _y_scale(values, padding, inner_h)
    step = inner_w / (len(values) - 1) if len(values) > 1 else 0
    dots = []
    for index, value in enumerate(values):
        x = round(padding + (step * index if len(values) > 1 else inner_w / 2), 1)
        dots.append({"x": x, "y": y_of(value), "value": round(value)})
    chart["dots"] = dots
    chart["points"] = " ".join(f"{d['x']},{d['y']}" for d in dots)
    chart["ticks"] = [{"y": y_of(v), "label": round(v)} for v in (high, (high + low) / 2, low)]
    return chart


def scores_chart(
    scores: dict[str, Any], names: dict[int, str], *, width: int = 480, height: int = 200
) -> dict:
    """One line per seat over the rounds: ``scores`` is ``{"series": {seat: [after round 1,
    after round 2, …]}}`` (seats as strings or ints). Starts at 0 before the first round.

    Returns ``{"width", "height", "lines": [{"seat", "name", "points", "dots", "last"}],
    "rounds": [{"x", "label"}], "ticks": [{"y", "label"}], "left", "right", "bottom"}``;
    no lines when there is nothing to draw."""
    left, right, top, bottom = 44, 16, 12, height - 28
    series = {int(seat): [0, *values] for seat, values in (scores.get("series") or {}).items()}
    chart: dict[str, Any] = {
        "width": width,
        "height": height,
        "lines": [],
        "rounds": [],
        "ticks": [],
        "left": left,
        "right": width - right,
        "bottom": bottom,
    }
    points_count = max((len(values) for values in series.values()), default=0)
    if points_count < 2:
        return chart
    everything = [value for values in series.values() for value in values]
    y_of, low, high = _y_scale([0, *everything], top, bottom - top)
    step = (width - left - right) / (points_count - 1)
    chart["rounds"] = [
        {"x": round(left + step * index, 1), "label": index} for index in range(1, points_count)
    ]
    chart["ticks"] = [{"y": y_of(v), "label": round(v)} for v in (high, (high + low) / 2, low)]
    for seat in sorted(series):
        values = series[seat]
        dots = [
            {"x": round(left + step * index, 1), "y": y_of(value), "value": value, "round": index}
            for index, value in enumerate(values)
        ]
        chart["lines"].append(
            {
                "seat": seat,
                "name": names.get(seat, ""),
                "points": " ".join(f"{d['x']},{d['y']}" for d in dots),
                "dots": dots[1:],
                "values": values[1:],
                "last": values[-1],
            }
        )
    return chart
