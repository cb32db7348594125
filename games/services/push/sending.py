"""Sending owed pushes: claim, hold back or send, record — each push once.

A sender (the task queued when the push was owed, or the per-minute sweep for one it missed)
*claims* the row with a conditional UPDATE (a claim older than ``CLAIM_LEASE`` counts as
abandoned: its worker died), then decides, in this order, whether it still goes out:

1. **expired** — past its deadline (a decision's deadline; a day for a notice);
2. **stale** — the decision it is about was made already (the game moved on);
3. **superseded** — a newer push about the same game was owed to the member since: only the
   latest goes out, never a burst (the lock screen shows one notification per game anyway);
4. **present** — the member has the game open (the game socket's presence key);
5. **quiet hours** — it waits for their end (``not_before``), or is dropped if by then it is
   expired;
6. **no device** — the member removed their devices meanwhile.

What goes out is a small JSON payload — a title and a short text in the member's language
and the game's URL, nothing secret — encrypted for each device (RFC 8291, aes128gcm) and
signed with the site's VAPID key (RFC 8292) by ``pywebpush``. A ``PushDelivery`` row is
written before each device is contacted, so a retry never reaches a device twice. The push
service's 404/410 says the subscription is gone: it is deleted. A service that cannot be
reached (or answers 429/5xx) is retried by a later sweep, up to ``MAX_ATTEMPTS`` times. Every
other way a delivery goes wrong — the service refusing it, the VAPID signature, keys the
payload cannot be encrypted for, any error of the library, an endpoint stored before today's
check that fails it (never requested) — is a failed ``PushDelivery`` with its reason, never an
exception out of the task: the member's other devices and the other pushes go on.
"""

from __future__ import annotations

import json
import logging
from datetime import datetime, timedelta
from functools import lru_cache

import requests
from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from py_vapid import Vapid, VapidException
from pywebpush import WebPushException, webpush

from games.models import Game, PushDelivery, PushMessage, PushSubscription
from games.text.wording import text_render

from ..presence import is_present
from ..quiet_hours import quiet_hours_end
from .devices import endpoint_normalise
from .outbox import TURN_KIND

logger = logging.getLogger(__name__)

CLAIM_LEASE = timedelta(minutes=5)
MAX_ATTEMPTS = 3
# Seconds to wait for a push service: a worker is never held up for long.
PUSH_TIMEOUT = 10
# The longest a push service keeps a push for a device that is offline.
MAX_TTL = 24 * 3600
GONE = (404, 410)
Outcome = PushMessage.Outcome
Failure = PushDelivery.Failure
# Kinds whose title is "Your turn"; the others are the club's notices.
TURN_TITLED = frozenset({TURN_KIND, "turn_reminder", "stealin_choice"})


def push_payload(message: PushMessage) -> dict[str, str]:
    """What the device shows, in the member's language: no hand, no card, no secret."""
    with translation.override(message.player.language or "en"):
        title = _("Your turn") if message.kind in TURN_TITLED else _("Napad Club")
        body = text_render(message.text, message.args, plural=message.plural or None)
    tag = f"game-{message.game_id}" if message.game_id else f"club-{message.kind}"
    return {"title": title, "body": body[:300], "url": message.url or "/", "tag": tag}


@lru_cache(maxsize=1)
def _vapid(private_key: str) -> Vapid:
    return Vapid.from_string(private_key=private_key)


def _session() -> requests.Session:
    session = requests.Session()
    # A push service never redirects; following one could lead anywhere.
    session.max_redirects = 0
    return session


def push_deliver(device: PushSubscription, payload: str, *, ttl: int, topic: str) -> int | Failure:
    """Hand one encrypted payload to one device's push service: its HTTP status, or why it
    did not get there. Never raises: whatever goes wrong is one failed delivery, not a failed
    task (and the other devices still get theirs)."""
    endpoint = endpoint_normalise(device.endpoint)
    if endpoint is None:
        # Stored before the check it fails was made: never requested.
        logger.warning("push device %s: endpoint not allowed, not sent", device.pk)
        return Failure.ENDPOINT
    try:
        response = webpush(
            subscription_info={
                "endpoint": endpoint,
                "keys": {"p256dh": device.p256dh, "auth": device.auth},
            },
            data=payload,
            vapid_private_key=_vapid(settings.NAPAD_VAPID_PRIVATE_KEY),
            # A fresh dict each time: webpush fills in the audience of this endpoint.
            vapid_claims={"sub": settings.NAPAD_VAPID_SUBJECT},
            content_encoding="aes128gcm",
            ttl=ttl,
            timeout=PUSH_TIMEOUT,
            headers={"Topic": topic, "Urgency": "normal"},
            requests_session=_session(),
        )
    except WebPushException as error:
        if error.response is not None:
            return error.response.status_code
        logger.warning("push device %s: %s", device.pk, error)
        return Failure.ERROR
    except VapidException as error:
        logger.warning("push device %s: VAPID signing failed (%s)", device.pk, error)
        return Failure.SIGNING
    except requests.RequestException as error:
        logger.warning(
            "push device %s: push service unreachable (%s)", device.pk, type(error).__name__
        )
        return Failure.UNREACHABLE
    except (ValueError, TypeError) as error:
        # Keys the payload cannot be encrypted for.
        logger.warning("push device %s: unusable keys (%s)", device.pk, type(error).__name__)
        return Failure.KEYS
    except Exception:
        logger.exception("push device %s: the push failed", device.pk)
        return Failure.ERROR
    return response.status_code


