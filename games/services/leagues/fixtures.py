"""The fixtures scheduler: pure functions that seat a round's members at tables.

Over a season members should meet each other as evenly as possible, sit first as often as
each other, and (when the league rotates them) play each gang or character in turn. Each round
is planned from the season's history so far:

1. :func:`table_sizes` splits the members into tables within the league's size range (as few
   byes as the range allows, then as few and as even tables as possible);
2. :func:`byes_choose` picks who sits out when the numbers do not fit (fewest byes first);
3. :func:`tables_assign` groups players so that, once the round is played, the season's pair
   meeting counts are as even as possible: smallest spread (most minus fewest meetings)
   first, then fewest pairs at either extreme, then the smallest sum of squares. Judging the
   whole season's counts rather than a per-table cost matters: a per-table cost happily
   keeps two members apart all season;
4. :func:`seat_order` and :func:`identities_assign` rotate the first seat and the gangs.

Randomness comes only from a seeded ``random.Random`` using ``random()``, so a round's plan is
reproducible from the season's seed and round number.
"""

from __future__ import annotations

import hashlib
import itertools
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

# Above this many candidate assignments, identities are chosen greedily.
_IDENTITY_SEARCH_LIMIT = 20_000
_RESTARTS = 8
# Groupings tried for the next round when judging tied candidates for this one.
_LOOKAHEAD = 3


def rng_for_round(seed: str, round_number: int) -> random.Random:
    digest = hashlib.sha256(f"{seed}:round:{round_number}".encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))  # noqa: S311 (not a secret)


