"""Who may open what: every page of the site, every API endpoint and both WebSockets, for
five personas — anonymous, a logged-in member with no seat at the table, the other seat, the
seat (the member who opened the table), and staff (a moderator) — each with the status it
must get.

The page matrix is keyed by URL name, and a test fails when a URL name exists that the
matrix does not list (or the matrix lists one that is gone), so a new page cannot ship
without someone deciding who may see it. The same holds for the API's operations, taken
from its OpenAPI schema. The admin has its own tests (tests/site/test_permissions.py); login
throttling is tested in tests/site/test_accounts.py (``test_it_throttles_*``), and
``check --deploy`` with the production settings in tests/site/test_settings.py.

Statuses: ``LOGIN`` is a redirect to the login page; a page that only takes POST answers a
GET with 405; a table's pages answer 404 to those who may not see it (an invite-only
table's existence is not revealed).
"""

from __future__ import annotations

import json

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.conf import settings
from django.db import connections
from django.shortcuts import resolve_url
from django.test import Client
from django.urls import URLResolver, get_resolver, reverse

from games.api import api
from games.engines import get_engine
from games.models import ChatMessage, Game, GameEvent, Seat
from napad_site.asgi import application
from tests.socketkit import Socket, session_of, socket_headers

PERSONAS = ("anonymous", "member", "other_seat", "seat", "staff")
LOGIN = "login"
MISSING = 999_999  # an id nothing has


def every(status):
    return dict.fromkeys(PERSONAS, status)


def members(status, anonymous=LOGIN):
    """``status`` for everyone logged in; anonymous is sent to log in."""
    return {**every(status), "anonymous": anonymous}


# URL name -> (URL kwargs, expected GET status per persona). Kwargs name objects of the
# ``world`` fixture: a running game, alice's token, a ruleset, a league.
PAGES: dict[str, tuple[dict, dict]] = {
    # Public pages.
    "home": ({}, every(200)),
    "healthz": ({}, every(200)),
    # A member already logged in is sent on to the site.
    "login": ({}, {**every(302), "anonymous": 200}),
    "signup": ({}, {**every(302), "anonymous": 200}),
    "rules_index": ({}, every(200)),
    "rules_detail": ({"slug": "ruleset_slug", "version": 1}, every(200)),
    # The installable site: the manifest, the service worker and its offline page.
    "web_manifest": ({}, every(200)),
    "service_worker": ({}, every(200)),
    "offline": ({}, every(200)),
    "password_reset": ({}, every(200)),
    "password_reset_done": ({}, every(200)),
    "password_reset_confirm": ({"uidb64": "MQ", "token": "x-y"}, every(200)),
    "password_reset_complete": ({}, every(200)),
    # Django's logout takes POST only.
    "logout": ({}, every(405)),
    "set_language": ({}, every(405)),
    # Members' pages.
    "profile": ({}, members(200)),
    "api_tokens": ({}, members(200)),
    "api_token_revoke": ({"token_id": "token_id"}, members(405)),
    # Web Push devices: turn on (JSON from the profile's script), forget, remove.
    "push_device_subscribe": ({}, members(405)),
    "push_device_forget": ({}, members(405)),
    "push_device_remove": ({"device_id": MISSING}, members(405)),
    "password_change": ({}, members(200)),
    "password_change_done": ({}, members(200)),
    "member_list": ({}, members(200)),
    "member_detail": ({"username": "alice"}, members(200)),
    "lobby": ({}, members(200)),
    "game_create": ({}, members(200)),
    # "Play against bots" deals a table: POST only.
    "practice_start": ({}, members(405)),
    "leave": ({}, members(200)),
    "leave_cancel": ({"leave_id": MISSING}, members(405)),
    "notification_list": ({}, members(200)),
    "notifications_read": ({}, members(405)),
    "rating_list": ({}, members(200)),
    "player_ratings": ({"username": "alice"}, members(200)),
    # A running table, open to watch: every member may see it; only seats replay it.
    "game_detail": ({"game_id": "game_id"}, members(200)),
    "game_log": ({"game_id": "game_id"}, members(200)),
    "game_replay": (
        {"game_id": "game_id"},
        {**members(200), "member": 404, "staff": 404},
    ),
    "game_act": ({"game_id": "game_id"}, members(405)),
    "seat_join": ({"game_id": "game_id"}, members(405)),
    "seat_leave": ({"game_id": "game_id"}, members(405)),
    "game_start": ({"game_id": "game_id"}, members(405)),
    "game_cancel": ({"game_id": "game_id"}, members(405)),
    "chat_post": ({"game_id": "game_id"}, members(405)),
    "game_verify": ({"game_id": "game_id"}, members(405)),
    "deadline_extend": ({"game_id": "game_id"}, members(405)),
    "standing_order_set": ({"game_id": "game_id"}, members(405)),
    # "Since your last visit": dismissing takes POST; watching is for whoever may watch the
    # table (without ``from`` it answers an empty fragment).
    "since_dismiss": ({"game_id": "game_id"}, members(405)),
    "game_watch": ({"game_id": "game_id"}, members(200)),
    # Leagues.
    "league_list": ({}, members(200)),
    "league_detail": ({"slug": "league_slug"}, members(200)),
    "league_balance": ({"slug": "league_slug"}, members(200)),
    # No season is running: back to the league page.
    "league_result_new": ({"slug": "league_slug"}, members(302)),
    "league_join": ({"slug": "league_slug"}, members(405)),
    "league_leave": ({"slug": "league_slug"}, members(405)),
    "league_result_confirm": ({"slug": "league_slug", "fixture_id": MISSING}, members(405)),
    "league_result_reject": ({"slug": "league_slug", "fixture_id": MISSING}, members(405)),
    "league_member_decide": (
        {"slug": "league_slug", "membership_id": MISSING},
        members(405),
    ),
    "league_season_create": ({"slug": "league_slug"}, members(405)),
    "league_season_start": ({"slug": "league_slug", "number": 1}, members(405)),
    "league_season_finish": ({"slug": "league_slug", "number": 1}, members(405)),
    "league_round_open": ({"slug": "league_slug", "round_id": MISSING}, members(405)),
}

