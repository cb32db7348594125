"""WebSocket consumers. Anonymous sockets are refused; each socket gets its own user's view.

Sharing the work of one update (``GameConsumer``): when a move reaches many open pages of one
game, the sockets served by this process share one database read of the game, and sockets whose
viewers see the same fragment share one render (``SharedRenders``). That is safe because:

- A render is keyed by everything that changes its HTML: the game, the broadcast it answers
  (each send has an id of its own, games/broadcast.py — the game row, its seats, chat, clock
  notices can change without a new version, so the version alone would not do), the viewer, the
  active language and time zone.
- The viewer part of the key is the seat *and* the member for seated players (their hand, their
  buttons, "your turn", their standing orders): seated members never share a render. Every
  spectator of the table sees the same public view, rendered with no user at all, so a shared
  spectator fragment cannot hold anyone's name, seat or secrets.
- Pushed fragments are rendered without a request, so ``{% csrf_token %}`` renders nothing in
  them; pages post with the token from ``hx-headers`` on ``<body>`` (style.md).
- Each socket still checks its own user's access (``table_access``) before anything is sent,
  and the share lives only in this process's memory, a few dozen entries long.

Where the work runs: asgiref's one database thread reads the game for a send once, with
everything its fragments show (the log's lines, chat, the clock panel's leave, notices and
"+24 h", the round's standing orders: ``_read_for_send``), so the renders need no database.
They run on a render thread of their own, off the database thread that also serves this
daphne's pages and moves; the chat and the spectators' fragment (shared by most sockets) are
queued before the seated members' own, and each socket sends as soon as its own fragment is
ready — nobody waits for renders they do not need. Access is worked out on the event loop
(``table_access_known``) unless it takes a query.
"""

from __future__ import annotations

import asyncio
import contextlib
import zoneinfo
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.db import connections
from django.template.loader import render_to_string
from django.utils import timezone, translation

from games.broadcast import game_group, user_group
from games.models import Player
from games.selectors.tables import (
    game_chat,
    game_recent_events,
    game_seats,
    game_with_seats,
    table_access,
    table_access_known,
    unread_notifications_count,
)
from games.services.clock_panel import PANEL_NOTICES
from games.services.clocks import extensions_given, players_on_leave
from games.services.notifications import table_notices
from games.services.presence import PRESENCE_REFRESH_SECONDS, presence_touch
from games.services.standing_orders import standing_orders_preload
from games.services.visits import visit_seen
from games.table.rendering import LOG_LINES, render_chat, render_game_live

# Entries kept: an update of one game takes a handful (the read, the chat, the spectators'
# view, one per seated member), and an entry is only needed while its update fans out.
SHARED_RENDERS_SIZE = 128


