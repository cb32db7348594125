"""Broadcasts on the embedded channel layer (channels-lite, the SQLite file a Celery worker and
daphne share), as the site runs with no variables: a move posted to the table's view and a
turn timeout played by the clock's Celery task (run in the process, as a worker runs it) reach
the other member's socket; a process forked after the first broadcast (a Celery or gunicorn
worker) broadcasts from its own event loop, to the group's channels only.

Runs in a fresh interpreter on the embedded settings (the tests' own settings use the
in-process layer). The Redis layer has its twin in tests/scaled/test_broadcast_redis.py.
"""

from __future__ import annotations

import json

from test_settings import run_python

SCRIPT = """
import asyncio, json, multiprocessing, sys
from datetime import timedelta
import django
django.setup()
from django.test.utils import override_settings, setup_test_environment
setup_test_environment()
# Pages link plain static files, as in the tests' settings (nothing is collected here).
override_settings(STORAGES={
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}).enable()
sys.path.insert(0, "tests/site")
from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer
from django.core.management import call_command
from django.db import connections
from django.test import Client
from django.utils import timezone
from playkit import first_legal, napad_game, user_to_move
from games import broadcast
from games.models import Game, TurnClock
from games.tasks import turn_timeout_apply_task
from napad_site.asgi import application
from tests.personakit import member
from tests.socketkit import Socket, layer_receive_until_marker, session_of, socket_headers

call_command("migrate", verbosity=0)
call_command("migrate", database="channels", verbosity=0)
alice, bob = member("alice"), member("bob")
game = napad_game(alice, bob)
mover = user_to_move(game, [alice, bob])
waiter = bob if mover == alice else alice
mover_client, waiter_client = Client(), Client()
mover_client.force_login(mover)
waiter_client.force_login(waiter)
action = first_legal(game)
connections.close_all()


GAME = game.pk


def clock_runs_out():
    # The turn's clock goes back (not the time forward: the layer's expiries read the time).
    now = Game.objects.get(pk=GAME)
    started = timezone.now() - now.turn_time_limit - timedelta(minutes=1)
    deadline = started + now.turn_time_limit
    TurnClock.objects.filter(game=now).update(started_at=started)
    Game.objects.filter(pk=GAME).update(deadline=deadline)
    turn_timeout_apply_task.apply(args=(GAME, now.version, deadline.isoformat())).get()


async def socket_sees():
    headers = socket_headers(session_of(waiter_client))
    socket = Socket(application, f"/ws/games/{GAME}/", headers=headers)
    assert (await socket.connect())[0] is True
    pushed = [await socket.receive_from()]
    response = await sync_to_async(mover_client.post)(
        f"/games/{GAME}/act", {"action": json.dumps(action), "version": 0},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200, response.status_code
    pushed.append(await socket.receive_from())
    await sync_to_async(clock_runs_out)()
    pushed.append(await socket.receive_from())
    await socket.disconnect()
    return [("Your hand" in html, html.split('data-version="')[1].split('"')[0]) for html in pushed]


seen = asyncio.run(socket_sees())

layer = get_channel_layer()
member, outside = (async_to_sync(layer.new_channel)() for _ in range(2))
async_to_sync(layer.group_add)("game-fork", member)
broadcast.send_now("game-fork", {"type": "test.sent", "by": "parent"})
child = multiprocessing.get_context("fork").Process(
    target=broadcast.send_now, args=("game-fork", {"type": "test.sent", "by": "child"})
)
child.start()
child.join()
marker = {"type": "test.marker"}


async def received():
    for channel in (member, outside):
        await layer.send(channel, marker)
    return [
        [m["by"] for m in await layer_receive_until_marker(layer, channel, marker)]
        for channel in (member, outside)
    ]


print(json.dumps({"seen": seen, "forked": asyncio.run(received()), "child_exit": child.exitcode}))
"""


def test_broadcasts_from_a_view_a_task_and_a_forked_worker_on_the_embedded_layer(tmp_path):
    done = run_python(SCRIPT, {}, tmp_path)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.strip().splitlines()[-1])
    # The table as it was, the member's move (version 1), the clock's move (version 2): each
    # on the waiter's socket, with the waiter's own hand.
    assert found["seen"] == [[True, "0"], [True, "1"], [True, "2"]]
    # The forked process's broadcast reached the group's channel after the parent's, and the
    # channel outside the group got nothing but the marker.
    assert found["child_exit"] == 0
    assert found["forked"] == [["parent", "child"], []]
