"""Site notifications (the bell) and public table notices.

A notification keeps its message (English text marked for translation, its arguments, a
plural), so it reads in the member's language *when read*: :func:`notification_text` says it
in any language (the bell, the list, a Web Push). It is sent once per cause: its ``key`` hits
``Notification``'s unique constraint on a second attempt instead of spamming. The bell on every
open page of the member updates live after the transaction commits.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.urls import NoReverseMatch, reverse
from django.utils import timezone, translation

from games.broadcast import game_updated_on_commit, user_notified_on_commit
from games.models import Game, Notification, Player, TableNotice
from games.selectors.tables import clock_known_empty, read_once
from games.services.push.outbox import notification_push_owe
from games.text.wording import phrase_format, text_render


def game_url(game_id: int) -> str:
    try:
        return reverse("game_detail", args=[game_id])
    except NoReverseMatch:
        return f"/games/{game_id}/"


def notification_message(
    text: str, args: dict[str, Any] | None = None, *, plural: str | None = None
) -> dict[str, Any]:
    """What a notification keeps to be said in any language later."""
    message: dict[str, Any] = {"text": text, "args": dict(args or {})}
    if plural:
        message["plural"] = plural
    return message


def notification_text(notification: Notification, language: str | None = None) -> str:
    """A notification in ``language`` (the active one if ``None``): for the bell, the
    notifications page, an email or a Web Push."""
    if language is None:
        return notification.display_text
    with translation.override(language):
        return notification.display_text


def notification_send(
    *,
    player: Player,
    kind: str,
    text: str,
    args: dict[str, Any] | None = None,
    plural: str | None = None,
    game: Game | None = None,
    url: str | None = None,
    key: str = "",
) -> Notification | None:
    """Put a notification on the member's bell (``None`` if ``key`` was already used).

    ``text`` is English marked with ``gettext_noop`` (``plural`` its plural, chosen by
    ``args["count"]``); it is said in whatever language the member reads it in."""
    message = notification_message(text, args, plural=plural)
    with translation.override(player.language or "en"):
        rendered = phrase_format(message)[:300]
    if url is None:
        url = game_url(game.pk) if game is not None else ""
    try:
        with transaction.atomic():
            notification = Notification.objects.create(
                player=player,
                game=game,
                kind=kind,
                text=rendered,
                message=message,
                url=url,
                key=key[:120],
            )
    except IntegrityError:
        return None
    user_notified_on_commit(player.user_id)
    # Web Push (games/services/push/): the same notice on the member's devices.
    notification_push_owe(notification, text=text, args=args, plural=plural)
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


# A table notice's plural (if any) is kept among its arguments under this key.
NOTICE_PLURAL = "_plural"


def table_notice_post(
    *,
    game: Game,
    kind: str,
    text: str,
    args: dict[str, Any] | None = None,
    plural: str | None = None,
) -> TableNotice:
    """Tell the whole table something (shown in the game's log); open pages refresh."""
    args = dict(args or {})
    if plural:
        args[NOTICE_PLURAL] = plural
    notice = TableNotice.objects.create(game=game, kind=kind, text=text, args=args)
    game_updated_on_commit(game.pk, game.version)
    return notice


def table_notice_text(notice: TableNotice) -> str:
    args = dict(notice.args or {})
    plural = args.pop(NOTICE_PLURAL, None)
    return text_render(notice.text, args, plural=plural)


def table_notices(game: Game, *, limit: int = 20) -> list[dict[str, Any]]:
    """The latest notices of a table, oldest first, in the viewer's language (no query when
    the game's own query found none: games/selectors/tables.py ``_clock_hints``)."""
    if clock_known_empty(game, "notices"):
        return []
    # Read once per copy of the game (every viewer of one broadcast), worded per reader.
    notices = read_once(
        game,
        ("table_notices", limit),
        lambda: list(TableNotice.objects.filter(game=game).order_by("-created_at", "-pk")[:limit]),
    )
    return [
        {"kind": n.kind, "when": n.created_at, "text": table_notice_text(n)}
        for n in reversed(notices)
    ]