# Extra rows: the same pages for tables the personas stand differently to.
# A member neither seated nor invited may not watch an invite-only table, and neither may a
# moderator who has not opened it from the admin (that is recorded: tests/security/
# test_staff_roles.py); staff status alone opens nothing (docs/roles.md).
INVITE_ONLY = {**members(200), "member": 404, "staff": 404}
INVITE_ONLY_PAGES = {
    "game_detail": INVITE_ONLY,
    "game_log": INVITE_ONLY,
    "game_watch": INVITE_ONLY,
    "game_replay": {**members(200), "member": 404, "staff": 404},
}
MISSING_GAME_PAGES = {
    "game_detail": members(404),
    "game_log": members(404),
    "game_watch": members(404),
    "game_replay": members(404),
}

# The API: (method, path with {game_id}) -> expected status per persona. Anonymous callers
# get 401; a table's data is open to every member who may see it; only seats have actions.
API: dict[tuple[str, str], dict] = {
    ("GET", "/api/me"): members(200, anonymous=401),
    ("GET", "/api/rulesets"): members(200, anonymous=401),
    ("GET", "/api/tables"): members(200, anonymous=401),
    ("POST", "/api/tables"): members(422, anonymous=401),
    ("GET", "/api/tables/{game_id}"): members(200, anonymous=401),
    # The table is running: joining, leaving, starting or cancelling it is refused (400)
    # whoever asks, after the caller is known.
    ("POST", "/api/tables/{game_id}/join"): members(400, anonymous=401),
    ("POST", "/api/tables/{game_id}/leave"): members(400, anonymous=401),
    ("POST", "/api/tables/{game_id}/start"): members(400, anonymous=401),
    ("POST", "/api/tables/{game_id}/cancel"): members(400, anonymous=401),
    ("GET", "/api/games/{game_id}"): members(200, anonymous=401),
    ("GET", "/api/games/{game_id}/actions"): {
        **members(200, anonymous=401),
        "member": 403,
        "staff": 403,
    },
    ("POST", "/api/games/{game_id}/actions"): {
        **members(422, anonymous=401),
    },
    ("GET", "/api/games/{game_id}/log"): members(200, anonymous=401),
    ("GET", "/api/leagues"): members(200, anonymous=401),
    ("GET", "/api/leagues/{league}/standings"): members(200, anonymous=401),
    ("GET", "/api/ratings/{kind}"): members(200, anonymous=401),
}


