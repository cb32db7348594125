"""Numbers in paths that no column can hold: every URL with a number in its path (the site,
the admin's own views, the API) answers 404 to 2**63, 2**64 and thirty digits, GET and POST —
never a 500 — and the game socket refuses them at the handshake.

The routes are not listed here: they are read from the URL configuration, so a new route
with a number in its path is tested the day it is added, and a test fails if a number in a
path does not go through the ``<id:…>`` converter (games/web/converters.py).
"""

from __future__ import annotations

import re

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.db import connections
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import RoutePattern

from games.models import Game
from games.web.converters import DB_ID_MAX
from napad_site.asgi import application
from tests.socketkit import Socket, session_of, socket_headers

HUGE = [str(2**63), str(2**64), "9" * 30]
# <converter:name> in a route; a bare <name> is Django's str converter.
PARAMETER = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<name>[^>]+)>")
# Whatever the route is about, a number names it: these parameters take one.
NUMERIC_CONVERTERS = {"int", "id"}


def _routes(patterns=None, prefix: str = ""):
    """Every endpoint's route (``path()`` syntax, prefixes joined), as (route, name)."""
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        if not isinstance(entry.pattern, RoutePattern):
            continue  # re_path(): the admin's app index and the API's catch-all take no number
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            yield from _routes(entry.url_patterns, route)
        elif isinstance(entry, URLPattern):
            yield route, entry.name


def _numeric(route: str, converter: str | None, name: str) -> bool:
    """Whether the parameter takes a number: an ``int`` or ``id`` converter, or an API path
    parameter named as an id (ninja's ``{game_id}`` would be a bare ``<game_id>``)."""
    if converter in NUMERIC_CONVERTERS:
        return True
    return converter is None and route.startswith("api/") and (name == "id" or name.endswith("_id"))


def _routes_with_numbers() -> list[tuple[str, str]]:
    """The site's and the API's routes that take a number. The admin's are tested apart:
    Django routes its objects by their key as text, and an admin URL no route takes is sent
    on to the object's page (``…/<path:object_id>/`` → ``…/change/``)."""
    return [
        (route, name)
        for route, name in _routes()
        if not route.startswith("admin/")
        and any(_numeric(route, m["converter"], m["name"]) for m in PARAMETER.finditer(route))
    ]


def _url(route: str, world: dict, number: str) -> str:
    def value(match: re.Match) -> str:
        converter, name = match["converter"], match["name"]
        if _numeric(route, converter, name) or converter == "path" or name == "id":
            return number
        if name == "slug":
            return world["league_slug"] if route.startswith("leagues/") else world["ruleset_slug"]
        if name == "username":
            return "alice"
        return "x"  # an admin action's name, ...: the number must not match first

    return "/" + PARAMETER.sub(value, route)


def test_every_number_in_a_path_goes_through_the_id_converter():
    routes = _routes_with_numbers()
    loose = [
        route
        for route, _name in routes
        for match in PARAMETER.finditer(route)
        if _numeric(route, match["converter"], match["name"]) and match["converter"] != "id"
    ]
    assert loose == []
    names = {name for _route, name in routes}
    # The walk found the site's, the admin's and the API's routes.
    assert {"game_detail", "game_act", "since_dismiss", "game_watch", "leave_cancel"} <= names
    assert {"push_device_remove", "api_token_revoke", "league_result_confirm"} <= names
    assert {"game_detail", "move_submit", "table_join", "rules_detail"} <= names
    assert any(route.startswith("api/") for route, _name in routes)


def test_every_route_with_a_number_answers_404_to_numbers_no_column_holds(world):
    game = Game.objects.get(pk=world["game_id"])
    before = (game.version, game.status, Game.objects.count())
    site = Client(raise_request_exception=False)
    site.force_login(world["users"]["staff"])  # a moderator
    seat = Client(raise_request_exception=False)
    seat.force_login(world["users"]["seat"])
    token = {"Authorization": f"Bearer {world['tokens']['seat']}"}
    wrong = {}
    for route, _name in _routes_with_numbers():
        for number in HUGE:
            url = _url(route, world, number)
            for client in (site, seat):
                for method in ("get", "post"):
                    headers = token if route.startswith("api/") else {}
                    response = getattr(client, method)(url, headers=headers)
                    if response.status_code != 404:
                        wrong[(method, url)] = response.status_code
    assert wrong == {}
    game.refresh_from_db()
    assert (game.version, game.status, Game.objects.count()) == before


def test_the_admins_pages_take_huge_ids_as_missing_objects(world):
    # Django's admin routes an object by its primary key as text (<path:object_id>, any key
    # type): a number no column holds is an object that is not there — the admin's "does not
    # exist" redirect, a 404, the refusal a read-only ledger gives anyone, a POST-only
    # view's 405 to a GET — never a 500.
    from django.contrib.auth.models import User

    boss = User.objects.create_superuser("boss", "boss@example.org", "train-robbery-42")
    client = Client(raise_request_exception=False)
    client.force_login(boss)
    object_routes = [
        route
        for route, _name in _routes()
        if route.startswith("admin/")
        and any(
            _numeric(route, m["converter"], m["name"]) or m["converter"] == "path"
            for m in PARAMETER.finditer(route)
        )
    ]
    assert len(object_routes) > 20
    assert any("moderate" in route for route in object_routes)
    wrong = {}
    for route in object_routes:
        for number in HUGE:
            url = _url(route, world, number)
            for method in ("get", "post"):
                response = getattr(client, method)(url)
                if response.status_code not in (302, 403, 404, 405):
                    wrong[(method, url)] = response.status_code
    assert wrong == {}


def test_the_api_answers_json_for_an_id_no_column_holds(world):
    # A script without a session: no CSRF cookie, yet the 404, not a CSRF page.
    client = Client(enforce_csrf_checks=True)
    headers = {"Authorization": f"Bearer {world['tokens']['seat']}"}
    for path in (f"/api/games/{2**63}", f"/api/tables/{'9' * 30}/join"):
        method = client.get if path.startswith("/api/games") else client.post
        response = method(path, headers=headers)
        assert response.status_code == 404
        assert response["Content-Type"].startswith("application/json")
        assert "detail" in response.json()


def test_the_largest_id_is_still_a_url(world):
    # The bound is the column's: the largest id it holds is a game that is not there (404 from
    # the view), the next one is no URL at all (404 from the resolver).
    client = Client()
    client.force_login(world["users"]["seat"])
    response = client.get(f"/games/{DB_ID_MAX}/")
    assert response.status_code == 404
    assert client.get(f"/games/{world['game_id']}/").status_code == 200


async def _handshake(path: str, session: str) -> tuple[bool, int | None]:
    socket = Socket(application, path, headers=socket_headers(session))
    connected, code = await socket.connect()
    if connected:
        await socket.disconnect()
    return connected, code


@pytest.mark.django_db(transaction=True)
def test_the_game_socket_refuses_ids_no_column_holds(world):
    client = Client()
    client.force_login(world["users"]["seat"])
    session = session_of(client)
    try:
        for number in HUGE:
            # Refused as an unknown game is (4403), not an exception in the router or consumer.
            assert async_to_sync(_handshake)(f"/ws/games/{number}/", session) == (False, 4403)
        assert async_to_sync(_handshake)("/ws/no-such-socket/", session) == (False, 4403)
        # The member's own game still opens.
        connected, _code = async_to_sync(_handshake)(f"/ws/games/{world['game_id']}/", session)
        assert connected is True
    finally:
        async_to_sync(sync_to_async(connections.close_all))()
