"""Fixtures for the security tests: the ``world`` the personas act in."""

from __future__ import annotations

import pytest

from games.models import League
from games.services.api_tokens import api_token_create
from tests.gamekit import default_ruleset, started_game
from tests.personakit import member, staff_member


@pytest.fixture
def world(db):
    """alice ("seat") opened a running two-seat Napad table and an invite-only one with bob
    ("other_seat"); charlie ("member") has no seat; stella is staff, a moderator. Values
    are ids and slugs for URLs; ``users`` and ``tokens`` (API) are keyed by persona."""
    ruleset = default_ruleset()
    seat, other, charlie = member("alice"), member("bob"), member("charlie")
    staff = staff_member("stella", "moderator", signed_up=True)
    game = started_game(seat, other, ruleset=ruleset)
    hidden = started_game(seat, other, ruleset=ruleset, invite_only=True, invitees=[other.player])
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
