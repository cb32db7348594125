"""Rulesets in the admin: clone, edit a draft with the engine's validation, publish (then
frozen), retire, diff; games keep their version; the default rulesets."""

from __future__ import annotations

import json

import pytest
from django.contrib.admin.models import LogEntry
from django.urls import reverse
from playkit import napad_game, napad_ruleset, play_one

from games.engines import ConfigError, get_engine
from games.models import Game, Ruleset, RulesText
from games.models.rules_admin import PublishedRulesetChange
from games.services.play import PlayError, game_create
from games.services.ruleset_admin import (
    RulesetError,
    ruleset_clone,
    ruleset_diff,
    ruleset_publish,
    ruleset_retire,
    ruleset_update_draft,
)
from games.services.rulesets import rulesets_install_defaults
from tests.personakit import client_for, rules_editor

pytestmark = pytest.mark.django_db


def _change_url(ruleset: Ruleset) -> str:
    return reverse("admin:games_ruleset_change", args=[ruleset.pk])


def _change_form_data(ruleset: Ruleset, **overrides) -> dict:
    """What the admin change form posts for a draft (no translation rows)."""
    data = {
        "name": ruleset.name,
        "config": json.dumps(ruleset.config),
        "rules_text": ruleset.rules_text,
        "texts-TOTAL_FORMS": "0",
        "texts-INITIAL_FORMS": "0",
        "texts-MIN_NUM_FORMS": "0",
        "texts-MAX_NUM_FORMS": "1000",
    }
    data.update(overrides)
    return data


def test_it_clones_edits_publishes_and_then_refuses_edits(db):
    editor = rules_editor()
    client = client_for(editor)
    original = napad_ruleset()

    response = client.post(reverse("admin:games_ruleset_clone", args=[original.pk]))
    draft = Ruleset.objects.get(slug=original.slug, version=2)
    assert response.status_code == 302 and response["Location"] == _change_url(draft)
    assert draft.status == Ruleset.Status.DRAFT and draft.cloned_from == original
    assert draft.config == original.config and draft.created_by == editor

    # An invalid config: every problem is listed with its path, and nothing is saved.
    bad = {**draft.config, "rounds": 99, "hand_size": "five"}
    response = client.post(_change_url(draft), _change_form_data(draft, config=json.dumps(bad)))
    assert response.status_code == 200
    problems = dict(response.context["config_problems"])
    assert "rounds" in problems and "hand_size" in problems
    page = response.content.decode()
    assert "<code>rounds</code>" in page and "<code>hand_size</code>" in page
    draft.refresh_from_db()
    assert draft.config["rounds"] == 6

    # Not even JSON: a form error, not a 500.
    response = client.post(_change_url(draft), _change_form_data(draft, config="{rounds: 4"))
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["config"]

    # Fixed: saved (normalised by the engine).
    good = {**draft.config, "rounds": 5}
    response = client.post(
        _change_url(draft), _change_form_data(draft, config=json.dumps(good), name="Short")
    )
    assert response.status_code == 302
    draft.refresh_from_db()
    assert draft.config["rounds"] == 5 and draft.name == "Short"

    response = client.post(reverse("admin:games_ruleset_publish", args=[draft.pk]))
    assert response.status_code == 302
    draft.refresh_from_db()
    assert draft.status == Ruleset.Status.PUBLISHED and draft.published_at is not None

    # Published: the admin form refuses, the service refuses, the model refuses.
    response = client.post(
        _change_url(draft),
        _change_form_data(draft, config=json.dumps({**good, "rounds": 3})),
    )
    assert response.status_code == 200
    assert "can never be changed" in response.content.decode()
    draft.refresh_from_db()
    assert draft.config["rounds"] == 5
    with pytest.raises(RulesetError):
        ruleset_update_draft(ruleset=draft, config={**good, "rounds": 3})
    draft.config = {**good, "rounds": 3}
    with pytest.raises(PublishedRulesetChange):
        draft.save()
    assert Ruleset.objects.get(pk=draft.pk).config["rounds"] == 5

    # Every step is in the admin log.
    messages = list(
        LogEntry.objects.filter(user=editor, object_id=str(draft.pk)).values_list(
            "change_message", flat=True
        )
    )
    assert any("Cloned from" in m for m in messages)
    assert any("Published" in m for m in messages)