def _claim(message_id: int, now: datetime) -> bool:
    return bool(
        PushMessage.objects.filter(pk=message_id, outcome="", not_before__lte=now)
        .filter(Q(claimed_at=None) | Q(claimed_at__lt=now - CLAIM_LEASE))
        .update(claimed_at=now, attempts=F("attempts") + 1)
    )


def _close(message: PushMessage, outcome: str, now: datetime) -> str:
    PushMessage.objects.filter(pk=message.pk).update(
        outcome=outcome, sent_at=now if outcome == Outcome.SENT else None
    )
    return outcome


def _hold(message: PushMessage, now: datetime) -> str | None:
    """Why the push does not go out now (an outcome, or "deferred"), or ``None``."""
    if now >= message.expires_at:
        return Outcome.EXPIRED
    game = message.game
    if message.decision_version is not None and (
        game is None
        or game.status != Game.Status.RUNNING
        or game.version != message.decision_version
    ):
        return Outcome.STALE
    if game is not None:
        newer = PushMessage.objects.filter(player_id=message.player_id, game=game)
        if newer.filter(pk__gt=message.pk).exists():
            return Outcome.SUPERSEDED
        if is_present(game.pk, message.player.user_id):
            return Outcome.PRESENT
    quiet_end = quiet_hours_end(message.player, now)
    if quiet_end is not None:
        if quiet_end >= message.expires_at:
            return Outcome.QUIET
        # Waits for the end of the quiet hours; the attempt it used does not count.
        PushMessage.objects.filter(pk=message.pk).update(
            not_before=quiet_end, claimed_at=None, attempts=F("attempts") - 1
        )
        return "deferred"
    return None


def push_message_send(message_id: int, now: datetime | None = None) -> str:
    """Send one owed push (if nobody else is sending it and it still should go out)."""
    now = now or timezone.now()
    if not _claim(message_id, now):
        return "taken"
    message = (
        PushMessage.objects.select_related("player__user", "game")
        .defer("game__state", "game__config", "game__recent_events")
        .get(pk=message_id)
    )
    hold = _hold(message, now)
    if hold == "deferred":
        return hold
    if hold is not None:
        return _close(message, hold, now)
    devices = list(PushSubscription.objects.filter(player_id=message.player_id))
    if not devices:
        return _close(message, Outcome.NO_DEVICE, now)
    payload = json.dumps(push_payload(message))
    ttl = max(60, min(MAX_TTL, int((message.expires_at - now).total_seconds())))
    topic = f"game{message.game_id}" if message.game_id else message.kind.replace("_", "")[:32]
    delivered = retry = refused = 0
    gone: list[int] = []
    for device in devices:
        try:
            with transaction.atomic():
                delivery = PushDelivery.objects.create(message=message, subscription=device)
        except IntegrityError:
            continue  # an earlier attempt reached this device
        result = push_deliver(device, payload, ttl=ttl, topic=topic[:32])
        status = result if isinstance(result, int) else None
        failure = "" if status is not None else Failure(result)
        if status in GONE:
            gone.append(device.pk)
            continue
        if failure == Failure.UNREACHABLE or status == 429 or (status or 0) >= 500:
            retry += 1
            if message.attempts < MAX_ATTEMPTS:
                # Not delivered: this device is tried again with the next attempt.
                delivery.delete()
                continue
            failure = Failure.UNREACHABLE if status is None else Failure.REFUSED
        elif status is not None and status < 300:
            delivered += 1
            PushDelivery.objects.filter(pk=delivery.pk).update(status=status)
            PushSubscription.objects.filter(pk=device.pk).update(last_pushed_at=now)
            continue
        else:
            refused += 1
            failure = failure or Failure.REFUSED
        logger.warning("push %s to device %s: %s (%s)", message.pk, device.pk, failure, status)
        PushDelivery.objects.filter(pk=delivery.pk).update(status=status, failure=failure)
    if gone:
        PushSubscription.objects.filter(pk__in=gone).delete()
    earlier = PushDelivery.objects.filter(message=message, status__lt=300).exists()
    if retry and message.attempts < MAX_ATTEMPTS:
        # Left claimed: a sweep takes it up again once the claim's lease runs out.
        return "retry"
    if delivered or earlier:
        return _close(message, Outcome.SENT, now)
    return _close(message, Outcome.FAILED if retry or refused else Outcome.NO_DEVICE, now)


def push_message_send_logged(message_id: int, now: datetime | None = None) -> str:
    """``push_message_send`` for a worker: an error it did not expect (a delivery's are
    recorded on the delivery; this is the database, say) is logged, not raised — the push
    stays claimed and a sweep takes it up again once the claim's lease runs out."""
    try:
        return push_message_send(message_id, now)
    except Exception:
        logger.exception("push %s failed", message_id)
        return "failed"


def pushes_due_ids(now: datetime, *, batch: int = 500) -> list[int]:
    """Owed pushes whose time has come and that nobody is sending (the outbox index)."""
    return list(
        PushMessage.objects.filter(outcome="", not_before__lte=now)
        .filter(Q(claimed_at=None) | Q(claimed_at__lt=now - CLAIM_LEASE))
        .order_by("not_before", "pk")
        .values_list("pk", flat=True)[:batch]
    )


def pushes_due_send(now: datetime, *, batch: int = 500) -> dict[str, int]:
    """Send every push that is due (the sweep, in one process)."""
    outcomes: dict[str, int] = {}
    for message_id in pushes_due_ids(now, batch=batch):
        outcome = push_message_send_logged(message_id, now)
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    return outcomes
