"""WebSocket URLs. Each consumer renders what it sends for its own user only."""

from django.urls import path, re_path

from games.realtime import consumers

websocket_urlpatterns = [
    path("ws/notifications/", consumers.NotificationConsumer.as_asgi()),
    path("ws/games/<id:game_id>/", consumers.GameConsumer.as_asgi()),
    # Last: every other path (an id no column can hold included) is refused at the handshake.
    re_path(r"", consumers.RefusedConsumer.as_asgi()),
]
