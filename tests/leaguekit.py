"""A league for any test: "Tuesday Napad" on the default To jest napad! ruleset, with the
organisers and members a test names and, when asked, a season started on 5 January 2026.

``napad_league(...)`` returns the League; the season, if any, is its running one.
"""

from __future__ import annotations

from datetime import date

from games.models import League, Membership
from games.services.leagues import rounds
from tests.gamekit import default_ruleset

SEASON_START = date(2026, 1, 5)


def napad_league(
    *, organisers=(), members=(), season_rounds: int | None = None, **fields
) -> League:
    """The league, organised by ``organisers`` and joined by ``members`` (users); ``fields``
    (table sizes…) go to the League. With ``season_rounds``, a season of that many rounds is
    created and started with them."""
    ruleset = fields.pop("ruleset", None) or default_ruleset()
    league = League.objects.create(
        name="Tuesday Napad", slug="tuesday-napad", kind="napad", ruleset=ruleset, **fields
    )
    league.organisers.add(*(user.player for user in organisers))
    Membership.objects.bulk_create(
        [Membership(league=league, player=user.player) for user in members]
    )
    if season_rounds is not None:
        season = rounds.season_create(league=league, starts_on=SEASON_START, rounds=season_rounds)
        rounds.season_start(season=season)
    return league
