"""Who may do what in the admin: Rules editors manage rulesets, rules texts and simulations;
Moderators moderate games; members without staff status get no admin at all."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse
from playkit import napad_game, napad_ruleset

from games.models import Game, ModerationAction, Ruleset, SimulationRun
from games.services.organisers import MODERATORS, RULES_EDITORS, organiser_groups_install
from games.services.simulation import simulation_start
from tests.personakit import client_for, moderator, rules_editor, staff_member

pytestmark = pytest.mark.django_db


def test_the_groups_exist_after_migrating_and_installing_is_idempotent(db):
    # Created by the data migration, before any test code ran.
    editors = Group.objects.get(name=RULES_EDITORS)
    moderators = Group.objects.get(name=MODERATORS)
    before = set(editors.permissions.values_list("codename", flat=True))
    assert {"change_ruleset", "add_rulestext", "add_simulationrun"} <= before
    assert "moderate_game" not in before
    assert "moderate_game" in set(moderators.permissions.values_list("codename", flat=True))
    assert "change_ruleset" not in set(moderators.permissions.values_list("codename", flat=True))
    organiser_groups_install()
    organiser_groups_install()
    assert Group.objects.filter(name__in=[RULES_EDITORS, MODERATORS]).count() == 2
    assert set(editors.permissions.values_list("codename", flat=True)) == before


def test_a_rules_editor_manages_rulesets_but_cannot_moderate(alice, bob):
    game = napad_game(alice, bob)
    ruleset = game.ruleset
    client = client_for(rules_editor())
    assert client.get(reverse("admin:games_ruleset_changelist")).status_code == 200
    assert client.get(reverse("admin:games_rulestext_changelist")).status_code == 200
    assert client.get(reverse("admin:games_simulationrun_changelist")).status_code == 200
    assert client.get(reverse("admin:games_ruleset_simulate", args=[ruleset.pk])).status_code == 200
    assert client.post(reverse("admin:games_ruleset_clone", args=[ruleset.pk])).status_code == 302

    assert client.get(reverse("admin:games_game_changelist")).status_code == 403
    assert client.get(reverse("admin:games_game_change", args=[game.pk])).status_code == 403
    for slug in ("abort", "extend"):
        url = reverse("admin:games_game_moderate", args=[game.pk, slug])
        assert client.post(url, {"reason": "x", "hours": "5"}).status_code == 403
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING and not ModerationAction.objects.exists()


def test_a_moderator_moderates_but_cannot_edit_rulesets(alice, bob):
    game = napad_game(alice, bob)
    ruleset = game.ruleset
    client = client_for(moderator())
    assert client.get(reverse("admin:games_game_change", args=[game.pk])).status_code == 200
    url = reverse("admin:games_game_moderate", args=[game.pk, "extend"])
    assert client.post(url, {"hours": "5"}).status_code == 302

    assert client.get(reverse("admin:games_ruleset_changelist")).status_code == 403
    assert client.post(reverse("admin:games_ruleset_clone", args=[ruleset.pk])).status_code == 403
    assert client.post(reverse("admin:games_ruleset_publish", args=[ruleset.pk])).status_code == 403
    assert client.post(reverse("admin:games_ruleset_retire", args=[ruleset.pk])).status_code == 403
    assert client.get(reverse("admin:games_ruleset_simulate", args=[ruleset.pk])).status_code == 403
    assert Ruleset.objects.filter(slug=ruleset.slug).count() == 1
    assert Ruleset.objects.get(pk=ruleset.pk).status == Ruleset.Status.PUBLISHED


def test_a_member_without_staff_status_gets_no_admin(alice, alice_client, bob):
    game = napad_game(alice, bob)
    ruleset = game.ruleset
    for url in (
        reverse("admin:index"),
        reverse("admin:games_ruleset_changelist"),
        reverse("admin:games_game_moderate", args=[game.pk, "abort"]),
        reverse("admin:games_ruleset_diff", args=[ruleset.pk]),
    ):
        response = alice_client.get(url)
        assert response.status_code == 302 and "/admin/login/" in response["Location"]
    response = alice_client.post(
        reverse("admin:games_game_moderate", args=[game.pk, "abort"]), {"reason": "x"}
    )
    assert response.status_code == 302
    response = alice_client.post(reverse("admin:games_ruleset_clone", args=[ruleset.pk]))
    assert response.status_code == 302 and Ruleset.objects.filter(slug=ruleset.slug).count() == 1
    assert Game.objects.get(pk=game.pk).status == Game.Status.RUNNING


def test_staff_in_no_group_can_do_nothing(alice, bob):
    game = napad_game(alice, bob)
    client = client_for(staff_member("stan"))
    assert client.get(reverse("admin:index")).status_code == 200
    assert client.get(reverse("admin:games_ruleset_changelist")).status_code == 403
    assert client.get(reverse("admin:games_game_changelist")).status_code == 403
    url = reverse("admin:games_game_moderate", args=[game.pk, "extend"])
    assert client.post(url, {"hours": "5"}).status_code == 403


def test_simulation_results_need_the_view_permission(db):
    run = simulation_start(ruleset=napad_ruleset(), games=2, players=2, bots=["random"], user=None)
    url = reverse("admin:games_simulationrun_change", args=[run.pk])
    assert client_for(rules_editor()).get(url).status_code == 200
    assert client_for(moderator()).get(url).status_code == 403
    progress = reverse("admin:games_simulationrun_progress", args=[run.pk])
    assert client_for(moderator("max2")).get(progress).status_code == 403
    assert SimulationRun.objects.count() == 1
