"""The game socket: each member receives the table as their own seat sees it, live."""

from __future__ import annotations

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async
from django.db import connections
from django.test import Client
from playkit import colt_game, first_legal, napad_game, user_to_move

from games.engines import get_engine
from games.realtime import consumers
from games.realtime.consumers import SharedRenders
from games.services.play import chat_message_post, move_submit
from games.table.rendering import render_game_live
from napad_site.asgi import application
from tests.personakit import member
from tests.socketkit import Socket, session_of, socket_headers

# A bound for a busy machine (the first render compiles the templates), never a wait for
# something that must not arrive: WebsocketCommunicator's default of 1 s is too short.
WAIT = 30
pytestmark = pytest.mark.django_db(transaction=True)


async def _socket(game_id: int, user=None) -> Socket:
    session = None
    if user is not None:
        client = Client()
        await sync_to_async(client.force_login)(user)
        session = session_of(client)
    return Socket(application, f"/ws/games/{game_id}/", headers=socket_headers(session))


async def _close(*sockets: Socket) -> None:
    for socket in sockets:
        await socket.disconnect()
    # The ORM ran in asgiref's worker thread: close its connection so the test database can go.
    await sync_to_async(connections.close_all)()


async def _seats(game) -> list:
    return await sync_to_async(lambda: list(game.seats.select_related("player")))()


def _own_hand(game, position: int) -> str:
    """The first card of the seat's hand as its board shows it (an id no one else sees)."""
    game.refresh_from_db()
    engine = get_engine(game.kind)
    hand = engine.view(engine.from_json(game.state), position)["hand"]
    return f'data-flip="card-{position}-{hand[0]["id"]}"'


async def test_it_refuses_an_anonymous_socket(alice, bob):
    game = await sync_to_async(napad_game)(alice, bob)
    socket = await _socket(game.pk)
    connected, code = await socket.connect(timeout=WAIT)
    assert connected is False and code == 4401
    await _close()


async def test_it_refuses_a_stranger_at_an_invite_only_table(alice, bob, charlie):
    game = await sync_to_async(napad_game)(alice, bob, invite_only=True, invitees=[bob.player])
    socket = await _socket(game.pk, charlie)
    connected, code = await socket.connect(timeout=WAIT)
    assert connected is False and code == 4403
    await _close()


async def test_a_move_reaches_the_other_player_with_their_own_view(alice, bob, charlie):
    game = await sync_to_async(napad_game)(alice, bob)
    mover = await sync_to_async(user_to_move)(game, [alice, bob])
    waiter = bob if mover == alice else alice
    waiter_socket = await _socket(game.pk, waiter)
    spectator_socket = await _socket(game.pk, charlie)
    assert (await waiter_socket.connect(timeout=WAIT))[0] is True
    assert (await spectator_socket.connect(timeout=WAIT))[0] is True
    # On connect each page gets the table as it is now (a reconnecting page catches up).
    first = await waiter_socket.receive_from()
    assert 'id="game-live"' in first and 'hx-swap-oob="true"' in first
    assert 'data-version="0"' in first and "Your hand" in first
    assert "Your hand" not in await spectator_socket.receive_from()

    action = await sync_to_async(first_legal)(game)
    result = await sync_to_async(move_submit)(
        game_id=game.pk, user=mover, action=json.dumps(action), expected_version=0
    )
    assert result.ok

    pushed = await waiter_socket.receive_from()
    assert 'data-version="1"' in pushed
    assert "Your hand" in pushed and 'name="action"' in pushed  # the waiter's turn now
    assert 'id="chat-log"' in pushed
    # Screen readers hear what happened: the move's log line goes to base.html's live region.
    assert '<div id="live-region" hx-swap-oob="innerHTML">' in pushed
    announced = pushed.split('id="live-region"')[1].split("</div>")[0]
    assert " sends " in announced  # the first legal action is a play
    watched = await spectator_socket.receive_from()
    assert 'data-version="1"' in watched
    assert "Your hand" not in watched and 'name="action"' not in watched
    for html in (first, pushed, watched):
        assert game.seed not in html
    await _close(waiter_socket, spectator_socket)


async def test_each_socket_speaks_its_members_language(alice, bob, charlie):
    from games.models import Player

    await sync_to_async(Player.objects.filter(user=bob).update)(language="pl")
    game = await sync_to_async(napad_game)(alice, bob)
    bob_socket = await _socket(game.pk, bob)
    alice_socket = await _socket(game.pk, alice)
    assert (await bob_socket.connect())[0] is True
    assert (await alice_socket.connect())[0] is True
    on_connect = await bob_socket.receive_from()
    assert "Twoja ręka" in on_connect and "Your hand" not in on_connect
    assert "Your hand" in await alice_socket.receive_from()

    mover = await sync_to_async(user_to_move)(game, [alice, bob])
    action = await sync_to_async(first_legal)(game)
    result = await sync_to_async(move_submit)(
        game_id=game.pk, user=mover, action=json.dumps(action), expected_version=0
    )
    assert result.ok
    pushed_to_bob = await bob_socket.receive_from()
    pushed_to_alice = await alice_socket.receive_from()
    assert "Twoja ręka" in pushed_to_bob and "Your hand" not in pushed_to_bob
    assert "Your hand" in pushed_to_alice and "Twoja ręka" not in pushed_to_alice
    await _close(bob_socket, alice_socket)


