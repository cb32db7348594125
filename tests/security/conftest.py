"""Fixtures for the security tests: the ``world`` the personas act in."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.models import Game, League, Ruleset
from games.services.api_tokens import api_token_create
from games.services.play import game_create, game_start, seat_join
from games.services.rulesets import rulesets_install_defaults
from tests.personakit import member, staff_member


@pytest.fixture
def world(db):
    """alice ("seat") opened a running two-seat Napad table and an invite-only one with bob
    ("other_seat"); charlie ("member") has no seat; stella is staff, a moderator. Values
    are ids and slugs for URLs; ``users`` and ``tokens`` (API) are keyed by persona."""
    rulesets_install_defaults()
    seat, other, charlie = member("alice"), member("bob"), member("charlie")
    staff = staff_member("stella", "moderator", signed_up=True)
    ruleset = Ruleset.objects.get(slug="napad-designed-default", version=1)

    def table(**options) -> Game:
        game = game_create(
            creator=seat,
            ruleset=ruleset,
            seats=2,
            turn_time_limit=timedelta(hours=24),
            **options,
        )
        seat_join(game_id=game.pk, user=other)
        return game_start(game_id=game.pk, user=seat)

    game = table()
    hidden = table(invite_only=True, invitees=[other.player])
    league = League.objects.create(name="Club league", slug="club", kind="napad", ruleset=ruleset)
    users = {"member": charlie, "other_seat": other, "seat": seat, "staff": staff}
    tokens = {name: api_token_create(user=user, name="matrix")[1] for name, user in users.items()}
    return {
        "users": users,
        "tokens": tokens,
        "game_id": game.pk,
        "hidden_game_id": hidden.pk,
        "token_id": seat.api_tokens.get().pk,
        "ruleset_slug": ruleset.slug,
        "league_slug": league.slug,
    }
