"""Reads for leagues and ratings, as plain dicts: the league pages render them and the JSON
API (``/api/``) can return them as they are.

Each function runs a fixed number of queries whatever the amount of data (tests hold them
to it), so a season with many rounds costs no more queries than one with a few.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from django.db.models import Count, Q
from django.utils import timezone

from games.models import (
    Division,
    Fixture,
    FixtureSeat,
    Game,
    League,
    Membership,
    Player,
    Rating,
    RatingHistory,
    Round,
    Season,
    Standing,
)
from games.models.balance import BalanceRow, balance_stats
from games.models.leagues import TIE_BREAKS, provisional_games
from games.models.ratings import Skill, expected_places
from games.selectors.tables import game_seats

RECENT_GAMES = 10


def _player(player: Player | None) -> dict | None:
    if player is None:
        return None
    return {"id": player.pk, "name": player.display_name, "username": player.user.username}


def _season(season: Season | None) -> dict | None:
    if season is None:
        return None
    return {
        "id": season.pk,
        "number": season.number,
        "name": str(season),
        "status": season.status,
        "status_label": season.get_status_display(),
        "starts_on": season.starts_on,
        "ends_on": season.ends_on,
    }


def league_current_season(league: League) -> Season | None:
    """The running season; else the newest (a draft waiting, or the last finished)."""
    # .all() so a prefetched list is used (the leagues list prefetches them).
    seasons = sorted(league.seasons.all(), key=lambda s: -s.number)
    running = [s for s in seasons if s.status == Season.Status.RUNNING]
    return running[0] if running else (seasons[0] if seasons else None)


def leagues_overview() -> list[dict]:
    """Every league with its game, ruleset, member count and current season."""
    leagues = (
        League.objects.select_related("ruleset")
        .annotate(
            members=Count("memberships", filter=Q(memberships__status=Membership.Status.ACTIVE))
        )
        .prefetch_related("seasons")
        .order_by("name")
    )
    return [
        {
            "slug": league.slug,
            "name": league.name,
            "kind": league.kind,
            "kind_label": league.get_kind_display(),
            "ruleset": str(league.ruleset),
            "members": league.members,
            "tables": f"{league.min_table_size}–{league.max_table_size}",
            "season": _season(league_current_season(league)),
        }
        for league in leagues
    ]


def season_standings_data(season: Season) -> dict:
    """The season's table per division, best first, with every tie-break value shown."""
    league = season.league
    rows = (
        Standing.objects.filter(season=season)
        .select_related("player__user")
        .order_by("division_id", "rank", "player__display_name")
    )
    ratings = {
        r.player_id: r
        for r in Rating.objects.filter(kind=league.kind, player__standings__season=season).only(
            "player_id", "mu", "sigma", "games"
        )
    }
    divisions = {d.pk: d for d in Division.objects.filter(season=season)}
    active = set(
        league.memberships.filter(status=Membership.Status.ACTIVE).values_list(
            "player_id", flat=True
        )
    )
    grouped: dict[int | None, list[dict]] = defaultdict(list)
    for row in rows:
        rating = ratings.get(row.player_id)
        grouped[row.division_id].append(
            {
                "rank": row.rank,
                "player": _player(row.player),
                "points": round(row.points, 2),
                "games": row.games,
                "wins": row.wins,
                "average_points": round(row.average_points, 2),
                "winner_pct": round(row.winner_pct, 1),
                "score_total": row.score_total,
                "drops": row.drops,
                "left": row.player_id not in active,
                "rating": round(rating.display) if rating else None,
                "provisional": rating.provisional if rating else True,
            }
        )
    ordered = sorted(grouped, key=lambda pk: divisions[pk].level if pk in divisions else 999)
    return {
        "season": _season(season),
        "tie_breaks": [
            {"key": name, "label": str(TIE_BREAKS.get(name, name))} for name in league.tie_breaks
        ],
        "divisions": [
            {
                "id": pk,
                "name": divisions[pk].name if pk in divisions else "",
                "level": divisions[pk].level if pk in divisions else None,
                "rows": grouped[pk],
            }
            for pk in ordered
        ],
    }


