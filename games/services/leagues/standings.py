"""Season standings: placement points, tie-breaks in the league's order, the drop rule.

The first half is pure (plain dataclasses in, plain data out) so every rule is tested without
a database; the second half stores :class:`~games.models.Standing` rows. A finished fixture
adds its points to the stored lines (:func:`standings_fixture_apply`, run once per fixture by
the results ledger) and the season is re-ranked; :func:`season_standings_recompute` rebuilds
the same lines from every finished fixture, and must agree with the incremental ones.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from django.db import transaction

from games.models import Fixture, League, Season, Standing

# Floats (split points, percentages) are compared after rounding so that adding the same
# numbers in another order can never reorder a table.
_PRECISION = 6


@dataclass(frozen=True)
class SeatResult:
    player: int
    place: int
    score: int | None = None
    dropped: bool = False


@dataclass(frozen=True)
class TableResult:
    key: str
    seats: tuple[SeatResult, ...]


@dataclass
class Contribution:
    points: float
    win: bool
    winner_pct: float
    score: int
    dropped: bool
    # The place used for head-to-head: a dropped player counts as last unless the rule keeps
    # the bot's result.
    effective_place: int


@dataclass
class Line:
    player: int
    points: float = 0.0
    games: int = 0
    wins: int = 0
    winner_pct_total: float = 0.0
    score_total: int = 0
    drops: int = 0

    def add(self, contribution: Contribution) -> None:
        self.points += contribution.points
        self.games += 1
        self.wins += int(contribution.win)
        self.winner_pct_total += contribution.winner_pct
        self.score_total += contribution.score
        self.drops += int(contribution.dropped)


@dataclass
class RankedLine:
    rank: int
    line: Line
    tie_break_values: dict[str, float] = field(default_factory=dict)


def split_points(points: Sequence[float], places: Sequence[int]) -> list[float]:
    """Points per seat for ``places`` (competition ranking: 1, 1, 3, 4).

    Seats sharing a place share the points of the positions they occupy: two players tied
    for second at a 5/3/1/0 table get (3 + 1) / 2 = 2 each.
    """
    size = len(places)
    padded = list(points) + [0.0] * max(0, size - len(points))
    shared: dict[int, list[int]] = defaultdict(list)
    for seat, place in enumerate(places):
        shared[place].append(seat)
    result = [0.0] * size
    for place, seats in shared.items():
        first = place - 1
        occupied = padded[first : first + len(seats)]
        value = sum(occupied) / len(seats)
        for seat in seats:
            result[seat] = value
    return result


def _winner_pct(seat: SeatResult, table: TableResult) -> float:
    """This seat's score as a percentage of the winner's; without scores (a club-night result
    entered with places only) the place stands in: 100 for first, 0 for last."""
    scores = [s.score for s in table.seats]
    if any(score is None for score in scores):
        size = len(table.seats)
        return 100.0 * (size - seat.place) / (size - 1) if size > 1 else 100.0
    best = max(scores)
    if best <= 0:
        return 100.0 if seat.score == best else 0.0
    return 100.0 * max(seat.score, 0) / best


def table_contributions(
    table: TableResult, points_for_size: Callable[[int], Sequence[float]], drop_rule: str
) -> dict[int, Contribution]:
    """What one finished table adds to each of its players' lines."""
    size = len(table.seats)
    points = list(points_for_size(size))
    earned = split_points(points, [seat.place for seat in table.seats])
    result = {}
    for index, seat in enumerate(table.seats):
        if seat.dropped and drop_rule != League.DropRule.KEEP:
            value = points[size - 1] if drop_rule == League.DropRule.LAST else 0.0
            result[seat.player] = Contribution(
                points=float(value),
                win=False,
                winner_pct=0.0,
                score=seat.score or 0,
                dropped=True,
                effective_place=size,
            )
        else:
            result[seat.player] = Contribution(
                points=earned[index],
                win=seat.place == 1,
                winner_pct=_winner_pct(seat, table),
                score=seat.score or 0,
                dropped=seat.dropped,
                effective_place=seat.place,
            )
    return result


