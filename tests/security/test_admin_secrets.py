"""The admin never answers according to a secret: filters, searches, orderings and columns on
a field that holds one (a running game's seed and state, the log's private copy, a face-down
card, push keys...) are refused for every staff role, superusers included, over every model
that declares a secret (``games/models/secrets.py``); and a filter number no column can hold
answers 404 (as such a number in a path does), never 500.

Refused means 400 (``DisallowedModelAdminLookup``), 403 for a role that may not open the list
at all, or a page that does not change with the secret.
"""

from __future__ import annotations

import re

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.db import models
from django.test import Client, RequestFactory
from django.urls import reverse

from games.admin.secrets import SecretFieldsAdminMixin
from games.admin.tables import GameAdmin
from games.models import (
    ApiToken,
    Game,
    GameEvent,
    PushSubscription,
    SimulationRun,
    StandingOrder,
)
from games.models.secrets import lookup_touches_secret, models_with_secrets, secret_fields
from tests.gamekit import default_ruleset, started_game
from tests.personakit import STAFF_ROLES, client_for, member, staff_member

User = get_user_model()

# What these tests know to be secret. The registry must cover at least this: forgetting to
# declare one of them (or dropping a declaration) fails here.
KNOWN_SECRETS = {
    Game: {"seed", "state", "recent_events", "setup_args"},
    GameEvent: {"action", "private_events"},
    StandingOrder: {"card", "preference"},
    SimulationRun: {"seed"},
    PushSubscription: {"endpoint", "p256dh", "auth"},
    ApiToken: {"token_hash"},
    User: {"password"},
}
# Field names that say "secret" wherever they appear; a new model with one must declare it
# (or be listed here as public, with the reason).
SECRET_SOUNDING = re.compile(r"(^|_)(seed|state|hand|hands|deck|private|secret|card|token)(_|$)")
PUBLIC_ON_PURPOSE = {
    # The seed's SHA-256 is shown from the start: the commitment players verify against.
    (Game, "seed_hash"),
    # An API token's first characters, so a member can tell tokens apart.
    (ApiToken, "prefix"),
}

FILTER_LOOKUPS = ("{}__startswith=7", "{}__isnull=False", "{}__icontains=a", "{}__gte=0")
SECRET_PAIRS = sorted(
    ((model, name) for model in models_with_secrets() for name in secret_fields(model)),
    key=lambda pair: (pair[0]._meta.label, pair[1]),
)


def _pair_id(pair) -> str:
    return f"{pair[0]._meta.label}.{pair[1]}"


def _registered(app_label: str | None = "games") -> list[type[models.Model]]:
    return [
        model
        for model in apps.get_models()
        if admin.site.is_registered(model)
        and (app_label is None or model._meta.app_label == app_label)
    ]


def _staff(role: str):
    """A staff account in ``role``, named after it, with no Player."""
    return staff_member(role, role)


def _client(user) -> Client:
    return client_for(user, raise_request_exception=False)


@pytest.fixture
def running_game(db):
    """A running two-seat Napad table (with its log) and a simulation run: every registered
    model that holds a secret has a row."""
    ruleset = default_ruleset()
    alice, bob = member("alice"), member("bob")
    game = started_game(alice, bob, ruleset=ruleset)
    GameEvent.objects.get_or_create(
        game=game, seq=999, defaults={"action": {"card": "fire"}, "private_events": []}
    )
    SimulationRun.objects.create(
        ruleset=ruleset, games_requested=1, players=2, bots=[], seed="74b6" + "0" * 60
    )
    return Game.objects.get(pk=game.pk)


def _changelist(model) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")


def _may_view(user, model) -> bool:
    return user.has_perm(f"{model._meta.app_label}.view_{model._meta.model_name}")


def _game_links(response) -> set[str]:
    return set(re.findall(r"/admin/games/game/(\d+)/change/", response.content.decode()))


# -- the registry --------------------------------------------------------------------------


@pytest.mark.parametrize("model", list(KNOWN_SECRETS), ids=lambda m: m._meta.label)
def test_the_registry_declares_every_secret_the_tests_know(model):
    assert KNOWN_SECRETS[model] <= secret_fields(model)
    assert model in models_with_secrets()


def test_every_secret_sounding_field_is_declared_or_public_on_purpose():
    undeclared = [
        f"{model._meta.label}.{field.name}"
        for model in apps.get_app_config("games").get_models()
        for field in model._meta.get_fields()
        if not field.is_relation
        and SECRET_SOUNDING.search(field.name)
        and field.name not in secret_fields(model)
        and (model, field.name) not in PUBLIC_ON_PURPOSE
    ]
    assert undeclared == []


