"""Template context shared by every page: the member's profile and unread notifications."""

from __future__ import annotations

from django.http import HttpRequest

from games.selectors.tables import unread_notifications_count


def site(request: HttpRequest) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    player = getattr(user, "player", None)
    return {
        "me": player,
        # Lazy: evaluated only if the template shows the bell.
        "unread_notifications": ((lambda: unread_notifications_count(player)) if player else 0),
    }