# -- the personas' clients (the ``world`` they act in is tests/security/conftest.py) ------------


def _client(world, persona: str) -> Client:
    client = Client()
    if persona != "anonymous":
        client.force_login(world["users"][persona])
    return client


def _status(response) -> int | str:
    if response.status_code == 302 and response["Location"].startswith(
        resolve_url(settings.LOGIN_URL)
    ):
        return LOGIN
    return response.status_code


def _url(world, name: str, kwargs: dict) -> str:
    resolved = {key: world.get(value, value) for key, value in kwargs.items()}
    return reverse(name, kwargs=resolved)


# -- completeness ------------------------------------------------------------------------------


def _site_url_names() -> set[str]:
    """Every named URL outside the admin and the API (they have their own matrices)."""
    names = set()

    def walk(patterns):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                if pattern.namespace not in ("admin", "api"):
                    walk(pattern.url_patterns)
            elif pattern.name:
                names.add(pattern.name)

    walk(get_resolver().url_patterns)
    return names


def test_every_named_page_has_a_row_in_the_matrix():
    assert _site_url_names() == set(PAGES)


def test_every_api_operation_has_a_row_in_the_matrix():
    schema = api.get_openapi_schema()
    operations = {
        (method.upper(), path.rstrip("/"))
        for path, item in schema["paths"].items()
        for method in item
    }
    assert operations == set(API)


# -- the matrix --------------------------------------------------------------------------------


def _observed(world, rows: dict[str, tuple[dict, dict]]) -> tuple[dict, dict]:
    expected, observed = {}, {}
    for persona in PERSONAS:
        client = _client(world, persona)
        for name, (kwargs, statuses) in rows.items():
            url = _url(world, name, kwargs)
            expected[(name, persona)] = statuses[persona]
            observed[(name, persona)] = _status(client.get(url))
    return expected, observed


def test_every_page_answers_each_persona_as_the_matrix_says(world):
    expected, observed = _observed(world, PAGES)
    wrong = {
        key: (expected[key], observed[key]) for key in expected if expected[key] != observed[key]
    }
    assert wrong == {}


@pytest.mark.parametrize(
    "game, rows",
    [("hidden_game_id", INVITE_ONLY_PAGES), (MISSING, MISSING_GAME_PAGES)],
    ids=["invite-only table", "no such table"],
)
def test_table_pages_answer_404_to_whoever_may_not_see_the_table(world, game, rows):
    table = {name: ({"game_id": game}, statuses) for name, statuses in rows.items()}
    expected, observed = _observed(world, table)
    wrong = {
        key: (expected[key], observed[key]) for key in expected if expected[key] != observed[key]
    }
    assert wrong == {}


def _fingerprint(game_id: int):
    game = Game.objects.get(pk=game_id)
    return (
        game.version,
        game.status,
        Seat.objects.filter(game_id=game_id).count(),
        GameEvent.objects.count(),
        ChatMessage.objects.count(),
    )


