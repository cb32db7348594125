"""``{% load league_tags %}{% league_expected_places game %}``: the place the ratings expect
for each member at a table (shown before and during a game), and the league round the game
belongs to, if any. One line for the game page to include."""

from __future__ import annotations

from django import template

from games.models import Fixture
from games.selectors.leagues import game_expected_places_data
from games.selectors.tables import game_fixture

register = template.Library()


def _fixture_of(game) -> Fixture | None:
    if game is None or not game.pk:
        return None
    # The game page read it with the game (games/selectors/tables.py game_with_seats).
    return game_fixture(game)


@register.inclusion_tag("leagues/expected_places.html")
def league_expected_places(game):
    fixture = _fixture_of(game)
    return {
        "rows": game_expected_places_data(game) if game is not None and game.pk else [],
        "fixture": fixture,
        "finished": getattr(game, "is_over", False),
    }
