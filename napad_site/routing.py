"""WebSocket URLs. Each consumer renders what it sends for its own user only."""

from django.urls import path

from games import consumers

websocket_urlpatterns = [
    path("ws/notifications/", consumers.NotificationConsumer.as_asgi()),
    path("ws/games/<int:game_id>/", consumers.GameConsumer.as_asgi()),
]