def test_every_club_admin_and_inline_refuses_secrets():
    club_admins = [admin.site.get_model_admin(model) for model in _registered()]
    assert club_admins
    for model_admin in club_admins:
        assert isinstance(model_admin, SecretFieldsAdminMixin), type(model_admin)
        for inline in model_admin.inlines:
            assert issubclass(inline, SecretFieldsAdminMixin), inline


# -- filters -------------------------------------------------------------------------------


@pytest.mark.parametrize("role", STAFF_ROLES)
@pytest.mark.parametrize("pair", SECRET_PAIRS, ids=_pair_id)
def test_a_filter_on_a_secret_field_is_refused(running_game, role, pair):
    model, name = pair
    user = _staff(role)
    client = _client(user)
    if not admin.site.is_registered(model):
        # No list of its own: every list that reaches it through a relation is refused.
        lookups = _relation_lookups_to(model, name)
        assert lookups or model is User, f"{model._meta.label} is reachable from no admin"
        for admin_model, lookup in lookups:
            response = client.get(_changelist(admin_model), {lookup: "7"})
            assert response.status_code == (400 if _may_view(user, admin_model) else 403)
        return
    expected = 400 if _may_view(user, model) else 403
    for template in FILTER_LOOKUPS:
        query = template.format(name)
        response = client.get(f"{_changelist(model)}?{query}")
        assert response.status_code == expected, query


def _relation_lookups_to(model, name) -> list[tuple[type[models.Model], str]]:
    """``relation__…__name__startswith`` from every registered admin, one or two relations
    away from ``model``."""
    found = []
    for admin_model in _registered(None):
        paths = [([], admin_model)]
        for _hop in range(2):
            further = []
            for path, at in paths:
                for field in at._meta.get_fields():
                    if not field.is_relation or field.related_model is None:
                        continue
                    if field.related_model is model:
                        found.append(
                            (admin_model, "__".join([*path, field.name, name, "startswith"]))
                        )
                    further.append(([*path, field.name], field.related_model))
            paths = further
    return found


@pytest.mark.parametrize("role", ["moderator", "superuser"])
@pytest.mark.parametrize(
    "lookup",
    [
        "seed__startswith",
        "seed__gte",
        "state__icontains",
        "state__hand__0__0",
        "recent_events__icontains",
        "setup_args__icontains",
        "events__action__icontains",
        "events__private_events__icontains",
        "standing_orders__card",
        "seats__game__seed__startswith",
    ],
)
def test_the_seed_oracle_answers_the_same_to_a_right_and_a_wrong_guess(running_game, role, lookup):
    client = _client(_staff(role))
    url = f"{_changelist(Game)}?id__exact={running_game.pk}"
    right = running_game.seed[:4] if "seed" in lookup else "a"
    wrong = "zzzz"
    answers = [client.get(url, {lookup: guess}) for guess in (right, wrong)]
    assert [a.status_code for a in answers] == [400, 400]
    assert answers[0].content == answers[1].content


@pytest.mark.parametrize("role", ["moderator", "superuser"])
def test_a_search_finds_nothing_by_the_seed(running_game, role):
    client = _client(_staff(role))
    right = client.get(_changelist(Game), {"q": running_game.seed[:8]})
    wrong = client.get(_changelist(Game), {"q": "00000000"})
    assert right.status_code == wrong.status_code == 200
    assert _game_links(right) == _game_links(wrong) == set()
    # The search still works on what it is meant for.
    by_name = client.get(_changelist(Game), {"q": "Alice"})
    assert _game_links(by_name) == {str(running_game.pk)}


# -- searches, orderings and columns -------------------------------------------------------


@pytest.mark.parametrize("role", STAFF_ROLES)
def test_no_list_searches_orders_or_shows_a_secret(running_game, role):
    user = _staff(role)
    request = RequestFactory().get("/admin/")
    request.user = user
    client = _client(user)
    for model in _registered():
        model_admin = admin.site.get_model_admin(model)
        config = {
            "search_fields": [f.lstrip("=^@") for f in model_admin.get_search_fields(request)],
            "ordering": list(model_admin.get_ordering(request) or ()),
            "sortable_by": list(model_admin.get_sortable_by(request)),
            "list_display": [
                n for n in model_admin.get_list_display(request) if isinstance(n, str)
            ],
            "list_filter": [n for n in model_admin.get_list_filter(request) if isinstance(n, str)],
            "date_hierarchy": [model_admin.date_hierarchy] if model_admin.date_hierarchy else [],
        }
        touching = {
            key: [name for name in names if lookup_touches_secret(model, name)]
            for key, names in config.items()
        }
        assert not any(touching.values()), (model, touching)
        if not _may_view(user, model):
            continue
        # Every column ordering the list offers answers, none by a secret (checked above).
        for index in range(len(config["list_display"]) + 1):
            for order in (str(index), f"-{index}"):
                response = client.get(_changelist(model), {"o": order})
                assert response.status_code == 200, (model, order)


