"""WebSocket consumers. Anonymous sockets are refused; each socket renders for its own user."""

from __future__ import annotations

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string

from .broadcast import user_group


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
