"""The leagues admin: every league model's list and a league's form open for staff."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games.models import League, Ruleset
from games.services.rulesets import rulesets_install_defaults


@pytest.fixture
def admin_client_with_league(db):
    rulesets_install_defaults()
    league = League.objects.create(
        name="Admin League",
        slug="admin-league",
        kind="napad",
        ruleset=Ruleset.objects.get(slug="napad-designed-default", version=1),
    )
    user = get_user_model().objects.create_superuser("root", "root@example.org", "pw-12345678")
    client = Client()
    client.force_login(user)
    return client, league


@pytest.mark.parametrize(
    "model",
    ["league", "season", "division", "membership", "round", "fixture", "standing", "rating"],
)
def test_it_lists_each_league_model(admin_client_with_league, model):
    client, _league = admin_client_with_league
    assert client.get(reverse(f"admin:games_{model}_changelist")).status_code == 200


def test_it_opens_a_leagues_form(admin_client_with_league):
    client, league = admin_client_with_league
    response = client.get(reverse("admin:games_league_change", args=[league.pk]))
    assert response.status_code == 200
    assert "placement_points" in response.content.decode()