class SharedRenders:
    """A small least-recently-used map from a key to the task producing its value: the first
    socket asking for a key starts the work (off the event loop, through ``produce``), every
    other socket asking meanwhile or afterwards awaits the same task."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._tasks: OrderedDict[Hashable, asyncio.Future] = OrderedDict()

    async def get(self, key: Hashable, produce: Callable[[], Awaitable[Any]]) -> Any:
        loop = asyncio.get_running_loop()
        task = self._tasks.get(key)
        # A task left unfinished by another event loop (a closed test loop) never finishes.
        if task is None or (not task.done() and task.get_loop() is not loop):
            task = loop.create_task(produce())
            task.add_done_callback(partial(self._forget_failed, key))
            self._tasks[key] = task
            while len(self._tasks) > self.size:
                self._tasks.popitem(last=False)
        else:
            self._tasks.move_to_end(key)
            if task.done() and not task.cancelled() and task.exception() is None:
                return task.result()  # ready: no future for each of a thousand sockets
        # Shielded: a socket closing while it waits must not cancel the others' render.
        return await asyncio.shield(task)

    def _forget_failed(self, key: Hashable, task: asyncio.Future) -> None:
        # A failed read or render is not kept: the next update (or socket) tries again.
        if (task.cancelled() or task.exception() is not None) and self._tasks.get(key) is task:
            del self._tasks[key]

    def clear(self) -> None:
        self._tasks.clear()


shared_renders = SharedRenders(SHARED_RENDERS_SIZE)

# One thread and no more: renders are pure Python, which the GIL runs one at a time anyway, and
# first come, first served keeps the order the module docstring promises.
_render_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="napad-render")


def _read_for_send(game_id: int):
    """The game for one send's fragments, with everything they read (module docstring).
    Runs on the database thread."""
    game = game_with_seats(game_id)
    if game is not None:
        seats = game_seats(game)
        game_recent_events(game, limit=LOG_LINES)
        game_chat(game)
        players_on_leave(game, seats=seats)
        table_notices(game, limit=PANEL_NOTICES)
        extensions_given(game)
        standing_orders_preload(game)
    return game


def _rendered(render: Callable[..., str], *args, **kwargs) -> str:
    try:
        return render(*args, **kwargs)
    finally:
        # Should a read have been missed above, it opened this thread's own connection: close
        # it, so the render thread never holds one between updates.
        connections.close_all()


def _off_thread(render: Callable[..., str], *args, later: bool = False, **kwargs):
    """``produce`` for ``SharedRenders``: the render on the render thread (``later``: queued
    one turn of the event loop after the renders asked for in the same turn)."""
    run = sync_to_async(
        partial(_rendered, render, *args, **kwargs),
        thread_sensitive=False,
        executor=_render_thread,
    )

    async def produce() -> str:
        if later:
            await asyncio.sleep(0)
        return await run()

    return produce


def _player_locale(user) -> tuple[int | None, tuple[str, str]]:
    """The member's profile id, and their own language and time zone, for everything pushed
    to them: no LocaleMiddleware runs for a socket's messages."""
    player = Player.objects.filter(user=user).only("pk", "language", "time_zone").first()
    if player is None:
        return None, (translation.get_language() or "en", "UTC")
    return player.pk, (player.language or "en", player.time_zone or "UTC")


@database_sync_to_async
def _member_locale(user) -> tuple[str, str]:
    return _player_locale(user)[1]