def _shuffled(items: Iterable, rng: random.Random) -> list:
    items = list(items)
    for i in range(len(items) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        items[i], items[j] = items[j], items[i]
    return items


def pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


@dataclass
class SeasonHistory:
    """What the season has scheduled so far, counted the way the scheduler balances it."""

    meetings: Counter = field(default_factory=Counter)  # (a, b) with a < b -> tables shared
    positions: dict[int, Counter] = field(default_factory=dict)  # player -> seat -> count
    identities: dict[int, Counter] = field(default_factory=dict)  # player -> identity -> count
    byes: Counter = field(default_factory=Counter)
    games: Counter = field(default_factory=Counter)

    def add_table(
        self,
        players: Sequence[int],
        identities: Sequence[str] | None = None,
        *,
        seated: bool = True,
    ) -> None:
        """Count a table; ``seated=False`` for one the scheduler did not plan (a club-night
        game): its meetings count, but not its seats nor as a game when choosing byes."""
        for a, b in itertools.combinations(players, 2):
            self.meetings[pair(a, b)] += 1
        for position, player in enumerate(players):
            if seated:
                self.positions.setdefault(player, Counter())[position] += 1
                self.games[player] += 1
            if identities:
                self.identities.setdefault(player, Counter())[identities[position]] += 1

    def add_bye(self, player: int) -> None:
        self.byes[player] += 1


@dataclass
class PlannedTable:
    players: list[int]  # in seat order; seat 0 moves first
    identities: list[str] | None = None


@dataclass
class RoundPlan:
    tables: list[PlannedTable]
    byes: list[int]


def table_sizes(players: int, low: int, high: int) -> list[int]:
    """Table sizes (largest first) seating as many of ``players`` as the range allows.

    Fewest byes first; then the fewest tables (fuller tables mean more meetings per round);
    then sizes as even as possible. ``sum(result)`` may be less than ``players``: the rest
    sit the round out.
    """
    if low < 1 or high < low:
        raise ValueError("table size range must satisfy 1 <= low <= high")
    for seated in range(players, 0, -1):
        tables = -(-seated // high)  # ceil
        if tables * low <= seated:
            base, extra = divmod(seated, tables)
            return [base + 1] * extra + [base] * (tables - extra)
    return []


def byes_choose(
    players: Sequence[int], count: int, history: SeasonHistory, rng: random.Random
) -> list[int]:
    """Who sits out: those with the fewest byes so far, then the most games, then chance."""
    if count <= 0:
        return []
    order = _shuffled(players, rng)
    order.sort(key=lambda p: (history.byes[p], -history.games[p]))
    return sorted(order[:count])


def _balance_key(histogram: Counter) -> tuple[int, int, int]:
    """How uneven the pair meeting counts are: the spread first, then how many pairs sit at
    either extreme, then the sum of squares (the variance, as the total is fixed)."""
    values = [value for value, count in histogram.items() if count]
    high, low = max(values), min(values)
    squares = sum(value * value * count for value, count in histogram.items())
    return (high - low, histogram[high] + histogram[low], squares)


def _swap_changes(tables: list[list[int]], i: int, a_index: int, j: int, b_index: int):
    """The pair count changes of swapping two players between tables ``i`` and ``j``."""
    a, b = tables[i][a_index], tables[j][b_index]
    changes = []
    for other in tables[i]:
        if other != a:
            changes += [(pair(a, other), -1), (pair(b, other), +1)]
    for other in tables[j]:
        if other != b:
            changes += [(pair(b, other), -1), (pair(a, other), +1)]
    return changes


def _hill_climb(
    tables: list[list[int]], after: dict[tuple[int, int], int]
) -> tuple[tuple[int, int, int], list[list[int]]]:
    """Swap players between tables while a swap makes the season's meetings more even.

    ``after`` holds every pair's count including this round's tables and is kept current, as
    is its histogram, so judging a swap costs only the pairs it touches.
    """
    histogram = Counter(after.values())
    current = _balance_key(histogram)

    def shift(changes, sign: int) -> None:
        for key, delta in changes:
            histogram[after[key]] -= 1
            after[key] += delta * sign
            histogram[after[key]] += 1

    improved = True
    while improved:
        improved = False
        for i, j in itertools.combinations(range(len(tables)), 2):
            for a_index in range(len(tables[i])):
                for b_index in range(len(tables[j])):
                    changes = _swap_changes(tables, i, a_index, j, b_index)
                    shift(changes, +1)
                    candidate = _balance_key(histogram)
                    if candidate < current:
                        current = candidate
                        tables[i][a_index], tables[j][b_index] = (
                            tables[j][b_index],
                            tables[i][a_index],
                        )
                        improved = True
                    else:
                        shift(reversed(changes), -1)
    return current, tables


def _groupings(
    players: Sequence[int],
    sizes: Sequence[int],
    meetings: Mapping[tuple[int, int], int],
    rng: random.Random,
    attempts: int,
) -> list[tuple[tuple[int, int, int], list[list[int]], dict[tuple[int, int], int]]]:
    """``attempts`` seeded random groupings, each improved by swaps: (key, tables, counts
    after the round)."""
    everyone = sorted(players)
    found = []
    for _attempt in range(attempts):
        order = _shuffled(everyone, rng)
        tables, start = [], 0
        for size in sizes:
            tables.append(order[start : start + size])
            start += size
        after = {key: meetings.get(key, 0) for key in itertools.combinations(everyone, 2)}
        for table in tables:
            for a, b in itertools.combinations(table, 2):
                after[pair(a, b)] += 1
        key, tables = _hill_climb(tables, after)
        found.append((key, sorted(sorted(t) for t in tables), after))
    return found


def tables_assign(
    players: Sequence[int],
    sizes: Sequence[int],
    meetings: Mapping[tuple[int, int], int],
    rng: random.Random,
) -> list[list[int]]:
    """Group ``players`` into tables of ``sizes`` so the season's pair meeting counts stay
    as even as possible once this round is played.

    Several seeded random groupings, each improved by swaps; the most even one wins. Many
    groupings are often equally even now but not equally easy to balance next round, so a
    tie is settled by looking one round ahead (it narrows the worst spreads: see
    tests/leagues/test_fixtures_scheduler.py).
    Each table's members come back sorted (seat order is chosen afterwards).
    """
    if sum(sizes) != len(players):
        raise ValueError("table sizes must seat every player")
    if len(sizes) <= 1:
        return [sorted(players)] if sizes else []
    found = _groupings(players, sizes, meetings, rng, _RESTARTS)
    best_key = min(key for key, _tables, _after in found)
    tied: dict[str, tuple[list[list[int]], dict]] = {}
    for key, tables, after in found:
        if key == best_key:
            tied.setdefault(repr(tables), (tables, after))
    choices = list(tied.values())
    if len(choices) > 1:

        def next_round(choice) -> tuple[int, int, int]:
            return min(k for k, _t, _a in _groupings(players, sizes, choice[1], rng, _LOOKAHEAD))

        choices.sort(key=next_round)
    return sorted(choices[0][0], key=lambda t: (-len(t), t))


def seat_order(
    players: Sequence[int], positions: Mapping[int, Counter], rng: random.Random
) -> list[int]:
    """Seat order for one table: whoever sat first least often goes first, and so on.

    Sitting first weighs double: it is the seat members notice.
    """
    candidates = _shuffled(players, rng)

    def cost(order: Sequence[int]) -> int:
        return sum(
            positions.get(player, Counter())[index] * (2 if index == 0 else 1)
            for index, player in enumerate(order)
        )

    if len(candidates) <= 7:
        return list(min(itertools.permutations(candidates), key=cost))
    order: list[int] = []
    remaining = list(candidates)
    for index in range(len(candidates)):
        chosen = min(remaining, key=lambda p: positions.get(p, Counter())[index])
        order.append(chosen)
        remaining.remove(chosen)
    return order


def identities_assign(
    players: Sequence[int],
    available: Sequence[str],
    counts: Mapping[int, Counter],
    rng: random.Random,
) -> list[str]:
    """One distinct gang/character per seat, each player getting the ones they played least."""
    if len(available) < len(players):
        raise ValueError("not enough gangs or characters for this table")
    pool = _shuffled(available, rng)

    def cost(choice: Sequence[str]) -> int:
        # Squares: playing one gang a third time is worse than two players repeating once.
        return sum(counts.get(p, Counter())[ident] ** 2 for p, ident in zip(players, choice))

    total = 1
    for k in range(len(players)):
        total *= len(pool) - k
    if total <= _IDENTITY_SEARCH_LIMIT:
        return list(min(itertools.permutations(pool, len(players)), key=cost))
    chosen: list[str] = []
    for player in players:
        left = [ident for ident in pool if ident not in chosen]
        chosen.append(min(left, key=lambda ident: counts.get(player, Counter())[ident]))
    return chosen


def round_plan(
    players: Sequence[int],
    *,
    low: int,
    high: int,
    history: SeasonHistory,
    rng: random.Random,
    identities: Sequence[str] | None = None,
) -> RoundPlan:
    """Plan one round for ``players``: byes, tables, seat orders and (optionally) identities.

    ``identities`` is the list of gangs/characters to rotate, or ``None`` to leave them to
    the game's setup.
    """
    players = sorted(set(players))
    sizes = table_sizes(len(players), low, high)
    byes = byes_choose(players, len(players) - sum(sizes), history, rng)
    seated = [p for p in players if p not in set(byes)]
    groups = tables_assign(seated, sizes, history.meetings, rng)
    tables = []
    for group in groups:
        order = seat_order(group, history.positions, rng)
        chosen = (
            identities_assign(order, identities, history.identities, rng) if identities else None
        )
        tables.append(PlannedTable(players=order, identities=chosen))
    return RoundPlan(tables=tables, byes=byes)


def season_simulate(
    players: Sequence[int],
    rounds: int,
    *,
    low: int,
    high: int,
    seed: str = "season",
    identities: Sequence[str] | None = None,
) -> tuple[list[RoundPlan], SeasonHistory]:
    """Plan ``rounds`` rounds in a row, each from the history of the ones before (for tests
    and for showing an organiser what a season would look like)."""
    history = SeasonHistory()
    plans = []
    for number in range(1, rounds + 1):
        plan = round_plan(
            players,
            low=low,
            high=high,
            history=history,
            rng=rng_for_round(seed, number),
            identities=identities,
        )
        for table in plan.tables:
            history.add_table(table.players, table.identities)
        for player in plan.byes:
            history.add_bye(player)
        plans.append(plan)
    return plans, history


def meeting_spread(players: Sequence[int], meetings: Mapping[tuple[int, int], int]) -> int:
    """Most minus fewest meetings over every pair of ``players`` (0 = perfectly even)."""
    counts = [meetings.get(pair(a, b), 0) for a, b in itertools.combinations(players, 2)]
    return max(counts) - min(counts) if counts else 0
