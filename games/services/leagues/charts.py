"""The rating history chart: drawn by ``games.services.charts`` (shared with the end screen's
round-by-round chart), kept importable from here for the leagues' selectors."""

from games.services.charts import line_chart

__all__ = ["line_chart"]
