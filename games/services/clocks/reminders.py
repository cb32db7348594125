"""The reminder ladder: at set shares of the turn time (default 50 %, 80 %, 95 %) the member
who must act is reminded through the channels they chose — a site notification (the bell,
pushed live to every page they have open), an email, and Web Push to the devices they turned
it on in (a push owed in the same transaction: games/services/push/).

Exactly once: a step is *claimed* by a conditional UPDATE on the clock (``version`` and
``next_step`` unchanged, row count 1) and recorded in the unique ``ReminderSent`` ledger in the
same transaction; the email is an outbox entry sent after the commit and marked sent, retried
by a later sweep if the worker died before marking it. Sending and marking cannot be one
atomic step, so a worker killed between the two sends that email again: it goes out with the
same ``Message-ID`` (:func:`stable_message_id`): the same message again, not a new one (mail
stores such as Gmail's keep one copy per ``Message-ID``).

Never spam: a sweep that finds several steps due (a deferred or late sweep) sends only the
latest one. Not while the member has the game open (``presence``). Not in their quiet hours:
the step waits for the end of the quiet hours if that is still before the deadline; if the
deadline falls inside the quiet hours it is sent at once, but only through the silent site
channel (bell), never by email or push.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext_noop

from games.models import Player, ReminderSent, TurnClock
from games.text.wording import time_left_words

from ..notifications import game_url, notification_send
from ..presence import is_present
from ..push.devices import push_devices_exist
from ..push.outbox import reminder_push_owe
from ..quiet_hours import quiet_hours_end
from .deadlines import decision_seat, ladder_instants, seat_member

logger = logging.getLogger(__name__)

# An email claimed this long ago and still not marked sent is retried (its worker died).
EMAIL_CLAIM_LEASE = timedelta(minutes=5)


def site_url() -> str:
    return getattr(settings, "NAPAD_SITE_URL", "http://127.0.0.1:8000").rstrip("/")


def stable_message_id(*parts: object) -> str:
    """A ``Message-ID`` that names one email of the club for good (``<reminder.41@host>``):
    the same whenever that email is sent again, so a resend is the same message, not a
    second one."""
    host = urlsplit(site_url()).hostname or "localhost"
    return "<" + ".".join(str(part) for part in parts) + f"@{host}>"


def club_email_send(subject: str, body: str, to: str, message_id: str) -> None:
    """Send one email from the club with its stable ``Message-ID``."""
    EmailMessage(subject, body, None, [to], headers={"Message-ID": message_id}).send()


def turn_reminder_send(clock: TurnClock, now: datetime) -> str:
    """Send the due step of one clock's ladder, at most once. Returns what happened."""
    game = clock.game
    if (
        game.status != game.Status.RUNNING
        or game.version != clock.version
        or not game.to_move
        or game.deadline is None
    ):
        TurnClock.objects.filter(pk=clock.pk, version=clock.version).update(next_reminder_at=None)
        return "stale"
    player = seat_member(decision_seat(game))
    if player is None:
        TurnClock.objects.filter(pk=clock.pk, version=clock.version).update(next_reminder_at=None)
        return "bot"
    instants = ladder_instants(game, clock, player)
    due = [step for step in range(clock.next_step, len(instants)) if instants[step] <= now]
    if not due:
        # Leave or a "+24 h" moved the ladder since this was scheduled.
        next_at = instants[clock.next_step] if clock.next_step < len(instants) else None
        TurnClock.objects.filter(
            pk=clock.pk, version=clock.version, next_step=clock.next_step
        ).update(next_reminder_at=next_at)
        return "rescheduled"
    if game.deadline <= now:
        return "expired"
    quiet_end = quiet_hours_end(player, now)
    if quiet_end is not None and quiet_end < game.deadline:
        TurnClock.objects.filter(
            pk=clock.pk, version=clock.version, next_step=clock.next_step
        ).update(next_reminder_at=quiet_end)
        return "deferred"

    step = due[-1]
    next_at = instants[step + 1] if step + 1 < len(instants) else None
    position = game.to_move[0]
    try:
        with transaction.atomic():
            ledger = _reminder_claim_and_send(
                clock, game, player, position, step, next_at, now, quiet=quiet_end is not None
            )
    except IntegrityError:
        # The ledger row exists: someone sent this step already (the claim is rolled back).
        return "taken"
    if ledger is None:
        return "taken"
    if ledger.email_due:
        ledger_id = ledger.pk
        transaction.on_commit(lambda: reminder_email_send(ledger_id))
    return ledger.outcome


