"""Text that members (or a misbehaving engine) put on the site is rendered inert wherever it
shows: a display name with markup, chat with a script tag — in the page, the HTMX fragment
and the live WebSocket push — an engine event whose text and arguments carry HTML, and a
table notice and notification naming that member. Rules texts (Markdown with
``javascript:`` links, raw HTML) are tested in tests/site/test_rules_pages.py.

A page is audited as a browser would parse it: no attribute that runs script (``on*``), no
``javascript:`` URL, no script, image or frame the payload brought in, and every payload
shown as text, escaped.
"""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer
from django.db import connections
from django.test import Client
from django.utils.html import escape
from markupsafe import escape as jinja_escape

from games.models import GameEvent, Seat
from games.services.clocks.timeouts import seat_hand_to_bot
from games.services.play import chat_message_post
from napad_site.asgi import application
from tests.gamekit import started_game
from tests.socketkit import Socket, session_of, socket_headers

NAME = '<img src=x onerror="alert(1)">Bob'
CHAT = '<script>alert(2)</script><a href="javascript:alert(3)">hi</a>'
EVENT_TEXT = '<b onmouseover="alert(4)">boom</b> by %(name)s'
EVENT_ARG = "<svg onload=alert(5)>"


def _shown(text: str, html: str) -> bool:
    """Whether ``text`` is in ``html`` as text, escaped by Django's templates (``&quot;``) or
    by the table's Jinja2 ones (``&#34;``)."""
    return escape(text) in html or str(jinja_escape(text)) in html


class _MarkupAudit(HTMLParser):
    """Every tag or attribute that could run script and was not put there by the site."""

    def __init__(self):
        super().__init__()
        self.found: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        self._in_script = tag == "script"
        if tag == "script" and not attributes.get("src"):
            self.found.append("inline script")
        if tag in {"iframe", "svg", "img", "object", "embed"} and "alert" in str(attrs):
            self.found.append(tag)
        for name, value in attrs:
            if name.startswith("on") and "alert" in (value or ""):
                self.found.append(f"{tag}[{name}]")
            if name in {"href", "src"} and (value or "").strip().lower().startswith("javascript"):
                self.found.append(f"{tag}[{name}={value}]")

    def handle_data(self, data):
        if self._in_script and "alert" in data:
            self.found.append("script running a payload")

    def handle_endtag(self, tag):
        self._in_script = False


def _dangerous(html: str) -> list[str]:
    audit = _MarkupAudit()
    audit.feed(html)
    return audit.found


@pytest.fixture
def table(alice, bob):
    """A running table of alice and bob, bob named with markup, markup in chat and log."""
    bob.player.display_name = NAME
    bob.player.save()
    game = started_game(alice, bob)
    chat_message_post(game_id=game.pk, user=bob, text=CHAT)
    GameEvent.objects.create(
        game=game,
        seq=1,
        seat=0,
        action={},
        public_events=[{"text": EVENT_TEXT, "args": {"name": EVENT_ARG}}],
        private_events=[],
    )
    # The clock hands bob's seat to a bot: a table notice and a notification name him.
    seat_hand_to_bot(game=game, seat=Seat.objects.get(game=game, player=bob.player))
    return game


@pytest.mark.django_db
def test_names_chat_event_texts_and_notices_are_inert_in_every_page(table, alice, bob):
    client = Client()
    client.force_login(alice)
    event_line = EVENT_TEXT % {"name": EVENT_ARG}
    pages = {
        "game page": client.get(f"/games/{table.pk}/"),
        "fragment": client.get(f"/games/{table.pk}/", headers={"HX-Request": "true"}),
        "log": client.get(f"/games/{table.pk}/log"),
        # (The event above is no real move, so the replay stops before it.)
        "replay": client.get(f"/games/{table.pk}/replay?step=0"),
        "lobby": client.get("/games/"),
        "members": client.get("/members/"),
        "member": client.get(f"/members/{bob.username}/"),
    }
    for where, response in pages.items():
        assert response.status_code == 200, where
        html = response.content.decode()
        assert _dangerous(html) == [], where
        assert NAME not in html and CHAT not in html, where
    for where in ("game page", "fragment", "members", "member"):
        assert _shown(NAME, pages[where].content.decode()), where
    for where in ("game page", "log"):
        html = pages[where].content.decode()
        assert _shown(event_line, html), where
        assert _shown(CHAT, html) or where == "log"

    bob_client = Client()
    bob_client.force_login(bob)
    notifications = bob_client.get("/notifications/").content.decode()
    assert _dangerous(notifications) == []
    assert NAME not in notifications and escape(NAME) in notifications


@pytest.mark.django_db
def test_chat_posted_with_htmx_comes_back_escaped(table, alice):
    client = Client()
    client.force_login(alice)
    response = client.post(
        f"/games/{table.pk}/chat", {"text": CHAT + " again"}, headers={"HX-Request": "true"}
    )
    html = response.content.decode()
    assert _dangerous(html) == []
    assert _shown(CHAT + " again", html)


@pytest.mark.django_db(transaction=True)
def test_the_live_push_of_chat_and_names_is_inert(table, alice):
    client = Client()
    client.force_login(alice)
    headers = socket_headers(session_of(client))

    async def pushed() -> list[str]:
        socket = Socket(application, f"/ws/games/{table.pk}/", headers)
        assert (await socket.connect())[0]
        first = await socket.receive_from()
        await sync_to_async(chat_message_post)(game_id=table.pk, user=alice, text=CHAT + "!")
        second = await socket.receive_from()
        await socket.disconnect()
        await sync_to_async(connections.close_all)()
        return [first, second]

    assert get_channel_layer() is not None
    first, second = async_to_sync(pushed)()
    for html in (first, second):
        assert _dangerous(html) == []
        assert NAME not in html and CHAT not in html
    assert _shown(CHAT + "!", second)


def test_the_audit_flags_each_payload_when_it_is_not_escaped():
    # Otherwise a clean audit above could mean an audit that sees nothing.
    assert _dangerous(NAME) == ["img", "img[onerror]"]
    assert _dangerous(CHAT) == [
        "inline script",
        "script running a payload",
        "a[href=javascript:alert(3)]",
    ]
    assert _dangerous(EVENT_TEXT % {"name": EVENT_ARG}) == ["b[onmouseover]", "svg", "svg[onload]"]
    assert _dangerous(escape(NAME + CHAT + EVENT_ARG)) == []
