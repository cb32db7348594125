"""Tables for any test, opened the way members open them (the play service): the default
rulesets installed, a table created with a seat for its creator, each member joining and each
bot, the members joined — and, for a started game, dealt.

``default_ruleset(slug)`` is a default ruleset (version 1); ``open_table(creator, *others)``
the open table; ``started_game(creator, *others)`` the same table started by its creator.
"""

from __future__ import annotations

from datetime import timedelta

from games.models import Game, Ruleset
from games.services.play import game_create, game_start, seat_join
from games.services.rulesets import rulesets_install_defaults

NAPAD = "napad-designed-default"
COLT = "colt-express"
# The time to move a test has when it does not care: no clock runs out during the test.
DAY = timedelta(hours=24)


def default_ruleset(slug: str = NAPAD) -> Ruleset:
    """The default ruleset ``slug`` (version 1), the defaults installed first."""
    rulesets_install_defaults()
    return Ruleset.objects.get(slug=slug, version=1)


def open_table(
    creator,
    *others,
    slug: str = NAPAD,
    ruleset: Ruleset | None = None,
    seats: int | None = None,
    limit: timedelta = DAY,
    bots: dict[int, str] | None = None,
    **options,
) -> Game:
    """A table of the default ruleset ``slug`` (or of ``ruleset``) created by ``creator`` and
    joined by ``others``; ``seats``: by default one for each of them and each of the ``bots``
    ({position: bot}). ``options`` go to the play service (``invite_only``, ``invitees``)."""
    bots = bots or {}
    game = game_create(
        creator=creator,
        ruleset=ruleset or default_ruleset(slug),
        seats=seats or 1 + len(others) + len(bots),
        turn_time_limit=limit,
        bot_seats=bots,
        **options,
    )
    for user in others:
        seat_join(game_id=game.pk, user=user)
    return game


def started_game(creator, *others, first_player: int | None = None, **table) -> Game:
    """The ``open_table`` started by its creator (seat ``first_player`` to move first, or the
    one the deal picks)."""
    game = open_table(creator, *others, **table)
    return game_start(game_id=game.pk, user=creator, first_player=first_player)
