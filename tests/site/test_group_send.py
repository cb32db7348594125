"""Broadcasts from synchronous code (games/group_send.py) on the embedded channel layer
(channels-lite, the SQLite file a Celery worker and daphne share): what the layer's own
readers receive, without an event loop started per send.

Runs in a fresh interpreter on the embedded settings, as the site runs with no variables (the
tests' own settings use the in-process layer). The Redis sender has its twin in
tests/scaled/test_group_send_redis.py.
"""

from __future__ import annotations

import json

from test_settings import run_python

SCRIPT = """
import asyncio, json, django
django.setup()
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core.management import call_command
from games import broadcast, group_send

call_command("migrate", verbosity=0)
call_command("migrate", database="channels", verbosity=0)
layer = get_channel_layer()
member, other = (async_to_sync(layer.new_channel)() for _ in range(2))
async_to_sync(layer.group_add)("game-7", member)

def refused(*args, **kwargs):
    raise AssertionError("group_send started an event loop")

group_send.async_to_sync = refused
for version in (1, 2):
    broadcast._send("game-7", {"type": "game.updated", "version": version})
group_send.async_to_sync = async_to_sync

async def received():
    # Nothing reached the channel outside the group: the marker sent after is what it gets.
    await layer.send(other, {"type": "marker"})
    first, second, marker = [
        await asyncio.wait_for(layer.receive(channel), 60) for channel in (member, member, other)
    ]
    return {"member": [first, second], "other": marker}

print(json.dumps({"sender": type(layer._napad_group_sender).__name__, **asyncio.run(received())}))
"""


def test_a_broadcast_reaches_the_groups_channels_on_the_embedded_layer(tmp_path):
    done = run_python(SCRIPT, {}, tmp_path)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["sender"] == "SQLiteGroupSender"
    assert [m["version"] for m in found["member"]] == [1, 2]
    assert all(m["type"] == "game.updated" and m["sent"] for m in found["member"])
    assert found["other"] == {"type": "marker"}
