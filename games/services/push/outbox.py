"""Owing a push: the small calls the play, notification and reminder services make.

Each writes one ``PushMessage`` row in the caller's transaction (nothing if the member has no
device, or if the same cause was owed before) and asks a worker to send it once the
transaction commits; the per-minute sweep sends whatever that hint missed. What is owed:

- **your turn** — when a decision passes to a member (the game starts, or someone else's move
  or the clock leaves them to move): one per decision, stale once it is made;
- **the reminder ladder** — each step that goes out through the member's channels (the ladder's
  ``ReminderSent`` ledger decides it, so quiet hours and presence act as for the email);
- **table notices on the bell** — every other bell notification ("+24 h" given, the clock
  played for you, a bot took a seat, a league table is ready, a result to confirm).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_noop

from games.models import Game, Notification, Player, PushMessage, Seat

from ..queueing import task_queue_on_commit
from .devices import push_devices_exist

TURN_KIND = "your_turn"
TURN_TEXT = gettext_noop("Game #%(game)s is waiting for your move.")
# A notice that could not go out within a day (quiet hours, a push service away) is dropped.
NOTICE_TTL = timedelta(hours=24)
# Bell notifications whose push the reminder ladder owes itself, with its own ledger.
OWN_LEDGER_KINDS = frozenset({"turn_reminder"})
# Bell notifications about the decision at hand: no use once it is made.
DECISION_KINDS = frozenset({"stealin_choice"})


def push_owe(
    *,
    player: Player,
    kind: str,
    text: str,
    args: dict[str, Any] | None,
    key: str,
    plural: str = "",
    game: Game | None = None,
    url: str = "",
    decision_version: int | None = None,
    expires_at: datetime | None = None,
    has_devices: bool | None = None,
) -> PushMessage | None:
    """Owe ``player`` one push (``text``: a marked English message, rendered when sent).
    ``has_devices``: whether the member has a device, when the caller knows already."""
    if has_devices is None:
        has_devices = push_devices_exist(player.pk)
    if not has_devices:
        return None
    now = timezone.now()
    if not url and game is not None:
        url = reverse("game_detail", args=[game.pk])
    try:
        with transaction.atomic():
            message = PushMessage.objects.create(
                player=player,
                game=game,
                kind=kind,
                key=key[:120],
                text=text[:300],
                plural=(plural or "")[:300],
                args=args or {},
                url=url[:200],
                decision_version=decision_version,
                not_before=now,
                expires_at=expires_at or now + NOTICE_TTL,
            )
    except IntegrityError:
        return None
    task_queue_on_commit("games.push_send", (message.pk,))
    return message


def turn_push_owe(game: Game, seats: list[Seat], mover: Seat | None = None) -> None:
    """The play service's hook (inside its transaction) after a game starts or a move: the
    member the game now waits for is owed "your turn" — unless they made the move themselves.
    ``seats``: the game's seats with their players, already loaded; annotated with
    ``push_devices`` (``game_locked_for_move``), a move costs a query only for a member with a
    device."""
    if game.status != Game.Status.RUNNING or not game.to_move:
        return
    seat = next((s for s in seats if s.position == game.to_move[0]), None)
    if seat is None or seat.is_bot or seat.player is None:
        return
    if mover is not None and mover.player_id == seat.player_id:
        return
    push_owe(
        player=seat.player,
        game=game,
        kind=TURN_KIND,
        text=TURN_TEXT,
        args={"game": game.pk},
        key=f"turn:{game.pk}:{game.version}:{seat.position}",
        decision_version=game.version,
        expires_at=game.deadline,
        has_devices=getattr(seat, "push_devices", None),
    )


def notification_push_owe(
    notification: Notification,
    *,
    text: str,
    args: dict[str, Any] | None,
    plural: str | None = None,
) -> None:
    """The bell's hook: a notification just put on a member's bell goes by push too."""
    if notification.kind in OWN_LEDGER_KINDS:
        return
    game = notification.game
    decision = game is not None and notification.kind in DECISION_KINDS
    push_owe(
        player=notification.player,
        game=game,
        kind=notification.kind,
        text=text,
        args=args,
        plural=plural or "",
        url=notification.url,
        key=notification.key or f"notification:{notification.pk}",
        decision_version=game.version if decision else None,
        expires_at=game.deadline if decision else None,
    )


def reminder_push_owe(
    *, player: Player, game: Game, key: str, text: str, args: dict[str, Any]
) -> None:
    """The reminder ladder's hook, for a step it sends through the member's channels."""
    push_owe(
        player=player,
        game=game,
        kind="turn_reminder",
        text=text,
        args=args,
        key=key,
        decision_version=game.version,
        expires_at=game.deadline,
    )