def lines_build(
    tables: Iterable[TableResult],
    points_for_size: Callable[[int], Sequence[float]],
    drop_rule: str,
    players: Iterable[int] = (),
) -> dict[int, Line]:
    lines = {player: Line(player=player) for player in players}
    for table in tables:
        for player, contribution in table_contributions(table, points_for_size, drop_rule).items():
            lines.setdefault(player, Line(player=player)).add(contribution)
    return lines


def head_to_head(
    group: Iterable[int],
    tables: Iterable[TableResult],
    points_for_size: Callable[[int], Sequence[float]],
    drop_rule: str,
) -> dict[int, int]:
    """Within ``group``: per player, opponents from the group they finished ahead of minus
    those they finished behind, over every table they shared."""
    members = set(group)
    balance = dict.fromkeys(members, 0)
    for table in tables:
        present = [seat.player for seat in table.seats if seat.player in members]
        if len(present) < 2:
            continue
        contributions = table_contributions(table, points_for_size, drop_rule)
        for player in present:
            mine = contributions[player].effective_place
            for other in present:
                theirs = contributions[other].effective_place
                balance[player] += (mine < theirs) - (mine > theirs)
    return balance


def _value(name: str, line: Line) -> float:
    if name == "points":
        value = line.points
    elif name == "average_points":
        value = line.points / line.games if line.games else 0.0
    elif name == "winner_pct":
        value = line.winner_pct_total / line.games if line.games else 0.0
    elif name == "wins":
        value = line.wins
    elif name == "score":
        value = line.score_total
    elif name == "fewest_drops":
        value = -line.drops
    else:
        raise ValueError(f"unknown tie-break {name!r}")
    return round(float(value), _PRECISION)


def lines_rank(
    lines: Mapping[int, Line],
    order: Sequence[str],
    tables: Sequence[TableResult],
    points_for_size: Callable[[int], Sequence[float]],
    drop_rule: str,
    names: Mapping[int, str] | None = None,
) -> list[RankedLine]:
    """Rank lines by the criteria in ``order`` (best first).

    Each criterion only separates players the earlier ones left level, so head-to-head is a
    mini-league among exactly the players still tied. Players level on every criterion share
    a rank and are listed by name.
    """
    names = names or {}
    tables = list(tables)

    def resolve(group: list[int], criteria: Sequence[str]) -> list[list[int]]:
        if len(group) <= 1 or not criteria:
            return [group]
        name, rest = criteria[0], criteria[1:]
        if name == "head_to_head":
            values = head_to_head(group, tables, points_for_size, drop_rule)
        else:
            values = {player: _value(name, lines[player]) for player in group}
        buckets: dict[float, list[int]] = defaultdict(list)
        for player in group:
            buckets[values[player]].append(player)
        resolved = []
        for value in sorted(buckets, reverse=True):
            resolved.extend(resolve(buckets[value], rest))
        return resolved

    ranked: list[RankedLine] = []
    for group in resolve(list(lines), list(order)):
        rank = len(ranked) + 1
        for player in sorted(group, key=lambda p: (names.get(p, ""), p)):
            values = {name: _value(name, lines[player]) for name in order if name != "head_to_head"}
            ranked.append(RankedLine(rank=rank, line=lines[player], tie_break_values=values))
    return ranked


# -- stored standings ---------------------------------------------------------------------------


def season_tables(season: Season) -> list[TableResult]:
    """Every finished fixture of the season as plain results, in the order they finished."""
    fixtures = (
        Fixture.objects.filter(season=season, status=Fixture.Status.FINISHED)
        .prefetch_related("seats")
        .order_by("played_at", "pk")
    )
    return [fixture_table(fixture) for fixture in fixtures]


