"""Club-wide skill ratings per game kind: OpenSkill's Plackett–Luce model for finishing orders.

Ratings are a function of the *ordered* list of counted results (the ledger, sorted by when
each game finished, then by its source as a stable tie-break). A result recorded late, after
results that finished later than it, replays the ratings from its own finishing time, so the
stored ratings always equal a recompute from scratch whatever order the tasks ran in.

Only members are rated: bot seats are left out, and a member whose seat was handed to a bot
is rated as sharing last place among the members (they did not finish the game). Practice
games (a member against the bots, ``Game.practice``) are not rated at all.

The arithmetic itself (one game's update, the expected places) is pure and lives with the
rows it fills, in games/models/ratings.py, where the leagues' selectors read it too.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.db.models import Q

from games.models import Game, Rating, RatingHistory, ResultRecord
from games.models.ratings import (
    Skill,
    expected_places,
    rated_places,
    skills_update,
)
from games.selectors.tables import game_seats

# -- stored ratings ---------------------------------------------------------------------------


def _record_seats(record: ResultRecord) -> list[tuple[int | None, int | None, bool]]:
    if record.game_id is not None:
        if record.game.practice:
            # "Play against bots" (services/practice.py): practice never moves a rating.
            return []
        return [
            (seat.player_id, seat.place, seat.replaced_by_bot) for seat in record.game.seats.all()
        ]
    return [(seat.player_id, seat.place, seat.dropped) for seat in record.fixture.seats.all()]


def _ordered_records(kind: str):
    return (
        ResultRecord.objects.filter(kind=kind)
        .select_related("game", "fixture")
        .prefetch_related("game__seats", "fixture__seats")
        .order_by("finished_at", "source")
    )


def _apply(record: ResultRecord, skills: dict[int, Skill], games: dict[int, int]):
    """Rate one result against the in-memory ``skills``; returns the history rows to write."""
    placed = rated_places(_record_seats(record))
    if not placed:
        return []
    players = [player for player, _place in placed]
    before = [skills.get(player, Skill()) for player in players]
    expected = expected_places(before)
    after = skills_update(before, [place for _player, place in placed])
    rows = []
    for index, (player, place) in enumerate(placed):
        skills[player] = after[index]
        games[player] = games.get(player, 0) + 1
        rows.append(
            RatingHistory(
                player_id=player,
                kind=record.kind,
                record=record,
                mu=after[index].mu,
                sigma=after[index].sigma,
                place=place,
                table_size=len(placed),
                expected_place=expected[index],
                played_at=record.finished_at,
            )
        )
    return rows


def _ratings_write(kind: str, skills: dict[int, Skill], games: dict[int, int]) -> None:
    existing = {r.player_id: r for r in Rating.objects.filter(kind=kind)}
    to_create, to_update = [], []
    for player, skill in skills.items():
        row = existing.get(player) or Rating(player_id=player, kind=kind)
        row.mu, row.sigma, row.games = skill.mu, skill.sigma, games.get(player, 0)
        (to_update if row.pk else to_create).append(row)
    Rating.objects.bulk_create(to_create)
    Rating.objects.bulk_update(to_update, ["mu", "sigma", "games"])


def ratings_record_apply(record: ResultRecord) -> None:
    """Rate a newly recorded result. If results that finished later were already rated,
    replay from this one so the order of finishing, not of recording, decides."""
    # Serialise rating updates of one game kind (PostgreSQL row locks; SQLite's immediate
    # transactions already do), and only then look for later results, so a result recorded
    # concurrently is either seen here or sees this one.
    list(Rating.objects.select_for_update().filter(kind=record.kind).values_list("pk"))
    later = (
        ResultRecord.objects.filter(kind=record.kind)
        .filter(
            Q(finished_at__gt=record.finished_at)
            | Q(finished_at=record.finished_at, source__gt=record.source)
        )
        .exists()
    )
    if later:
        ratings_replay(record.kind, since=record)
        return
    record = _ordered_records(record.kind).get(pk=record.pk)
    placed = rated_places(_record_seats(record))
    players = [player for player, _place in placed]
    current = {r.player_id: r for r in Rating.objects.filter(kind=record.kind, player__in=players)}
    skills = {p: Skill(r.mu, r.sigma) for p, r in current.items()}
    games = {p: r.games for p, r in current.items()}
    rows = _apply(record, skills, games)
    RatingHistory.objects.bulk_create(rows)
    _ratings_write(record.kind, {p: skills[p] for p in players if p in skills}, games)


def ratings_replay(kind: str, *, since: ResultRecord | None = None) -> int:
    """Recompute ``kind``'s ratings from the ledger: everything (``since=None``), or from
    ``since`` onward starting from each member's last rating before it. Returns the number
    of results replayed."""
    with transaction.atomic():
        records = _ordered_records(kind)
        history = RatingHistory.objects.filter(kind=kind)
        if since is not None:
            after_cutoff = Q(finished_at__gt=since.finished_at) | Q(
                finished_at=since.finished_at, source__gte=since.source
            )
            records = records.filter(after_cutoff)
            replayed = history.filter(
                Q(record__finished_at__gt=since.finished_at)
                | Q(record__finished_at=since.finished_at, record__source__gte=since.source)
            )
        else:
            replayed = history
        replayed.delete()
        skills: dict[int, Skill] = {}
        games: dict[int, int] = {}
        # Each member's rating just before the cutoff: their last remaining history row.
        for row in RatingHistory.objects.filter(kind=kind).order_by(
            "player", "record__finished_at", "record__source"
        ):
            skills[row.player_id] = Skill(row.mu, row.sigma)
            games[row.player_id] = games.get(row.player_id, 0) + 1
        for player in Rating.objects.filter(kind=kind).values_list("player_id", flat=True):
            skills.setdefault(player, Skill())
            games.setdefault(player, 0)
        rows = []
        count = 0
        for record in records:
            rows.extend(_apply(record, skills, games))
            count += 1
        RatingHistory.objects.bulk_create(rows)
        _ratings_write(kind, skills, games)
    return count


def ratings_recompute_all() -> dict[str, int]:
    """Every kind's ratings from scratch (``league_recompute --ratings``)."""
    kinds = ResultRecord.objects.values_list("kind", flat=True).distinct()
    result = {}
    for kind in sorted(set(kinds) | set(Rating.objects.values_list("kind", flat=True))):
        result[kind] = ratings_replay(kind)
    return result


def players_expected_places(kind: str, player_ids: Sequence[int]) -> dict[int, float]:
    """Expected place of each member at a table of exactly these members (unrated members
    count as new)."""
    ratings = {
        r.player_id: Skill(r.mu, r.sigma)
        for r in Rating.objects.filter(kind=kind, player_id__in=list(player_ids))
    }
    skills = [ratings.get(p, Skill()) for p in player_ids]
    return dict(zip(player_ids, expected_places(skills)))


def game_expected_places(game: Game) -> dict[int, float]:
    """For the game page: seat position -> expected place of the member in it (bots and empty
    seats are left out)."""
    seats = [s for s in game_seats(game) if s.player_id is not None]
    places = players_expected_places(game.kind, [s.player_id for s in seats])
    return {s.position: places[s.player_id] for s in seats}
