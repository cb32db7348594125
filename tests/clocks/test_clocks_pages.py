"""The notifications page and the bell's link, presence kept by the game socket, and the
``sweep_turns`` command."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from asgiref.sync import sync_to_async
from clockkit import started_game
from django.core.management import call_command
from django.db import connections
from django.test import Client

from games.models import Game, Notification, TurnClock
from games.services.notifications import notification_send
from games.services.presence import is_present, presence_leave
from napad_site.asgi import application
from tests.socketkit import Socket, session_of, socket_headers


def test_the_notifications_page_lists_and_marks_read(alice, bob, alice_client):
    game = started_game(alice, bob)
    first = notification_send(
        player=alice.player, game=game, kind="turn_reminder", text="Your turn", key="k1"
    )
    notification_send(player=alice.player, kind="note", text="Something else", key="k2")
    assert notification_send(player=alice.player, kind="note", text="Again", key="k2") is None
    notification_send(player=bob.player, kind="note", text="Bob's own", key="k3")

    page = alice_client.get("/notifications/").content.decode()
    assert "Your turn" in page and "Something else" in page and "Bob&#x27;s own" not in page
    assert "Bob's own" not in page
    # Opening one marks it read and goes to its page.
    response = alice_client.post("/notifications/read", {"id": first.pk, "next": first.url})
    assert response.status_code == 302 and response.url == f"/games/{game.pk}/"
    assert Notification.objects.filter(player=alice.player, read_at__isnull=True).count() == 1
    alice_client.post("/notifications/read")
    assert not Notification.objects.filter(player=alice.player, read_at__isnull=True).exists()
    assert Notification.objects.filter(player=bob.player, read_at__isnull=True).count() == 1


def test_the_bell_links_to_the_notifications_page(alice, alice_client):
    assert 'href="/notifications/"' in alice_client.get("/").content.decode()


def test_pages_need_a_login():
    client = Client()
    for url in ("/notifications/", "/accounts/leave/"):
        assert client.get(url).status_code == 302


def test_the_command_sweeps_once_and_prints_json(alice, bob):
    game = started_game(alice, bob)
    Game.objects.filter(pk=game.pk).update(deadline=game.deadline)  # nothing is due yet
    out = StringIO()
    call_command("sweep_turns", stdout=out)
    report = json.loads(out.getvalue())
    assert report["timeouts"] == {} and report["reminders"] == {}


def test_the_benchmark_leaves_nothing_behind(alice):
    games_before = Game.objects.count()
    out = StringIO()
    call_command("sweep_turns", "--benchmark", "--games", "300", "--due", "20", stdout=out)
    report = json.loads(out.getvalue())
    assert report["games"] == 300
    assert report["found"] == {"reminders": 10, "timeouts": 10}
    assert report["sweep"]["timeouts"] == {"timeout": 10}
    assert report["sweep"]["reminders"] == {"sent": 10}
    # Beat's half queued one message per due item (on an in-memory broker of its own).
    assert report["fan_out_queued"] == 20
    assert report["sweep_seconds"] > 0
    assert Game.objects.count() == games_before
    assert not TurnClock.objects.exists()


@pytest.mark.django_db(transaction=True)
async def test_an_open_game_socket_marks_the_member_present(alice, bob):
    game = await sync_to_async(started_game)(alice, bob)
    client = Client()
    await sync_to_async(client.force_login)(alice)
    socket = Socket(
        application, f"/ws/games/{game.pk}/", headers=socket_headers(session_of(client))
    )
    connected, _code = await socket.connect()
    assert connected
    await socket.receive_from()
    assert await sync_to_async(is_present)(game.pk, alice.pk)
    assert not await sync_to_async(is_present)(game.pk, bob.pk)
    await socket.disconnect()
    await sync_to_async(presence_leave)(game.pk, alice.pk)
    await sync_to_async(connections.close_all)()
