"""The game socket: each member receives the table as their own seat sees it, live."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import connections
from django.test import Client
from playkit import first_legal, napad_game, user_to_move

from games.services.play import move_submit
from napad_site.asgi import application

HEADERS = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
pytestmark = pytest.mark.django_db(transaction=True)


async def _socket(game_id: int, user=None) -> WebsocketCommunicator:
    headers = list(HEADERS)
    if user is not None:
        client = Client()
        await sync_to_async(client.force_login)(user)
        session = client.cookies[settings.SESSION_COOKIE_NAME].value
        headers.append((b"cookie", f"{settings.SESSION_COOKIE_NAME}={session}".encode()))
    return WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers=headers)


async def _close(*sockets: WebsocketCommunicator) -> None:
    for socket in sockets:
        await socket.disconnect()
    # The ORM ran in asgiref's worker thread: close its connection so the test database can go.
    await sync_to_async(connections.close_all)()


async def test_it_refuses_an_anonymous_socket(alice, bob):
    game = await sync_to_async(napad_game)(alice, bob)
    socket = await _socket(game.pk)
    connected, code = await socket.connect()
    assert connected is False and code == 4401
    await _close()


async def test_it_refuses_a_stranger_at_an_invite_only_table(alice, bob, charlie):
    game = await sync_to_async(napad_game)(alice, bob, invite_only=True, invitees=[bob.player])
    socket = await _socket(game.pk, charlie)
    connected, code = await socket.connect()
    assert connected is False and code == 4403
    await _close()


async def test_a_move_reaches_the_other_player_with_their_own_view(alice, bob, charlie):
    game = await sync_to_async(napad_game)(alice, bob)
    mover = await sync_to_async(user_to_move)(game, [alice, bob])
    waiter = bob if mover == alice else alice
    waiter_socket = await _socket(game.pk, waiter)
    spectator_socket = await _socket(game.pk, charlie)
    assert (await waiter_socket.connect())[0] is True
    assert (await spectator_socket.connect())[0] is True
    # On connect each page gets the table as it is now (a reconnecting page catches up).
    first = await waiter_socket.receive_from(timeout=3)
    assert 'id="game-live"' in first and 'hx-swap-oob="true"' in first
    assert 'data-version="0"' in first and "Your hand" in first
    assert "Your hand" not in await spectator_socket.receive_from(timeout=3)

    action = await sync_to_async(first_legal)(game)
    result = await sync_to_async(move_submit)(
        game_id=game.pk, user=mover, action=json.dumps(action), expected_version=0
    )
    assert result.ok

    pushed = await waiter_socket.receive_from(timeout=3)
    assert 'data-version="1"' in pushed
    assert "Your hand" in pushed and 'name="action"' in pushed  # the waiter's turn now
    assert 'id="chat-log"' in pushed
    # Screen readers hear what happened: the move's log line goes to base.html's live region.
    assert '<div id="live-region" hx-swap-oob="innerHTML">' in pushed
    announced = pushed.split('id="live-region"')[1].split("</div>")[0]
    assert "send card" in announced  # the first legal action is a play
    watched = await spectator_socket.receive_from(timeout=3)
    assert 'data-version="1"' in watched
    assert "Your hand" not in watched and 'name="action"' not in watched
    for html in (first, pushed, watched):
        assert game.seed not in html
    await _close(waiter_socket, spectator_socket)
