"""WebSocket consumers. Anonymous sockets are refused; each socket renders for its own user."""

from __future__ import annotations

import asyncio
import contextlib

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string

from .broadcast import game_group, user_group
from .rendering import render_chat, render_game_live
from .selectors import game_with_seats, table_access
from .services.presence import PRESENCE_REFRESH_SECONDS, presence_touch


class NotificationConsumer(AsyncWebsocketConsumer):
    """The member's personal channel: pushes the bell (unread count) when news arrives."""

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=4401)
            return
        self.group = user_group(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def user_notified(self, event: dict) -> None:
        await self.send(text_data=await self._render_bell())

    @database_sync_to_async
    def _render_bell(self) -> str:
        user = self.scope["user"]
        player = getattr(user, "player", None)
        unread = player.notifications.filter(read_at__isnull=True).count() if player else 0
        return render_to_string("partials/bell.html", {"unread_notifications": unread, "oob": True})


class GameConsumer(AsyncWebsocketConsumer):
    """One open game page. On every ``game.updated`` it renders the live fragment for its own
    user's seat (a spectator gets the public view) and pushes it; on connect it sends the
    current one, so a page that reconnects catches up."""

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=4401)
            return
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        if not await self._may_view():
            await self.close(code=4403)
            return
        self.group = game_group(self.game_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await sync_to_async(presence_touch)(self.game_id, user.pk)
        self._presence = asyncio.ensure_future(self._presence_keepalive(user.pk))
        await self.send(text_data=await self._render())

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "_presence"):
            self._presence.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._presence
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def _presence_keepalive(self, user_id: int) -> None:
        # While this page is open the member gets no turn reminders for this game
        # (games/services/presence.py): refresh the presence key before its TTL runs out.
        while True:
            await asyncio.sleep(PRESENCE_REFRESH_SECONDS)
            await sync_to_async(presence_touch)(self.game_id, user_id)

    async def receive(self, text_data=None, bytes_data=None) -> None:
        # Moves go through HTTP (CSRF, one code path); the socket only listens.
        return

    async def game_updated(self, event: dict) -> None:
        html = await self._render()
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
        return render_game_live(game, position=access.position, user=user, oob=True) + render_chat(
            game, oob=True
        )
