"""Balance statistics: how each gang / character and each seat fares in a league's games.

Pure: rows in, plain dicts out. A fair table gives every seat and every gang a win rate near
the table's chance (1 / players) and an average relative place near 0.5 (0 = always first,
1 = always last), so both are shown beside each other. Here, beside the models, because the
leagues' selectors read it (games/selectors/leagues.py ``league_balance_data``) and
selectors never import services.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class BalanceRow:
    identity: str
    position: int
    place: int
    table_size: int


def _summary(key, rows: list[BalanceRow]) -> dict:
    games = len(rows)
    wins = sum(1 for r in rows if r.place == 1)
    relative = [(r.place - 1) / (r.table_size - 1) if r.table_size > 1 else 0.0 for r in rows]
    chance = sum(1 / r.table_size for r in rows)
    return {
        "key": key,
        "games": games,
        "wins": wins,
        "win_rate": wins / games if games else 0.0,
        "expected_win_rate": chance / games if games else 0.0,
        "average_place": sum(r.place for r in rows) / games if games else 0.0,
        "relative_place": sum(relative) / games if games else 0.0,
    }


def balance_stats(rows: Iterable[BalanceRow]) -> dict[str, list[dict]]:
    """Per identity and per seat (0 = moved first): games, wins, win rate (and the rate
    chance alone would give), average place and average relative place."""
    by_identity: dict[str, list[BalanceRow]] = defaultdict(list)
    by_seat: dict[int, list[BalanceRow]] = defaultdict(list)
    for row in rows:
        if row.identity:
            by_identity[row.identity].append(row)
        by_seat[row.position].append(row)
    return {
        "identities": [
            _summary(key, items)
            for key, items in sorted(by_identity.items(), key=lambda kv: (-len(kv[1]), kv[0]))
        ],
        "seats": [_summary(key, items) for key, items in sorted(by_seat.items())],
    }