def test_every_api_operation_answers_each_persona_as_the_matrix_says(world):
    before = _fingerprint(world["game_id"])
    wrong = {}
    for persona in PERSONAS:
        token = world["tokens"].get(persona)
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        client = Client()
        for (method, path), statuses in API.items():
            url = path.format(game_id=world["game_id"], league="club", kind="napad")
            if method == "GET":
                response = client.get(url, headers=headers)
            else:
                # Empty bodies: the caller's rights are checked, nothing valid is asked for.
                response = client.post(url, "{}", content_type="application/json", headers=headers)
            if response.status_code != statuses[persona]:
                wrong[(method, path, persona)] = (statuses[persona], response.status_code)
    assert wrong == {}
    assert _fingerprint(world["game_id"]) == before


# -- the sockets -------------------------------------------------------------------------------


async def _connect(path: str, client: Client | None) -> tuple[bool, int | None]:
    session = None if client is None else session_of(client)
    socket = Socket(application, path, headers=socket_headers(session))
    connected, code = await socket.connect()
    if connected:
        await socket.disconnect()
    return connected, (None if connected else code)


SOCKETS = {
    # path template -> expected (connected, close code) per persona
    "/ws/notifications/": {**every((True, None)), "anonymous": (False, 4401)},
    "/ws/games/{game_id}/": {**every((True, None)), "anonymous": (False, 4401)},
    "/ws/games/{hidden_game_id}/": {
        **every((True, None)),
        "anonymous": (False, 4401),
        "member": (False, 4403),
        "staff": (False, 4403),
    },
}


@pytest.mark.django_db(transaction=True)
def test_the_sockets_admit_each_persona_as_the_matrix_says(world):
    wrong = {}
    for persona in PERSONAS:
        client = None if persona == "anonymous" else _client(world, persona)
        for template, expected in SOCKETS.items():
            path = template.format(**world)
            got = async_to_sync(_connect)(path, client)
            if got != expected[persona]:
                wrong[(template, persona)] = (expected[persona], got)
    async_to_sync(sync_to_async(connections.close_all))()
    assert wrong == {}


# -- posting to a table one has no seat at -----------------------------------------------------


def _legal_move(game_id: int) -> tuple[int, str]:
    game = Game.objects.get(pk=game_id)
    engine = get_engine(game.kind)
    action = engine.legal_actions(engine.from_json(game.state), game.to_move[0])[0]
    return game.version, json.dumps({k: v for k, v in action.items() if k != "label"})


def _table_posts(world) -> dict[str, dict]:
    """Every POST view of a table with a body that would work for the right member."""
    version, action = _legal_move(world["game_id"])
    return {
        "game_act": {"action": action, "version": version},
        "chat_post": {"text": "hands up!"},
        "deadline_extend": {},
        "standing_order_set": {"kind": "draw"},
        "seat_join": {},
        "seat_leave": {},
        "game_start": {},
        "game_cancel": {},
        "game_verify": {},
    }


@pytest.mark.parametrize("persona", ["anonymous", "member", "staff"])
def test_nobody_without_a_seat_changes_a_table_by_posting(world, persona):
    client = _client(world, persona)
    before = _fingerprint(world["game_id"])
    for name, body in _table_posts(world).items():
        url = reverse(name, kwargs={"game_id": world["game_id"]})
        for headers in ({}, {"HX-Request": "true"}):
            status = _status(client.post(url, body, headers=headers))
            assert status in ({LOGIN} if persona == "anonymous" else {200, 302}), (name, status)
    assert _fingerprint(world["game_id"]) == before


def test_the_seat_to_move_can_move_and_chat_with_the_same_posts(world):
    version, _action = _legal_move(world["game_id"])
    game = Game.objects.get(pk=world["game_id"])
    mover = Seat.objects.get(game=game, position=game.to_move[0]).player.user
    persona = next(name for name, user in world["users"].items() if user == mover)
    client = _client(world, persona)
    posts = _table_posts(world)
    client.post(reverse("game_act", args=[game.pk]), posts["game_act"])
    client.post(reverse("chat_post", args=[game.pk]), posts["chat_post"])
    game.refresh_from_db()
    assert game.version == version + 1 and ChatMessage.objects.count() == 1
