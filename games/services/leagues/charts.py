"""The rating history chart, drawn on the server as SVG coordinates (no JavaScript needed)."""

from __future__ import annotations

from collections.abc import Sequence


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
    low, high = min(values), max(values)
    if high - low < 1:
        low, high = low - 1, high + 1
    inner_w, inner_h = width - 2 * padding, height - 2 * padding
    step = inner_w / (len(values) - 1) if len(values) > 1 else 0

    def y_of(value: float) -> float:
        return round(padding + inner_h * (1 - (value - low) / (high - low)), 1)

    dots = []
    for index, value in enumerate(values):
        x = round(padding + (step * index if len(values) > 1 else inner_w / 2), 1)
        dots.append({"x": x, "y": y_of(value), "value": round(value)})
    chart["dots"] = dots
    chart["points"] = " ".join(f"{d['x']},{d['y']}" for d in dots)
    chart["ticks"] = [{"y": y_of(v), "label": round(v)} for v in (high, (high + low) / 2, low)]
    return chart
