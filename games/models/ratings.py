"""The rating arithmetic that the ``Rating`` rows hold: OpenSkill's Plackett–Luce model for
finishing orders. Pure: skills and places in, skills and expected places out, no query.

Here, below both, because the leagues' service (games/services/leagues/ratings.py) rates
results with it and the leagues' selectors show the places it expects; selectors never
import services.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
DEFAULT_MU = MODEL.mu
DEFAULT_SIGMA = MODEL.sigma


@dataclass(frozen=True)
class Skill:
    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA


def skills_update(skills: Sequence[Skill], places: Sequence[int]) -> list[Skill]:
    """New skills after one game; ``places`` uses 1 for first, equal numbers for ties."""
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    rated = MODEL.rate(teams, ranks=list(places))
    return [Skill(mu=team[0].mu, sigma=team[0].sigma) for team in rated]


def _phi(x: float) -> float:
    return 0.5 * (1 + math.erf(x / math.sqrt(2)))


def expected_places(skills: Sequence[Skill]) -> list[float]:
    """Each player's expected finishing place (1 = first) at a table of these skills: one
    plus the chance that each opponent finishes ahead of them."""
    beta_squared = MODEL.beta**2
    result = []
    for i, mine in enumerate(skills):
        expected = 1.0
        for j, theirs in enumerate(skills):
            if i == j:
                continue
            spread = math.sqrt(2 * beta_squared + mine.sigma**2 + theirs.sigma**2)
            expected += _phi((theirs.mu - mine.mu) / spread)
        result.append(expected)
    return result


def rated_places(seats: Iterable[tuple[int | None, int | None, bool]]) -> list[tuple[int, int]]:
    """``(player_id, place)`` for the members to rate, from ``(player_id, place, dropped)``.

    Bots (no player) are left out; dropped members share last place; places are re-ranked
    among the members who remain (competition ranking).
    """
    members = [(p, place, dropped) for p, place, dropped in seats if p is not None]
    if len(members) < 2 or any(place is None for _p, place, _d in members):
        return []
    worst = max(place for _p, place, _d in members) + 1
    effective = [(p, worst if dropped else place) for p, place, dropped in members]
    ordered = sorted(value for _p, value in effective)
    return [(p, ordered.index(value) + 1) for p, value in effective]