def test_the_change_page_of_a_published_version_shows_no_editable_config(db):
    client = client_for(rules_editor())
    ruleset = napad_ruleset()
    response = client.get(_change_url(ruleset))
    assert response.status_code == 200
    form = response.context["adminform"].form
    assert "config" not in form.fields and "rules_text" not in form.fields
    assert reverse("admin:games_ruleset_clone", args=[ruleset.pk]) in response.content.decode()


def test_translations_of_a_published_version_can_still_be_added(db):
    client = client_for(rules_editor())
    ruleset = napad_ruleset()
    # The default rulesets come with Polish and Portuguese texts: start this one without.
    RulesText.objects.filter(ruleset=ruleset).delete()
    data = {
        "texts-TOTAL_FORMS": "1",
        "texts-INITIAL_FORMS": "0",
        "texts-MIN_NUM_FORMS": "0",
        "texts-MAX_NUM_FORMS": "1000",
        "texts-0-language": "pl",
        "texts-0-text": "**To jest napad!** po polsku",
    }
    response = client.post(_change_url(ruleset), data)
    assert response.status_code == 302
    assert RulesText.objects.get(ruleset=ruleset, language="pl").text.startswith("**To jest")
    assert Ruleset.objects.get(pk=ruleset.pk).status == Ruleset.Status.PUBLISHED