def fixture_table(fixture: Fixture) -> TableResult:
    return TableResult(
        key=f"fixture:{fixture.pk}",
        seats=tuple(
            SeatResult(player=s.player_id, place=s.place, score=s.score, dropped=s.dropped)
            for s in sorted(fixture.seats.all(), key=lambda s: s.position)
        ),
    )


def _divisions_of(season: Season) -> dict[int, int]:
    """player id -> division id for the season's divisions."""
    through = season.divisions.model.members.through
    rows = through.objects.filter(division__season=season).values_list("player_id", "division_id")
    return dict(rows)


def _standings_save(season: Season, lines: Mapping[int, Line], tables: list[TableResult]) -> None:
    """Rank each division's lines and write them over the season's Standing rows."""
    league = season.league
    divisions = _divisions_of(season)
    existing = {row.player_id: row for row in Standing.objects.filter(season=season)}
    by_division: dict[int | None, dict[int, Line]] = defaultdict(dict)
    for player, line in lines.items():
        by_division[divisions.get(player)][player] = line
    names = dict(
        season.league.memberships.model.objects.filter(league=league).values_list(
            "player_id", "player__display_name"
        )
    )
    to_create, to_update = [], []
    for division_id, division_lines in by_division.items():
        ranked = lines_rank(
            division_lines,
            league.tie_breaks or ["points"],
            tables,
            league.points_for_table,
            league.drop_rule,
            names,
        )
        for item in ranked:
            line = item.line
            row = existing.get(line.player) or Standing(season=season, player_id=line.player)
            row.division_id = division_id
            row.rank = item.rank
            row.points = line.points
            row.games = line.games
            row.wins = line.wins
            row.winner_pct_total = line.winner_pct_total
            row.score_total = line.score_total
            row.drops = line.drops
            (to_update if row.pk else to_create).append(row)
    Standing.objects.bulk_create(to_create)
    Standing.objects.bulk_update(
        to_update,
        ["division", "rank", "points", "games", "wins", "winner_pct_total", "score_total", "drops"],
    )


def _stored_lines(season: Season) -> dict[int, Line]:
    return {
        row.player_id: Line(
            player=row.player_id,
            points=row.points,
            games=row.games,
            wins=row.wins,
            winner_pct_total=row.winner_pct_total,
            score_total=row.score_total,
            drops=row.drops,
        )
        for row in Standing.objects.filter(season=season)
    }


def standings_fixture_apply(fixture: Fixture) -> None:
    """Add one finished fixture to its season's stored standings and re-rank the season.

    Called once per fixture, from inside the transaction that writes its ledger row, so the
    points can never be added twice.
    """
    # Two results of one season recorded at once must not both add to the lines they read:
    # lock the season row first (PostgreSQL; SQLite's immediate transactions serialise
    # writers already).
    season = Season.objects.select_for_update().select_related("league").get(pk=fixture.season_id)
    league = season.league
    lines = _stored_lines(season)
    table = fixture_table(fixture)
    for player, contribution in table_contributions(
        table, league.points_for_table, league.drop_rule
    ).items():
        lines.setdefault(player, Line(player=player)).add(contribution)
    _standings_save(season, lines, season_tables(season))


def season_standings_recompute(season: Season) -> None:
    """Rebuild the season's standings from its finished fixtures (and its members)."""
    league = season.league
    tables = season_tables(season)
    players = set(_divisions_of(season)) | set(
        Standing.objects.filter(season=season).values_list("player_id", flat=True)
    )
    lines = lines_build(tables, league.points_for_table, league.drop_rule, players)
    with transaction.atomic():
        _standings_save(season, lines, tables)


def season_standings_ensure(season: Season) -> None:
    """A zero line for every division member who has none yet (so a new season shows its
    whole table before the first game ends)."""
    present = set(Standing.objects.filter(season=season).values_list("player_id", flat=True))
    divisions = _divisions_of(season)
    Standing.objects.bulk_create(
        [
            Standing(season=season, player_id=player, division_id=division)
            for player, division in divisions.items()
            if player not in present
        ]
    )
