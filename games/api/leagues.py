"""Leagues and ratings, read-only: the leagues, a season's standings, a game's leaderboard.

The dicts come from ``games.selectors.leagues`` (the same ones the league pages render);
this module only finds the league and season asked for and declares the shapes.
"""

from __future__ import annotations

from datetime import date
from typing import Literal

from django.http import Http404, HttpRequest
from django.utils.translation import gettext as _
from ninja import Path, Query, Router, Schema

from games.models import League
from games.selectors import leagues as selectors_leagues
from games.text.parsing import strict_int
from games.web.converters import DB_ID_MAX, DB_ID_MIN

from .schemas import ErrorOut, ValidationErrorOut, WholeNumber

router = Router(tags=["leagues"])

ERRORS = {401: ErrorOut, 404: ErrorOut, 422: ValidationErrorOut, 429: ErrorOut}
LEAGUE_REF = r"^[-a-zA-Z0-9_]{1,80}$"


class PlayerRef(Schema):
    id: int
    name: str
    username: str


class SeasonOut(Schema):
    id: int
    number: int
    name: str
    status: str
    status_label: str
    starts_on: date | None
    ends_on: date | None


class LeagueOut(Schema):
    id: int
    slug: str
    name: str
    kind: str
    kind_label: str
    ruleset: str
    members: int
    tables: str
    season: SeasonOut | None


class TieBreakOut(Schema):
    key: str
    label: str


class StandingRowOut(Schema):
    rank: int | None
    player: PlayerRef
    points: float
    games: int
    wins: int
    average_points: float
    winner_pct: float
    score_total: int | float
    drops: int
    left: bool
    rating: int | None
    provisional: bool


class DivisionOut(Schema):
    id: int | None
    name: str
    level: int | None
    rows: list[StandingRowOut]


class StandingsOut(Schema):
    league: str
    season: SeasonOut | None
    tie_breaks: list[TieBreakOut]
    divisions: list[DivisionOut]


class RatingRowOut(Schema):
    player: PlayerRef
    rating: int
    games: int
    provisional: bool


class RatingsOut(Schema):
    kind: str
    rows: list[RatingRowOut]


def _league(reference: str) -> League:
    """A league by its slug (as in the site's URLs) or its id."""
    leagues = League.objects.select_related("ruleset")
    league = leagues.filter(slug=reference).first()
    league_id = strict_int(reference, minimum=DB_ID_MIN, maximum=DB_ID_MAX)
    if league is None and league_id is not None:
        league = leagues.filter(pk=league_id).first()
    if league is None:
        raise Http404(_("There is no such league."))
    return league


@router.get("/leagues/", response={200: list[LeagueOut], **ERRORS})
@router.get("/leagues", response={200: list[LeagueOut], **ERRORS}, include_in_schema=False)
def leagues_list(request: HttpRequest):
    """Every league with its game, ruleset, member count and current season."""
    rows = selectors_leagues.leagues_overview()
    ids = dict(League.objects.values_list("slug", "pk"))
    return [{**row, "id": ids[row["slug"]]} for row in rows if row["slug"] in ids]


@router.get("/leagues/{league}/standings", response={200: StandingsOut, **ERRORS})
def league_standings(
    request: HttpRequest,
    league: str = Path(..., pattern=LEAGUE_REF, description="the league's slug or id"),
    season: WholeNumber = Query(None, ge=1, le=32767, description="season number"),
):
    """A season's standings per division, best first, with the tie-breaks in order (the
    running season, else the newest, unless ``season`` names one)."""
    found = _league(league)
    if season is not None:
        chosen = found.seasons.filter(number=season).first()
        if chosen is None:
            raise Http404(_("This league has no such season."))
    else:
        chosen = selectors_leagues.league_current_season(found)
    if chosen is None:
        return {"league": found.slug, "season": None, "tie_breaks": [], "divisions": []}
    return {"league": found.slug, **selectors_leagues.season_standings_data(chosen)}


@router.get("/ratings/{kind}", response={200: RatingsOut, **ERRORS})
def ratings_list(
    request: HttpRequest,
    kind: Literal["napad", "colt"],
    limit: WholeNumber = Query(100, ge=1, le=500),
):
    """The club's skill ratings for one game (OpenSkill), best first; provisional last."""
    return {"kind": kind, "rows": selectors_leagues.ratings_leaderboard_data(kind, limit=limit)}