def test_a_new_ruleset_added_in_the_admin_is_a_draft_with_the_default_config(db):
    editor = rules_editor()
    client = client_for(editor)
    data = {
        "kind": "napad",
        "name": "House rules",
        "slug": "napad-house",
        "version": "1",
        "config": "",
        "rules_text": "Our house rules.",
        "texts-TOTAL_FORMS": "0",
        "texts-INITIAL_FORMS": "0",
        "texts-MIN_NUM_FORMS": "0",
        "texts-MAX_NUM_FORMS": "1000",
    }
    response = client.post(reverse("admin:games_ruleset_add"), data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    ruleset = Ruleset.objects.get(slug="napad-house")
    assert ruleset.status == Ruleset.Status.DRAFT and ruleset.created_by == editor
    assert ruleset.config == get_engine("napad").validate_config(
        get_engine("napad").default_config()
    )


def test_a_game_keeps_playing_version_1_after_version_2_is_published(alice, bob):
    game = napad_game(alice, bob)
    v1 = game.ruleset
    v1_config = json.loads(json.dumps(game.config))
    v2 = ruleset_clone(ruleset=v1, user=None)
    ruleset_update_draft(ruleset=v2, config={**v2.config, "rounds": 2, "hand_size": 3})
    ruleset_publish(ruleset=v2)
    ruleset_retire(ruleset=v1)

    game.refresh_from_db()
    assert game.ruleset_id == v1.pk and game.config == v1_config
    assert game.config["rounds"] == 6
    for _move in range(4):
        assert play_one(game, [alice, bob]).ok
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING and game.config == v1_config

    # New tables get version 2's rules; version 1 (retired) takes no new tables.
    new_game = game_create(
        creator=alice,
        ruleset=Ruleset.objects.get(pk=v2.pk),
        seats=2,
        turn_time_limit=game.turn_time_limit,
    )
    assert new_game.config["rounds"] == 2
    with pytest.raises(PlayError):
        game_create(
            creator=alice,
            ruleset=Ruleset.objects.get(pk=v1.pk),
            seats=2,
            turn_time_limit=game.turn_time_limit,
        )


def test_retired_and_draft_versions_are_not_offered_for_new_tables(alice):
    from games.forms.tables import playable_rulesets

    v1 = napad_ruleset()
    draft = ruleset_clone(ruleset=v1, user=None)
    ruleset_retire(ruleset=v1)
    offered = set(playable_rulesets())
    assert v1 not in offered and draft not in offered
    assert Ruleset.objects.get(slug="napad-variant-a") in offered


def test_lifecycle_refusals(db):
    v1 = napad_ruleset()
    with pytest.raises(RulesetError):
        ruleset_publish(ruleset=v1)
    draft = ruleset_clone(ruleset=v1, user=None)
    with pytest.raises(RulesetError):
        ruleset_retire(ruleset=draft)
    with pytest.raises(ConfigError) as error:
        ruleset_update_draft(ruleset=draft, config={**draft.config, "rounds": 0})
    assert "rounds" in error.value.as_dict()
    assert Ruleset.objects.get(pk=draft.pk).config["rounds"] == 6
    # Another slug: house rules start at version 1.
    house = ruleset_clone(ruleset=v1, user=None, slug="napad-house", name="House")
    assert (house.slug, house.version, house.cloned_from) == ("napad-house", 1, v1)


def test_clone_copies_translations(db):
    v1 = napad_ruleset()
    RulesText.objects.update_or_create(ruleset=v1, language="pt-br", defaults={"text": "Regras"})
    clone = ruleset_clone(ruleset=v1, user=None)
    assert clone.texts.get(language="pt-br").text == "Regras"


def test_diff_lists_changed_settings_by_path_and_the_rules_text(db):
    v1 = napad_ruleset()
    v2 = ruleset_clone(ruleset=v1, user=None)
    cards = json.loads(json.dumps(v2.config["gang_cards"]))
    cards[3][1][1] = 7
    ruleset_update_draft(
        ruleset=v2,
        config={**v2.config, "rounds": 5, "gang_cards": cards, "variant_b_twos": True},
        rules_text=v2.rules_text + "\nHouse rule: five rounds.\n",
    )
    diff = ruleset_diff(v1, v2)
    changes = {change.path: change for change in diff.config}
    assert set(changes) == {"rounds", "gang_cards[3][1][1]", "variant_b_twos"}
    assert (changes["rounds"].old, changes["rounds"].new) == (6, 5)
    assert changes["variant_b_twos"].change == "changed"
    assert "+House rule: five rounds." in diff.rules_text
    assert diff.rules_text[0].startswith("--- napad-designed-default v1")
    assert ruleset_diff(v1, v1).is_empty

    client = client_for(rules_editor())
    response = client.get(
        reverse("admin:games_ruleset_diff", args=[v2.pk]), {"against": str(v1.pk)}
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "gang_cards[3][1][1]" in page and "House rule: five rounds." in page
    # Without ?against= it compares with the version it was cloned from.
    response = client.get(reverse("admin:games_ruleset_diff", args=[v2.pk]))
    assert response.context["against"] == v1


def test_diff_marks_added_and_removed_settings(db):
    a = Ruleset(kind="napad", slug="x", version=1, config={"a": 1, "b": [1, 2]})
    b = Ruleset(kind="napad", slug="x", version=2, config={"b": [1], "c": True})
    changes = {(c.path, c.change) for c in ruleset_diff(a, b).config}
    assert changes == {("a", "removed"), ("b[1]", "removed"), ("c", "added")}


def test_the_list_filters_by_game_and_status_and_its_actions_are_logged(db):
    editor = rules_editor()
    client = client_for(editor)
    v1 = napad_ruleset()
    draft = ruleset_clone(ruleset=v1, user=None)
    url = reverse("admin:games_ruleset_changelist")
    response = client.get(url, {"kind__exact": "napad", "status__exact": "draft"})
    assert response.status_code == 200
    assert list(response.context["cl"].queryset) == [draft]

    response = client.post(url, {"action": "publish_selected", "_selected_action": [str(draft.pk)]})
    assert response.status_code == 302
    assert Ruleset.objects.get(pk=draft.pk).status == Ruleset.Status.PUBLISHED
    response = client.post(url, {"action": "retire_selected", "_selected_action": [str(v1.pk)]})
    assert Ruleset.objects.get(pk=v1.pk).status == Ruleset.Status.RETIRED
    assert LogEntry.objects.filter(user=editor, object_id=str(v1.pk)).exists()


def test_default_rulesets_are_installed_once_and_cover_the_issue(db):
    rulesets_install_defaults()
    count = Ruleset.objects.count()
    assert rulesets_install_defaults() == []
    assert Ruleset.objects.count() == count
    by_slug = {r.slug: r for r in Ruleset.objects.filter(status=Ruleset.Status.PUBLISHED)}
    napad = by_slug["napad-designed-default"]
    assert "designed default" in napad.name.lower()
    assert by_slug["napad-variant-a"].config["variant_a_bullets"] is True
    assert by_slug["napad-variant-b"].config["variant_b_twos"] is True
    colt = [r for r in by_slug.values() if r.kind == "colt"]
    assert any(
        not r.config.get("time_machine") and r.config.get("round_deck") == "published" for r in colt
    )
    assert any(r.config.get("time_machine") for r in colt)
    assert any(r.config.get("round_deck") == "guide" for r in colt)
