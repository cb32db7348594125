"""The notification bell: in every page for members, and pushed live over the WebSocket."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.db import connections
from django.test import Client
from django.urls import reverse

from games import broadcast
from games.models import Notification
from napad_site.asgi import application
from tests.socketkit import Socket, layer_receive_until_marker, socket_headers


def _socket(session_key: str | None = None) -> Socket:
    return Socket(application, "/ws/notifications/", headers=socket_headers(session_key))


@pytest.mark.django_db
def test_it_shows_the_bell_and_connects_the_socket_for_members(alice_client, alice):
    Notification.objects.create(player=alice.player, kind="turn", text="Your turn")

    html = alice_client.get(reverse("home")).content.decode()

    assert 'id="notification-bell"' in html
    assert "1 unread notification" in html
    assert 'hx-ext="ws" ws-connect="/ws/notifications/"' in html
    assert "hx-swap-oob" not in html


@pytest.mark.django_db
def test_it_shows_no_bell_to_visitors(client):
    html = client.get(reverse("home")).content.decode()

    assert 'id="notification-bell"' not in html
    assert "ws-connect" not in html


@pytest.mark.django_db(transaction=True)
async def test_it_refuses_an_anonymous_socket():
    communicator = _socket()

    connected, code = await communicator.connect()

    assert connected is False
    assert code == 4401


@pytest.mark.django_db(transaction=True)
async def test_it_pushes_the_bell_when_the_member_is_notified(alice, bob):
    client = Client()
    await sync_to_async(client.force_login)(alice)
    alice_socket = _socket(client.session.session_key)
    bob_client = Client()
    await sync_to_async(bob_client.force_login)(bob)
    bob_socket = _socket(bob_client.session.session_key)
    assert (await alice_socket.connect())[0] is True
    assert (await bob_socket.connect())[0] is True
    layer = get_channel_layer()
    bob_listener = await layer.new_channel()
    await layer.group_add(broadcast.user_group(bob.pk), bob_listener)

    await Notification.objects.acreate(player=alice.player, kind="turn", text="Your turn")
    await Notification.objects.acreate(player=alice.player, kind="turn", text="Again")
    await sync_to_async(broadcast.user_notified_on_commit)(alice.pk)
    message = await alice_socket.receive_from()

    assert 'id="notification-bell"' in message
    assert 'hx-swap-oob="true"' in message
    assert "2 unread notifications" in message
    # Screen readers hear it too: the text goes into the page's polite live region.
    assert 'hx-swap-oob="innerHTML:#live-region"' in message
    assert "You have 2 unread notifications." in message
    # bob's pages heard nothing: a marker sent to his group after alice's push arrives
    # first at a listener in it (the layer keeps order), so nothing came before. (A bell
    # push of its own, so bob's socket handles it too.)
    marker = {"type": "user.notified", "marker": "after alice's push"}
    await layer.group_send(broadcast.user_group(bob.pk), marker)
    assert await layer_receive_until_marker(layer, bob_listener, marker) == []
    await alice_socket.disconnect()
    await bob_socket.disconnect()
    # The ORM ran in asgiref's worker thread: close its connection so the test database can go.
    await sync_to_async(connections.close_all)()
