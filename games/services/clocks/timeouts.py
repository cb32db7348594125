"""Timeouts, what the clock keeps of them: the expired deadlines (:func:`timeouts_expired`),
the seat's count of timeouts in a row (:func:`seat_timeout_record`, written in the timeout's
own transaction), and the seat handed to a bot. The timeout's move itself — the game's
timeout policy played for the seat — is made above the play service, in
games/services/turns/timeouts.py.

After ``timeouts_to_bot`` consecutive timeouts (policy; default 3) the seat is handed to a bot
(of the policy's ``stand_in_level``: a league's choice, medium by default) for the rest of the
game, marked ``replaced_by_bot`` for league rules, and the table is told.
"""

from __future__ import annotations

from datetime import datetime

from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_noop

from games.engines import get_engine
from games.engines.base import plural_noop
from games.models import Game, GameEvent, Seat, StandingOrder
from games.text.bots import bot_kind_for

from ..followups import bot_move_owed
from ..notifications import notification_send, table_notice_post
from .policy import clock_policy


def stand_in_bot_kind(game: Game) -> str:
    """The bot that takes a seat of ``game``: its clock policy's level (a league's choice;
    medium by default), or the engine's first bot if it has no bot at that level."""
    engine = get_engine(game.kind)
    return bot_kind_for(engine, clock_policy(game).stand_in_level) or next(iter(engine.bots))


def seat_consecutive_timeouts(game: Game, position: int, *, limit: int = 50) -> int:
    """How many of the seat's latest decisions in a row the clock made (moves carried out by
    a standing order are the member's own choice made in advance: they neither count nor
    break the run)."""
    standing: set[int] = set()
    if game.kind == "colt":
        standing = set(
            StandingOrder.objects.filter(game=game, seat=position, applied_seq__isnull=False)
            .order_by("-applied_seq")
            .values_list("applied_seq", flat=True)[:limit]
        )
    count = 0
    latest = GameEvent.objects.filter(game=game, seat=position).order_by("-seq")
    for seq, by_clock in latest.values_list("seq", "by_clock")[:limit]:
        if seq in standing:
            continue
        if not by_clock:
            break
        count += 1
    return count


def seat_hand_to_bot(*, game: Game, seat: Seat, reason: str = "timeouts") -> None:
    """A bot plays the seat for the rest of the game; the seat stays marked for the league.
    Runs inside the caller's transaction."""
    bot_kind = stand_in_bot_kind(game)
    # Claimed while a member still plays the seat: a substitute who took over a seat a bot
    # once held (replaced_by_bot stays set for the league) can still be handed to one.
    since = timezone.now()
    updated = Seat.objects.filter(pk=seat.pk, bot_kind="").update(
        bot_kind=bot_kind, replaced_by_bot=True, bot_since=since
    )
    if not updated:
        return
    seat.bot_kind, seat.replaced_by_bot, seat.bot_since = bot_kind, True, since
    name = seat.player.display_name if seat.player else str(seat.position + 1)
    plural = None
    if reason == "timeouts":
        text, plural = plural_noop(
            "%(name)s missed %(count)s turn in a row: a bot plays their seat for the rest of "
            "the game.",
            "%(name)s missed %(count)s turns in a row: a bot plays their seat for the rest of "
            "the game.",
        ).values()
    else:
        text = gettext_noop("A bot plays %(name)s's seat for the rest of the game.")
    args = {"name": name, "count": seat.consecutive_timeouts}
    table_notice_post(game=game, kind="seat_to_bot", text=text, args=args, plural=plural)
    members = Seat.objects.filter(game=game, player__isnull=False).select_related("player")
    for other in members:
        notification_send(
            player=other.player,
            game=game,
            kind="seat_to_bot",
            text=text,
            args=args,
            plural=plural,
            key=f"seat_to_bot:{game.pk}:{seat.position}",
        )
    if seat.position in (game.to_move or []):
        bot_move_owed(game)


def seat_timeout_record(game: Game, position: int) -> Seat:
    """Count the timeout the clock just played; hand the seat to a bot after too many."""
    seat = Seat.objects.select_related("player").get(game=game, position=position)
    consecutive = seat_consecutive_timeouts(game, position)
    Seat.objects.filter(pk=seat.pk).update(
        timeouts=F("timeouts") + 1, consecutive_timeouts=consecutive
    )
    seat.timeouts += 1
    seat.consecutive_timeouts = consecutive
    limit = clock_policy(game).timeouts_to_bot
    if limit and consecutive >= limit and seat.player is not None and not seat.is_bot:
        seat_hand_to_bot(game=game, seat=seat)
    elif seat.player is not None:
        notification_send(
            player=seat.player,
            game=game,
            kind="timeout",
            text=gettext_noop("Time ran out in game #%(game)s: the clock played for you."),
            args={"game": game.pk},
            key=f"timeout:{game.pk}:{game.version}",
        )
    return seat


def timeouts_expired(now: datetime, *, batch: int = 500) -> list[tuple[int, int, datetime]]:
    """``(game, version, deadline)`` of every expired decision, through the deadline index."""
    return list(
        Game.objects.filter(status=Game.Status.RUNNING, deadline__lte=now)
        .order_by("deadline")
        .values_list("pk", "version", "deadline")[:batch]
    )