def _fixture_dict(fixture: Fixture, skills: dict[int, Skill]) -> dict:
    seats = sorted(fixture.seats.all(), key=lambda s: s.position)
    expected = expected_places([skills.get(s.player_id, Skill()) for s in seats])
    return {
        "id": fixture.pk,
        "table": fixture.table_number,
        "game_id": fixture.game_id,
        "game_status": fixture.game.status if fixture.game_id else None,
        "status": fixture.status,
        "status_label": fixture.get_status_display(),
        "face_to_face": fixture.face_to_face,
        "played_at": fixture.played_at,
        "division": fixture.division.name if fixture.division_id else "",
        "entered_by": fixture.entered_by_id,
        "player_ids": [s.player_id for s in seats],
        "seats": [
            {
                "position": s.position,
                "player": _player(s.player),
                "identity": s.identity,
                "place": s.place,
                "score": s.score,
                "dropped": s.dropped,
                "expected_place": round(expected[index], 2),
            }
            for index, s in enumerate(seats)
        ],
    }


def _fixtures_query():
    return Fixture.objects.select_related("game", "division").prefetch_related(
        "seats__player__user"
    )


def _skills_for(fixtures: Iterable[Fixture], kind: str) -> dict[int, Skill]:
    players = {s.player_id for f in fixtures for s in f.seats.all()}
    return {
        r.player_id: Skill(r.mu, r.sigma)
        for r in Rating.objects.filter(kind=kind, player_id__in=players)
    }


def season_rounds_data(season: Season) -> dict:
    """Rounds (newest first) with their tables, and the club-night results, each seat with
    the place the ratings expect."""
    kind = season.league.kind
    rounds = list(Round.objects.filter(season=season).order_by("-number"))
    fixtures = list(_fixtures_query().filter(season=season).order_by("table_number", "pk"))
    skills = _skills_for(fixtures, kind)
    by_round: dict[int | None, list[dict]] = defaultdict(list)
    for fixture in fixtures:
        by_round[fixture.round_id].append(_fixture_dict(fixture, skills))
    return {
        "rounds": [
            {
                "id": r.pk,
                "number": r.number,
                "status": r.status,
                "status_label": r.get_status_display(),
                "starts_at": r.starts_at,
                "deadline": r.deadline,
                "fixtures": by_round.get(r.pk, []),
            }
            for r in rounds
        ],
        "club_night": sorted(
            by_round.get(None, []),
            key=lambda f: f["played_at"] or timezone.now(),
            reverse=True,
        ),
    }


def league_page_data(league: League, season: Season | None) -> dict:
    """Everything the league page shows besides who is looking."""
    seasons = list(league.seasons.order_by("-number"))
    members = (
        Membership.objects.filter(league=league)
        .select_related("player__user")
        .order_by("player__display_name")
    )
    return {
        "league": {
            "slug": league.slug,
            "name": league.name,
            "description": league.description,
            "kind": league.kind,
            "kind_label": league.get_kind_display(),
            "ruleset": str(league.ruleset),
            "tables": f"{league.min_table_size}–{league.max_table_size}",
            "turn_time_limit": league.turn_time_limit,
            "placement_points": {
                size: league.points_for_table(size)
                for size in range(league.min_table_size, league.max_table_size + 1)
            },
            "drop_rule": league.get_drop_rule_display(),
            "rotate_identities": league.rotate_identities,
            "approval_required": league.approval_required,
        },
        "seasons": [_season(s) for s in seasons],
        "season": _season(season),
        "standings": season_standings_data(season) if season else None,
        "rounds": season_rounds_data(season) if season else None,
        "members": [
            {"id": m.pk, "player": _player(m.player), "status": m.status}
            for m in members
            if m.status in (Membership.Status.ACTIVE, Membership.Status.PENDING)
        ],
    }