def _reminder_claim_and_send(
    clock: TurnClock,
    game,
    player: Player,
    position: int,
    step: int,
    next_at: datetime | None,
    now: datetime,
    *,
    quiet: bool,
) -> ReminderSent | None:
    """Inside one transaction: claim the step (conditional UPDATE), write the ledger row, put
    the notification on the bell. ``None`` if another sweep claimed it first."""
    claimed = TurnClock.objects.filter(
        pk=clock.pk, version=clock.version, next_step=clock.next_step
    ).update(next_step=step + 1, next_reminder_at=next_at)
    if not claimed:
        return None
    email = bool(player.remind_by_email and player.user.email) and not quiet
    site = player.remind_on_site
    # Web Push sounds like an email does: never in quiet hours.
    push = not quiet and push_devices_exist(player.pk)
    if is_present(game.pk, player.user_id):
        outcome = ReminderSent.Outcome.PRESENT
    elif not (email or site or push):
        outcome = ReminderSent.Outcome.NO_CHANNEL
    elif quiet:
        outcome = ReminderSent.Outcome.SITE_ONLY
    else:
        outcome = ReminderSent.Outcome.SENT
    sending = outcome in (ReminderSent.Outcome.SENT, ReminderSent.Outcome.SITE_ONLY)
    ledger = ReminderSent.objects.create(
        game=game,
        version=game.version,
        seat=position,
        step=step,
        player=player,
        outcome=outcome,
        deadline=game.deadline,
        email_due=sending and email,
    )
    text = gettext_noop("Your turn in game #%(game)s: %(left)s left.")
    # Said in the member's language whenever the bell (or the push) is read.
    args = {"game": game.pk, "left": {"duration": (game.deadline - now).total_seconds()}}
    key = f"reminder:{game.pk}:{game.version}:{position}:{step}"
    if sending and site:
        notification_send(
            player=player, game=game, kind="turn_reminder", text=text, args=args, key=key
        )
    if sending and push:
        reminder_push_owe(player=player, game=game, key=key, text=text, args=args)
    return ledger


def time_left_text(left: timedelta) -> str:
    """How long is left, in words of the active language ("2 hours", "3 days 4 hours")."""
    return time_left_words(left.total_seconds())


def reminder_email_send(ledger_id: int) -> bool:
    """Send one reminder email from the outbox, if nobody else is sending it."""
    now = timezone.now()
    claimed = (
        ReminderSent.objects.filter(pk=ledger_id, email_due=True, email_sent_at=None)
        .filter(Q(email_claimed_at=None) | Q(email_claimed_at__lt=now - EMAIL_CLAIM_LEASE))
        .update(email_claimed_at=now)
    )
    if not claimed:
        return False
    row = ReminderSent.objects.select_related("player__user", "game").get(pk=ledger_id)
    player = row.player
    with (
        translation.override(player.language or "en"),
        timezone.override(player.time_zone or "UTC"),
    ):
        context = {
            "player": player,
            "game": row.game,
            "deadline": row.deadline,
            "left": time_left_text(row.deadline - now),
            "url": site_url() + game_url(row.game_id),
        }
        subject = render_to_string("email/turn_reminder_subject.txt", context).strip()
        body = render_to_string("email/turn_reminder.txt", context)
    try:
        club_email_send(subject, body, player.user.email, stable_message_id("reminder", ledger_id))
    except Exception:
        # The claim goes stale and a later sweep retries; the move is never held up.
        logger.exception("reminder email %s failed", ledger_id)
        return False
    ReminderSent.objects.filter(pk=ledger_id).update(email_sent_at=timezone.now())
    return True


def reminder_emails_retry(now: datetime, *, batch: int = 100) -> int:
    """Emails whose sender died before marking them sent (and still useful): send again."""
    stale = now - EMAIL_CLAIM_LEASE
    ids = list(
        ReminderSent.objects.filter(
            email_due=True, email_sent_at=None, created_at__lt=stale, deadline__gt=now
        )
        .filter(Q(email_claimed_at=None) | Q(email_claimed_at__lt=stale))
        .values_list("pk", flat=True)[:batch]
    )
    return sum(1 for ledger_id in ids if reminder_email_send(ledger_id))


def _due_clocks(now: datetime):
    return (
        TurnClock.objects.filter(next_reminder_at__lte=now)
        .select_related("game")
        # The engine state is not needed to remind anyone: do not load it.
        .defer("game__state", "game__config", "game__recent_events")
        .order_by("next_reminder_at")
    )


def reminders_due_ids(now: datetime, *, batch: int = 500) -> list[int]:
    """The games whose clock has a reminder due (through the ``next_reminder_at`` index)."""
    return list(
        TurnClock.objects.filter(next_reminder_at__lte=now)
        .order_by("next_reminder_at")
        .values_list("pk", flat=True)[:batch]
    )


def turn_reminder_due_send(game_id: int, now: datetime | None = None) -> str:
    """One game's due reminder (the task a fanned-out sweep queues); nothing if not due."""
    now = now or timezone.now()
    clock = _due_clocks(now).filter(pk=game_id).first()
    if clock is None:
        return "not_due"
    return turn_reminder_send(clock, now)


def reminders_due_send(now: datetime, *, batch: int = 500) -> dict[str, int]:
    """Every clock whose next reminder is due (through the ``next_reminder_at`` index)."""
    outcomes: dict[str, int] = {}
    due = _due_clocks(now)[:batch]
    for clock in due:
        try:
            outcome = turn_reminder_send(clock, now)
        except Exception:
            logger.exception("reminder for game %s failed", clock.pk)
            outcome = "failed"
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    return outcomes