@contextlib.contextmanager
def _shown_in(locale: tuple[str, str]):
    """Render in ``locale``. Each consumer runs in its own task, so this touches only its own
    context, which asgiref carries into the worker thread that renders."""
    language, time_zone = locale
    try:
        tz = zoneinfo.ZoneInfo(time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        tz = zoneinfo.ZoneInfo("UTC")
    with translation.override(language), timezone.override(tz):
        yield


class NotificationConsumer(AsyncWebsocketConsumer):
    """The member's personal channel: pushes the bell (unread count) when news arrives."""

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=4401)
            return
        self.locale = await _member_locale(user)
        self.group = user_group(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def user_notified(self, event: dict) -> None:
        with _shown_in(self.locale):
            html = await self._render_bell()
        await self.send(text_data=html)

    @database_sync_to_async
    def _render_bell(self) -> str:
        user = self.scope["user"]
        player = getattr(user, "player", None)
        unread = unread_notifications_count(player) if player else 0
        return render_to_string("partials/bell.html", {"unread_notifications": unread, "oob": True})


class RefusedConsumer(AsyncWebsocketConsumer):
    """Any socket path no route takes — a game id no column can hold (the ``<id:…>``
    converter, games/web/converters.py), a mistyped URL: the handshake is refused the way an
    unknown game's is (4403), instead of the router raising."""

    async def connect(self) -> None:
        await self.close(code=4403)


class GameConsumer(AsyncWebsocketConsumer):
    """One open game page. On every ``game.updated`` it pushes the live fragment for its own
    user's seat (a spectator gets the public view), shared with this process's other sockets
    where the module docstring allows; on connect it sends the current one, so a page that
    reconnects catches up."""

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=4401)
            return
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        if not await self._may_view():
            await self.close(code=4403)
            return
        self.player_id, self.locale = await database_sync_to_async(_player_locale)(user)
        # The versions this page was shown (pushes), and the last one recorded as seen
        # (games/services/visits.py): written when the socket closes and with the presence
        # refresh, never once per push.
        self.shown_version: int | None = None
        self.recorded_version: int | None = None
        self.group = game_group(self.game_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await sync_to_async(presence_touch)(self.game_id, user.pk)
        self._presence = asyncio.ensure_future(self._presence_keepalive(user.pk))
        with _shown_in(self.locale):
            html = await self._render()
        await self.send(text_data=html)

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "_presence"):
            self._presence.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._presence
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
        if hasattr(self, "shown_version"):
            await self._record_seen()

    async def _record_seen(self) -> None:
        """The member saw the table up to the last version pushed here, while present."""
        shown = self.shown_version
        if self.player_id is None or shown is None or shown == self.recorded_version:
            return
        await database_sync_to_async(visit_seen)(self.game_id, self.player_id, shown)
        self.recorded_version = shown

    async def _presence_keepalive(self, user_id: int) -> None:
        # While this page is open the member gets no turn reminders for this game
        # (games/services/presence.py): refresh the presence key before its TTL runs out,
        # and record what the page has been shown so far.
        while True:
            await asyncio.sleep(PRESENCE_REFRESH_SECONDS)
            await sync_to_async(presence_touch)(self.game_id, user_id)
            await self._record_seen()

    async def receive(self, text_data=None, bytes_data=None) -> None:
        # Moves go through HTTP (CSRF, one code path); the socket only listens.
        return

    async def game_updated(self, event: dict) -> None:
        sent = event.get("sent")
        with _shown_in(self.locale):
            # A message without a send id (from an older process) gets this socket's own render.
            html = await self._render() if sent is None else await self._render_shared(sent)
        if html:
            await self.send(text_data=html)

    @database_sync_to_async
    def _may_view(self) -> bool:
        game = game_with_seats(self.game_id)
        return game is not None and table_access(game, self.scope["user"]).may_view

    @database_sync_to_async
    def _render(self) -> str:
        game = game_with_seats(self.game_id)
        if game is None:
            return ""
        user = self.scope["user"]
        access = table_access(game, user)
        if not access.may_view:
            return ""
        after, self.shown_version = self.shown_version, game.version
        live = render_game_live(
            game, position=access.position, user=user, oob=True, announce_after=after
        )
        return live + render_chat(game, oob=True)

    async def _render_shared(self, sent: str) -> str:
        """The fragment for this socket's user after the send ``sent``: one read of the game
        per send, one render per distinct viewer (module docstring)."""
        game = await shared_renders.get(
            ("game", self.game_id, sent),
            database_sync_to_async(partial(_read_for_send, self.game_id)),
        )
        if game is None:
            return ""
        user = self.scope["user"]
        # Worked out here, on the event loop, when it needs no query (seats come with the game,
        # the member's profile was loaded on connect): no trip to the one database thread per
        # socket, queued behind the renders. Only an invite-only table's spectator asks.
        access = table_access_known(game, user) or await database_sync_to_async(table_access)(
            game, user
        )
        if not access.may_view:
            return ""
        # The language and time zone active here are the ones the render runs under (asgiref
        # carries them to the worker thread).
        shown_in = (translation.get_language(), timezone.get_current_timezone_name())
        # The live region says what changed since what this page was last shown.
        after = self.shown_version
        self.shown_version = max(game.version, after or 0)
        if access.position is not None:
            viewer: tuple = ("seat", access.position, user.pk)
            fragment_user = user
        else:
            # No user at all: the spectators' shared fragment cannot show anyone's own bits.
            viewer, fragment_user = ("spectator",), None
        live = shared_renders.get(
            ("live", self.game_id, sent, viewer, after, *shown_in),
            _off_thread(
                render_game_live,
                game,
                position=access.position,
                user=fragment_user,
                oob=True,
                announce_after=after,
                later=fragment_user is not None,
            ),
        )
        # The chat first (every socket needs it, and it is quick), then this viewer's board:
        # one after the other, so no socket adds tasks of its own to the event loop.
        chat_html = await shared_renders.get(
            ("chat", self.game_id, sent, *shown_in), _off_thread(render_chat, game, oob=True)
        )
        return await live + chat_html
