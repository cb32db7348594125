"""The daily "your turn" digest: one email a day to each member who wants it, listing every
game waiting for them, most urgent first, with what happened since their last move.

Beat runs :func:`digests_send` every hour; a member gets theirs in the first sweep after
``NAPAD_DIGEST_HOUR`` (default 8:00) of their own time zone, once per local day — the unique
``DigestSent`` row is the claim, taken in the same transaction that sends the email, so a
failed send is retried the next hour and two sweeps never send it twice.
"""

from __future__ import annotations

import logging
import zoneinfo
from datetime import datetime

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.template.loader import render_to_string
from django.utils import timezone, translation

from games.models import DigestSent, Game, GameEvent, Player, Seat
from games.selectors.gamelog import log_entries
from games.selectors.naming import seat_names

from ..notifications import game_url
from .leave_time import player_on_leave
from .reminders import club_email_send, site_url, stable_message_id, time_left_text

logger = logging.getLogger(__name__)

DEFAULT_DIGEST_HOUR = 8
# The latest public events listed per game ("what happened since your last move").
DIGEST_EVENTS_PER_GAME = 12


def _local_now(player: Player, now: datetime) -> datetime:
    try:
        return now.astimezone(zoneinfo.ZoneInfo(player.time_zone or "UTC"))
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return now.astimezone(zoneinfo.ZoneInfo("UTC"))


def digest_entries(player: Player, now: datetime) -> list[dict]:
    """The games waiting for ``player``, most urgent first, each with the public events since
    the member's own last move (texts in the active language)."""
    seats = Seat.objects.filter(
        player=player, bot_kind="", game__status=Game.Status.RUNNING
    ).select_related("game")
    entries = []
    for seat in seats:
        game = seat.game
        if seat.position not in (game.to_move or []):
            continue
        last_own = (
            GameEvent.objects.filter(game=game, seat=seat.position, by_clock=False).aggregate(
                seq=Max("seq")
            )["seq"]
            or 0
        )
        since = GameEvent.objects.filter(game=game, seq__gt=last_own).order_by("-seq")
        recent = list(reversed(list(since[:DIGEST_EVENTS_PER_GAME])))
        # The log's own lines (members' names, game terms, plurals), as the member reads them.
        texts = [
            line["text"]
            for entry in log_entries(recent, seat.position, names=seat_names(game), kind=game.kind)
            for line in entry["lines"]
        ]
        entries.append(
            {
                "game": game,
                "deadline": game.deadline,
                "left": time_left_text(game.deadline - now) if game.deadline else "",
                "url": site_url() + game_url(game.pk),
                "since": texts[-DIGEST_EVENTS_PER_GAME:],
            }
        )
    far = datetime.max.replace(tzinfo=zoneinfo.ZoneInfo("UTC"))
    entries.sort(key=lambda entry: entry["deadline"] or far)
    return entries


def digest_send(player: Player, now: datetime) -> bool:
    """Send today's digest to one member, if not sent yet and there is a game waiting."""
    local = _local_now(player, now)
    with (
        translation.override(player.language or "en"),
        timezone.override(player.time_zone or "UTC"),
    ):
        entries = digest_entries(player, now)
        if not entries:
            return False
        context = {"player": player, "entries": entries, "site_url": site_url()}
        subject = render_to_string("email/digest_subject.txt", context).strip()
        body = render_to_string("email/digest.txt", context)
    try:
        with transaction.atomic():
            DigestSent.objects.create(player=player, day=local.date(), games=len(entries))
            # A worker killed after the send and before the commit sends it again next hour:
            # the same Message-ID makes that the same message.
            message_id = stable_message_id("digest", player.pk, local.date().isoformat())
            club_email_send(subject, body, player.user.email, message_id)
    except IntegrityError:
        return False
    except Exception:
        logger.exception("digest for player %s failed", player.pk)
        return False
    return True


def digests_send(now: datetime | None = None) -> int:
    """Digests due this hour: members at or past their digest hour who have none today."""
    now = now or timezone.now()
    hour = getattr(settings, "NAPAD_DIGEST_HOUR", DEFAULT_DIGEST_HOUR)
    sent = 0
    players = (
        Player.objects.filter(daily_digest=True).exclude(user__email="").select_related("user")
    )
    for player in players:
        local = _local_now(player, now)
        if local.hour < hour:
            continue
        if DigestSent.objects.filter(player=player, day=local.date()).exists():
            continue
        if player_on_leave(player, now) is not None:
            # Away: their clocks are paused, and the digest would only pile up unread.
            continue
        sent += digest_send(player, now)
    return sent