def test_an_admin_that_names_a_secret_still_never_uses_it(running_game):
    """A later admin that lists the seed by mistake: the mixin drops it everywhere."""

    class CarelessGameAdmin(GameAdmin):
        list_display = ["pk", "seed", "state"]
        search_fields = ["=seed", "state", "seats__player__display_name"]
        ordering = ["seed", "-created_at"]
        sortable_by = ["seed", "pk"]
        list_filter = ["seed", "status"]
        fields = ["seed", "state", "status"]

    model_admin = CarelessGameAdmin(Game, admin.site)
    request = RequestFactory().get("/admin/")
    request.user = _staff("superuser")
    assert list(model_admin.get_list_display(request)) == ["pk"]
    assert list(model_admin.get_search_fields(request)) == ["seats__player__display_name"]
    assert list(model_admin.get_ordering(request)) == ["-created_at"]
    assert list(model_admin.get_sortable_by(request)) == ["pk"]
    assert list(model_admin.get_list_filter(request)) == ["status"]
    assert list(model_admin.get_fields(request, running_game)) == ["status"]
    assert not model_admin.lookup_allowed("seed__startswith", "7", request)


@pytest.mark.parametrize("role", ["moderator", "superuser"])
def test_the_game_pages_of_the_admin_never_show_a_running_games_secrets(running_game, role):
    client = _client(_staff(role))
    pages = [
        _changelist(Game),
        reverse("admin:games_game_change", args=[running_game.pk]),
        reverse("admin:games_game_history", args=[running_game.pk]),
        _changelist(GameEvent),
        reverse("admin:games_gameevent_change", args=[GameEvent.objects.get(seq=999).pk]),
    ]
    for url in pages:
        response = client.get(url)
        # Moderators do not open the log's rows at all.
        assert response.status_code == (403 if "gameevent" in url and role == "moderator" else 200)
        body = response.content.decode()
        assert running_game.seed not in body, url
        assert '"hands"' not in body and "&quot;hands&quot;" not in body, url
        assert "fire" not in body, url


def test_a_games_delete_page_and_its_rows_names_say_no_secret(running_game):
    """The admin names related rows by their ``str`` (a delete confirmation, the history,
    messages): a standing order's name must not say which card lies face down."""
    order = StandingOrder.objects.create(
        game=running_game, seat=0, round=0, pile_index=3, card="ghostcard", preference={}
    )
    assert "ghostcard" not in str(order)
    client = _client(_staff("superuser"))
    response = client.get(reverse("admin:games_game_delete", args=[running_game.pk]))
    body = response.content.decode()
    assert "ghostcard" not in body
    assert running_game.seed not in body


# -- numbers no column can hold ------------------------------------------------------------

HUGE = "9" * 30


@pytest.mark.parametrize(
    "model, query",
    [
        (Game, f"created_at__year={HUGE}"),
        (Game, "created_at__year=10000"),
        (Game, "created_at__year=0"),
        (Game, f"finished_at__year__gt={HUGE}"),
        (Game, f"deadline__month={HUGE}"),
        # The date drill-down builds a date from these: a C int at most.
        (Game, f"created_at__year=2026&created_at__month=1&created_at__day={2**40}"),
        (Game, f"created_at__year=2026&created_at__month={-(2**40)}"),
        (Game, f"id__exact={HUGE}"),
        (Game, f"id__in=1,{HUGE}"),
        (Game, f"version__gt={HUGE}"),
        (Game, f"seats_count__lte=-{HUGE}"),
        (GameEvent, f"game={HUGE}"),
        (GameEvent, f"game__id__in={HUGE}"),
        (GameEvent, f"seq__range=1,{HUGE}"),
    ],
    ids=lambda value: value if isinstance(value, str) else value._meta.model_name,
)
def test_a_number_no_column_can_hold_answers_404_not_500(running_game, model, query):
    client = _client(_staff("superuser"))
    response = client.get(f"{_changelist(model)}?{query}")
    assert response.status_code == 404, (query, response.status_code)
    # A year a date can hold still works.
    ok = client.get(_changelist(Game), {"created_at__year": running_game.created_at.year})
    assert _game_links(ok) == {str(running_game.pk)}
