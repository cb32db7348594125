"""CSRF on every state-changing form: each view that takes a POST, posted by a logged-in
member's browser without the token (``Client(enforce_csrf_checks=True)``), answers 403 and
changes nothing. The list of such views comes from the authorisation matrix (every page
that answers a GET with 405) plus the pages that show a form on GET and take it by POST, and
a test fails if a POST view is missing from it. The API, called with the session cookie
instead of a token, needs the CSRF header too."""

from __future__ import annotations

import json

import pytest
from django.apps import apps
from django.contrib.auth.models import Group, User
from django.test import Client
from django.urls import reverse
from test_authorisation_matrix import PAGES, _url

from games.engines import get_engine
from games.models import Game, Notification, Ruleset, Seat
from games.services.organisers import RULES_EDITORS

# Pages that show a form on GET and take it by POST.
FORMS = {
    "login": {"username": "alice", "password": "train-robbery-42"},
    "signup": {
        "username": "mallory",
        "email": "m@example.org",
        "password1": "train-robbery-42",
        "password2": "train-robbery-42",
        "display_name": "Mallory",
    },
    "profile": {"display_name": "Pwned", "email": "pwned@example.org", "language": "en"},
    "api_tokens": {"name": "stolen"},
    "password_change": {
        "old_password": "train-robbery-42",
        "new_password1": "n3w-pa55-word!",
        "new_password2": "n3w-pa55-word!",
    },
    "password_reset": {"email": "alice@example.org"},
    "password_reset_confirm": {"new_password1": "x", "new_password2": "x"},
    "game_create": {"ruleset": "1", "seats": "2", "turn_time_limit": "24h"},
    "leave": {"start": "2030-01-01", "end": "2030-01-05"},
    "league_result_new": {},
}
# Pages that only read: no POST is taken (they are the rest of the matrix's pages).
READ_ONLY = {
    "home",
    "healthz",
    "rules_index",
    "rules_detail",
    "password_reset_done",
    "password_reset_complete",
    "password_change_done",
    "member_list",
    "member_detail",
    "lobby",
    "notification_list",
    "rating_list",
    "player_ratings",
    "game_detail",
    "game_log",
    "game_watch",
    "game_replay",
    "league_list",
    "league_detail",
    "league_balance",
    "web_manifest",
    "service_worker",
    "offline",
}
POSTS = sorted({name for name, (_kwargs, statuses) in PAGES.items() if statuses["seat"] == 405})


def _fingerprint(world) -> dict:
    game = Game.objects.get(pk=world["game_id"])
    alice = User.objects.get(username="alice")
    return {
        "game": (game.version, game.status, json.dumps(game.state, sort_keys=True)),
        "alice": (alice.password, alice.email, alice.player.display_name, alice.player.language),
        # Every table of the games app, and the users: a row added or removed anywhere.
        "counts": {
            model.__name__: model.objects.count()
            for model in [User, *apps.get_app_config("games").get_models()]
        },
        "unread": Notification.objects.filter(read_at__isnull=True).count(),
    }


def _body(world, name: str) -> dict:
    if name == "game_act":
        game = Game.objects.get(pk=world["game_id"])
        engine = get_engine(game.kind)
        action = engine.legal_actions(engine.from_json(game.state), game.to_move[0])[0]
        return {"action": json.dumps(action), "version": game.version}
    bodies = {
        "chat_post": {"text": "hi"},
        "standing_order_set": {"kind": "draw"},
        "set_language": {"language": "pl"},
    }
    return bodies.get(name, {})


def test_every_page_is_either_read_only_or_checked_here():
    assert set(POSTS) | set(FORMS) | READ_ONLY == set(PAGES)
    assert not set(POSTS) & set(FORMS) and not (set(POSTS) | set(FORMS)) & READ_ONLY


@pytest.mark.parametrize("name", sorted(READ_ONLY))
def test_a_read_only_page_takes_no_post(world, name, client):
    client.force_login(world["users"]["seat"])
    before = _fingerprint(world)
    response = client.post(_url(world, name, PAGES[name][0]), {"x": "1"})
    assert response.status_code in (200, 404, 405), (name, response.status_code)
    assert _fingerprint(world) == before


@pytest.mark.parametrize("name", POSTS + sorted(FORMS))
def test_a_post_without_the_csrf_token_is_refused_and_changes_nothing(world, name):
    seat = world["users"]["seat"]
    kwargs = PAGES[name][0]
    url = _url(world, name, kwargs)
    body = FORMS.get(name) or _body(world, name)
    if name == "game_act":
        # The member whose turn it is: with the token, this very post would be a move.
        game = Game.objects.get(pk=world["game_id"])
        seat = Seat.objects.get(game=game, position=game.to_move[0]).player.user
    browser = Client(enforce_csrf_checks=True)
    if name not in ("login", "signup", "password_reset", "password_reset_confirm"):
        browser.force_login(seat)
    before = _fingerprint(world)

    for headers in ({}, {"HX-Request": "true"}):
        response = browser.post(url, body, headers=headers)
        assert response.status_code == 403, (name, response.status_code)

    assert _fingerprint(world) == before


def test_the_same_move_with_the_token_goes_through(world):
    # The refusals above are the token's doing: a browser that has it makes the move.
    game = Game.objects.get(pk=world["game_id"])
    mover = Seat.objects.get(game=game, position=game.to_move[0]).player.user
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(mover)
    page = browser.get(reverse("game_detail", args=[game.pk]))
    token = page.cookies["csrftoken"].value
    body = {**_body(world, "game_act"), "csrfmiddlewaretoken": token}
    assert browser.post(reverse("game_act", args=[game.pk]), body).status_code == 302
    game.refresh_from_db()
    assert game.version == 1


@pytest.mark.parametrize(
    "path",
    [
        "/api/tables",
        "/api/tables/{game_id}/join",
        "/api/tables/{game_id}/start",
        "/api/games/{game_id}/actions",
    ],
)
def test_the_api_with_the_session_cookie_needs_the_csrf_header(world, path):
    game = Game.objects.get(pk=world["game_id"])
    mover = Seat.objects.get(game=game, position=game.to_move[0]).player.user
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(mover)
    engine = get_engine(game.kind)
    action = engine.legal_actions(engine.from_json(game.state), game.to_move[0])[0]
    body = {"kind": "napad", "seats": 2, "action": action, "expected_version": game.version}
    before = _fingerprint(world)

    response = browser.post(
        path.format(game_id=game.pk), json.dumps(body), content_type="application/json"
    )

    assert response.status_code in (401, 403), response.content
    assert _fingerprint(world) == before


@pytest.mark.parametrize(
    "name, args",
    [
        ("admin:games_game_moderate", ("game", "extend")),
        ("admin:games_game_moderate", ("game", "abort")),
        ("admin:games_ruleset_clone", ("ruleset",)),
        ("admin:logout", ()),
    ],
)
def test_the_admins_own_posts_need_the_token_too(world, name, args):
    staff = world["users"]["staff"]
    staff.groups.add(Group.objects.get(name=RULES_EDITORS))
    ruleset = Ruleset.objects.get(slug=world["ruleset_slug"], version=1)
    values = {"game": world["game_id"], "ruleset": ruleset.pk}
    url = reverse(name, args=[values.get(arg, arg) for arg in args])
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(staff)
    before = _fingerprint(world)

    response = browser.post(url, {"reason": "x", "hours": "5"})

    assert response.status_code == 403
    assert _fingerprint(world) == before
