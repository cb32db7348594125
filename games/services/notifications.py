"""Site notifications (the bell) and public table notices.

A notification is written in its member's language and sent once per cause: its ``key``
hits ``Notification``'s unique constraint on a second attempt instead of spamming. The bell
on every open page of the member updates live after the transaction commits.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.urls import NoReverseMatch, reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games.broadcast import game_updated_on_commit, user_notified_on_commit
from games.models import Game, Notification, Player, TableNotice
from games.selectors import read_once


def game_url(game_id: int) -> str:
    try:
        return reverse("game_detail", args=[game_id])
    except NoReverseMatch:
        return f"/games/{game_id}/"


def text_render(text: str, args: dict[str, Any] | None = None) -> str:
    """A marked English text in the active language, filled with its arguments."""
    try:
        return _(text) % (args or {})
    except (KeyError, TypeError, ValueError):
        return text


def notification_send(
    *,
    player: Player,
    kind: str,
    text: str,
    args: dict[str, Any] | None = None,
    game: Game | None = None,
    url: str | None = None,
    key: str = "",
) -> Notification | None:
    """Put a notification on the member's bell (``None`` if ``key`` was already used)."""
    with translation.override(player.language or "en"):
        rendered = text_render(text, args)[:300]
    if url is None:
        url = game_url(game.pk) if game is not None else ""
    try:
        with transaction.atomic():
            notification = Notification.objects.create(
                player=player, game=game, kind=kind, text=rendered, url=url, key=key[:120]
            )
    except IntegrityError:
        return None
    user_notified_on_commit(player.user_id)
    return notification


def notifications_mark_read(*, player: Player, ids: list[int] | None = None) -> int:
    """Mark the member's notifications read (all of them, or those in ``ids``)."""
    unread = Notification.objects.filter(player=player, read_at__isnull=True)
    if ids is not None:
        unread = unread.filter(pk__in=ids)
    count = unread.update(read_at=timezone.now())
    if count:
        user_notified_on_commit(player.user_id)
    return count


def table_notice_post(
    *, game: Game, kind: str, text: str, args: dict[str, Any] | None = None
) -> TableNotice:
    """Tell the whole table something (shown in the game's log); open pages refresh."""
    notice = TableNotice.objects.create(game=game, kind=kind, text=text, args=args or {})
    game_updated_on_commit(game.pk, game.version)
    return notice


def table_notices(game: Game, *, limit: int = 20) -> list[dict[str, Any]]:
    """The latest notices of a table, oldest first, in the viewer's language."""
    # Read once per copy of the game (every viewer of one broadcast), worded per reader.
    notices = read_once(
        game,
        ("table_notices", limit),
        lambda: list(TableNotice.objects.filter(game=game).order_by("-created_at", "-pk")[:limit]),
    )
    return [
        {"kind": n.kind, "when": n.created_at, "text": text_render(n.text, n.args)}
        for n in reversed(notices)
    ]