# --- One update, many sockets: shared reads and renders (games/realtime/consumers.py) ------------


async def _connected(game_id: int, user) -> Socket:
    socket = await _socket(game_id, user)
    assert (await socket.connect())[0] is True
    await socket.receive_from()  # the table as it is on connect
    return socket


async def test_one_move_is_rendered_once_for_all_spectators_and_once_per_player(
    alice, bob, charlie, monkeypatch
):
    dave = await sync_to_async(member)("dave")
    game = await sync_to_async(napad_game)(alice, bob)
    players = [await _connected(game.pk, alice), await _connected(game.pk, bob)]
    spectators = [await _connected(game.pk, charlie), await _connected(game.pk, dave)]
    rendered_for: list[tuple[int | None, object]] = []

    def counted(game, **kwargs):
        rendered_for.append((kwargs["position"], kwargs.get("user")))
        return render_game_live(game, **kwargs)

    monkeypatch.setattr(consumers, "render_game_live", counted)
    mover = await sync_to_async(user_to_move)(game, [alice, bob])
    action = await sync_to_async(first_legal)(game)
    result = await sync_to_async(move_submit)(
        game_id=game.pk, user=mover, action=json.dumps(action), expected_version=0
    )
    assert result.ok

    alice_html, bob_html = [await socket.receive_from() for socket in players]
    watched = [await socket.receive_from() for socket in spectators]
    # One render for both spectators, made with no user; one for each seated member.
    assert sorted(rendered_for, key=lambda call: (call[0] is None, call[0] or 0)) == [
        (0, alice),
        (1, bob),
        (None, None),
    ]
    seats = {seat.player.user_id: seat.position for seat in await _seats(game)}
    for user, html in ((alice, alice_html), (bob, bob_html)):
        assert 'data-version="1"' in html and "Your hand" in html
        assert await sync_to_async(_own_hand)(game, seats[user.pk]) in html
    assert alice_html != bob_html
    assert watched[0] == watched[1]
    assert 'data-version="1"' in watched[0] and "Your hand" not in watched[0]
    assert 'name="action"' not in watched[0]
    for html in (alice_html, bob_html, *watched):
        assert game.seed not in html and "csrfmiddlewaretoken" not in html
    await _close(*players, *spectators)


async def test_a_change_without_a_new_version_is_read_afresh(alice, bob, charlie):
    # Chat (like seats, clock notices, leave) changes what a page shows without a new version:
    # a shared read belongs to one send, never to a version.
    game = await sync_to_async(napad_game)(alice, bob)
    spectator = await _connected(game.pk, charlie)
    await sync_to_async(chat_message_post)(game_id=game.pk, user=alice, text="first words")
    assert "first words" in await spectator.receive_from()
    await sync_to_async(chat_message_post)(game_id=game.pk, user=bob, text="second words")
    pushed = await spectator.receive_from()
    assert 'data-version="0"' in pushed and "second words" in pushed
    await _close(spectator)


async def test_shared_renders_start_one_task_per_key_and_forget_failures():
    shared = SharedRenders(size=2)
    calls: list[str] = []

    async def produce(value: str) -> str:
        calls.append(value)
        await asyncio.sleep(0)
        if value == "boom":
            raise RuntimeError(value)
        return value.upper()

    results = await asyncio.gather(*(shared.get("k", lambda: produce("a")) for _ in range(5)))
    assert results == ["A"] * 5 and calls == ["a"]
    for _attempt in range(2):
        with pytest.raises(RuntimeError):
            await shared.get("bad", lambda: produce("boom"))
    assert calls == ["a", "boom", "boom"]  # a failure is not kept
    await shared.get("b", lambda: produce("b"))
    await shared.get("c", lambda: produce("c"))
    assert await shared.get("k", lambda: produce("again")) == "AGAIN"  # evicted: size 2


async def test_a_sends_renders_need_no_database_and_the_spectators_come_first(
    alice, bob, charlie, monkeypatch
):
    # Colt Express: a seated member's fragment also shows their standing orders, the one read
    # a spectator's does not need. The send's one read brings everything
    # (games/realtime/consumers.py), so no render opens a connection of its own; and the
    # spectators' fragment, shared by most sockets, is rendered before the seated members'
    # although they connected first.
    game = await sync_to_async(colt_game)(alice, bob)
    players = [await _connected(game.pk, alice), await _connected(game.pk, bob)]
    spectator = await _connected(game.pk, charlie)
    rendered: list[tuple[int | None, bool]] = []

    def watched(game, **kwargs):
        html = render_game_live(game, **kwargs)
        rendered.append((kwargs["position"], connections["default"].connection is None))
        return html

    monkeypatch.setattr(consumers, "render_game_live", watched)
    mover = await sync_to_async(user_to_move)(game, [alice, bob])
    action = await sync_to_async(first_legal)(game)
    result = await sync_to_async(move_submit)(
        game_id=game.pk, user=mover, action=json.dumps(action), expected_version=0
    )
    assert result.ok
    for socket in (*players, spectator):
        assert 'data-version="1"' in await socket.receive_from(timeout=WAIT)
    assert [position for position, _ in rendered][0] is None
    assert sorted(position for position, _ in rendered if position is not None) == [0, 1]
    assert all(no_connection for _, no_connection in rendered), rendered
    await _close(*players, spectator)
