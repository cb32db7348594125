"""A move's broadcast sent from synchronous code reaches the other members' sockets on the
configured channel layer: from a view (a member's move posted to the table) and from a Celery
task run in the process (the clock playing a timed-out seat). With ``REDIS_URL`` set (the
scaled run) the layer is channels-redis, sent to from the process's long-lived event loop;
the embedded channels-lite layer has the same path tested in test_broadcast_embedded.py.
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.db import connections
from django.test import Client
from django.utils import timezone
from playkit import first_legal, napad_game, user_to_move

from games.models import Game, TurnClock
from games.tasks import turn_timeout_apply_task
from napad_site.asgi import application
from tests.socketkit import Socket, session_of, socket_headers

pytestmark = pytest.mark.django_db(transaction=True)


def _logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _socket(game_id: int, client: Client) -> Socket:
    return Socket(application, f"/ws/games/{game_id}/", headers=socket_headers(session_of(client)))


def _clock_runs_out(game_id: int) -> None:
    """The seat to move runs out of time: the worker's task plays for it (run here, eagerly).
    The turn's clock is moved back rather than the time forward: the layers' own expiries
    read the real time."""
    game = Game.objects.get(pk=game_id)
    started = timezone.now() - game.turn_time_limit - timedelta(minutes=1)
    deadline = started + game.turn_time_limit
    TurnClock.objects.filter(game=game).update(started_at=started)
    Game.objects.filter(pk=game_id).update(deadline=deadline)
    version = game.version
    turn_timeout_apply_task.apply(args=(game_id, version, deadline.isoformat())).get()


async def test_a_move_from_a_view_and_a_timeout_from_a_task_reach_the_other_sockets(
    alice, bob, charlie
):
    game = await sync_to_async(napad_game)(alice, bob)
    mover = await sync_to_async(user_to_move)(game, [alice, bob])
    waiter = bob if mover == alice else alice
    mover_client, waiter_client, spectator_client = [
        await sync_to_async(_logged_in)(user) for user in (mover, waiter, charlie)
    ]
    waiter_socket = _socket(game.pk, waiter_client)
    spectator_socket = _socket(game.pk, spectator_client)
    for socket in (waiter_socket, spectator_socket):
        assert (await socket.connect())[0] is True
        assert 'data-version="0"' in await socket.receive_from()  # the table as it is

    action = await sync_to_async(first_legal)(game)
    response = await sync_to_async(mover_client.post)(
        f"/games/{game.pk}/act",
        {"action": json.dumps(action), "version": 0},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    moved = await waiter_socket.receive_from()
    assert 'data-version="1"' in moved and "Your hand" in moved
    watched = await spectator_socket.receive_from()
    assert 'data-version="1"' in watched and "Your hand" not in watched

    # Now the waiter is to move; their clock runs out and the task plays for them.
    await sync_to_async(_clock_runs_out)(game.pk)
    for socket in (waiter_socket, spectator_socket):
        assert 'data-version="2"' in await socket.receive_from()

    for socket in (waiter_socket, spectator_socket):
        await socket.disconnect()
    await sync_to_async(connections.close_all)()
