"""Who has a game page open right now, so reminders are not sent to someone looking at it.

Kept in the cache (Redis when scaled, a shared file cache embedded) with a short TTL: the
game's WebSocket consumer calls :func:`presence_touch` when it connects and every
``PRESENCE_REFRESH_SECONDS`` while it stays open. A page that closes simply stops refreshing
and the member counts as away once the TTL runs out; nothing has to be cleaned up, and two
tabs of the same game never cancel each other out.
"""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache

PRESENCE_TTL_SECONDS = getattr(settings, "NAPAD_PRESENCE_TTL", 90)
PRESENCE_REFRESH_SECONDS = 30


def _key(game_id: int, user_id: int) -> str:
    return f"presence:game:{game_id}:user:{user_id}"


def presence_touch(game_id: int, user_id: int) -> None:
    cache.set(_key(game_id, user_id), 1, timeout=PRESENCE_TTL_SECONDS)


def presence_leave(game_id: int, user_id: int) -> None:
    """Forget a member's presence at once (tests, log-out); pages just stop refreshing."""
    cache.delete(_key(game_id, user_id))


def is_present(game_id: int, user_id: int) -> bool:
    return bool(cache.get(_key(game_id, user_id)))