def league_balance_data(league: League) -> dict:
    """Win and placement rates per gang / character and per seat over the league's finished
    online games (club-night tables are left out: nobody chose their seats)."""
    rows = FixtureSeat.objects.filter(
        fixture__season__league=league,
        fixture__status=Fixture.Status.FINISHED,
        fixture__face_to_face=False,
        place__isnull=False,
    ).values_list("fixture_id", "identity", "position", "place")
    rows = list(rows)
    sizes: dict[int, int] = defaultdict(int)
    for fixture_id, *_rest in rows:
        sizes[fixture_id] += 1
    stats = balance_stats(
        BalanceRow(identity=identity, position=position, place=place, table_size=sizes[fid])
        for fid, identity, position, place in rows
    )
    stats["games"] = len(sizes)
    return stats


def player_ratings_data(player: Player) -> dict:
    """A member's rating per game (with provisional flag), its history (``chart_values``: the
    rating after each game, oldest first, for the page's chart), and their recent rated
    games."""
    ratings = list(Rating.objects.filter(player=player).order_by("kind"))
    history = list(
        RatingHistory.objects.filter(player=player)
        .select_related("record__game", "record__fixture__season__league")
        .order_by("kind", "played_at", "record__source")
    )
    by_kind: dict[str, list[RatingHistory]] = defaultdict(list)
    for row in history:
        by_kind[row.kind].append(row)
    result = []
    for rating in ratings:
        rows = by_kind.get(rating.kind, [])
        recent = []
        for row in reversed(rows[-RECENT_GAMES:]):
            record = row.record
            fixture = record.fixture
            recent.append(
                {
                    "played_at": row.played_at,
                    "game_id": record.game_id,
                    "face_to_face": fixture is not None and fixture.face_to_face,
                    "league": fixture.season.league.name if fixture is not None else "",
                    "place": row.place,
                    "table_size": row.table_size,
                    "expected_place": round(row.expected_place, 2),
                    "rating": round(row.display),
                }
            )
        result.append(
            {
                "kind": rating.kind,
                "kind_label": rating.get_kind_display(),
                "rating": round(rating.display),
                "mu": round(rating.mu, 3),
                "sigma": round(rating.sigma, 3),
                "games": rating.games,
                "provisional": rating.provisional,
                "provisional_games": provisional_games(),
                "history": [
                    {"played_at": r.played_at, "rating": round(r.display), "place": r.place}
                    for r in rows
                ],
                "chart_values": [r.display for r in rows],
                "recent": recent,
            }
        )
    return {"player": _player(player), "ratings": result}


def ratings_leaderboard_data(kind: str, *, limit: int = 100) -> list[dict]:
    """The club's ratings for one game, best first; provisional ratings listed after."""
    ratings = Rating.objects.filter(kind=kind, games__gt=0).select_related("player__user")
    rows = [
        {
            "player": _player(r.player),
            "rating": round(r.display),
            "games": r.games,
            "provisional": r.provisional,
            "ordinal": r.ordinal,
        }
        for r in ratings
    ]
    rows.sort(key=lambda r: (r["provisional"], -r["ordinal"], r["player"]["name"]))
    for row in rows:
        del row["ordinal"]
    return rows[:limit]


def game_expected_places_data(game: Game) -> list[dict]:
    """For the game page: each member's expected place before the game (1 = first)."""
    # The game page read them with their players and users (game_seats).
    seats = [s for s in game_seats(game) if s.player_id is not None]
    if all(hasattr(s, "rating_mu") for s in seats):
        # Read with the seats (games/selectors/tables.py game_with_seats(page=True)): no query.
        skills = {
            s.player_id: Skill(s.rating_mu, s.rating_sigma)
            for s in seats
            if s.rating_mu is not None
        }
    else:
        skills = {
            r.player_id: Skill(r.mu, r.sigma)
            for r in Rating.objects.filter(
                kind=game.kind, player_id__in=[s.player_id for s in seats]
            )
        }
    expected = expected_places([skills.get(s.player_id, Skill()) for s in seats])
    return [
        {"position": s.position, "player": _player(s.player), "expected_place": round(e, 2)}
        for s, e in zip(seats, expected)
    ]


def pending_results_for(player: Player) -> list[Fixture]:
    """Club-night results waiting for this member to confirm (entered by someone else)."""
    return list(
        Fixture.objects.filter(
            status=Fixture.Status.PENDING, face_to_face=True, seats__player=player
        )
        .exclude(entered_by=player)
        .select_related("season__league")
    )
