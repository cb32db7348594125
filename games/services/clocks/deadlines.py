"""Deadlines per decision: the running clock of the seat a game waits for.

The play service sets ``Game.deadline = now + turn_time_limit`` on every move and then calls
:func:`turn_clock_after_move` (or :func:`turn_clock_start` when a game starts) inside the same
transaction. Here that deadline becomes the *effective* one — pushed back by the member's
leave and by a "+24 h" from a tablemate — and the clock's next reminder is scheduled in the
indexed ``TurnClock.next_reminder_at``, so the sweep reads only what is due.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games.broadcast import game_updated_on_commit
from games.models import DeadlineExtension, Game, Player, Seat, TurnClock
from games.selectors.tables import clock_known_empty, read_once
from games.text.bots import LEVEL_LABELS

from .leave_time import clock_instant, leave_intervals, seat_leave_intervals
from .policy import clock_policy, reminder_points_clean


class ClockError(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def decision_seat(game: Game) -> Seat | None:
    """The seat the game waits for (both games have one at a time)."""
    if not game.to_move:
        return None
    return (
        Seat.objects.filter(game=game, position=game.to_move[0])
        .select_related("player__user")
        .first()
    )


def seat_member(seat: Seat | None) -> Player | None:
    """The member who owns a seat's decisions (``None`` for a bot or an empty seat)."""
    if seat is None or seat.is_bot:
        return None
    return seat.player


def running_time(game: Game) -> timedelta:
    """The turn time of the current decision, with any "+24 h" granted for it."""
    hours = sum(
        DeadlineExtension.objects.filter(game=game, version=game.version).values_list(
            "hours", flat=True
        )
    )
    return game.turn_time_limit + timedelta(hours=hours)


def clock_for(game: Game) -> TurnClock:
    """The game's clock for its current version (made from the deadline the play service set
    if the move hook has not run for this version)."""
    clock = TurnClock.objects.filter(game=game).first()
    if clock is not None and clock.version == game.version:
        return clock
    started = (game.deadline or timezone.now()) - game.turn_time_limit
    clock, _created = TurnClock.objects.update_or_create(
        game=game,
        defaults={
            "version": game.version,
            "started_at": started,
            "next_step": 0,
            "next_reminder_at": None,
        },
    )
    return clock


def ladder_instants(game: Game, clock: TurnClock, player: Player | None) -> list[datetime]:
    """When each reminder step falls due: a share of the running time, leave not counted."""
    running = running_time(game)
    intervals = leave_intervals(player, clock.started_at)
    return [
        clock_instant(clock.started_at, running * point / 100, intervals)
        for point in clock_policy(game).reminder_points
    ]


def deadline_effective(game: Game, clock: TurnClock, player: Player | None) -> datetime:
    running = running_time(game)
    if player is None:
        return clock.started_at + running
    return clock_instant(clock.started_at, running, leave_intervals(player, clock.started_at))


def _clock_schedule(game: Game, clock: TurnClock) -> None:
    """Move ``Game.deadline`` to the effective deadline and schedule the next reminder."""
    player = seat_member(decision_seat(game))
    deadline = deadline_effective(game, clock, player)
    if deadline != game.deadline:
        Game.objects.filter(pk=game.pk, version=game.version).update(deadline=deadline)
        game.deadline = deadline
    instants = ladder_instants(game, clock, player) if player is not None else []
    next_at = instants[clock.next_step] if clock.next_step < len(instants) else None
    TurnClock.objects.filter(pk=clock.pk, version=clock.version).update(next_reminder_at=next_at)
    clock.next_reminder_at = next_at


def turn_clock_start(game: Game, seats: list[Seat] | None = None) -> None:
    """A new decision began (the game started or a move was applied): its clock starts now.
    Runs inside the play service's transaction, on every move, so it stays at two or three
    queries: the member's leave, the clock row, and the deadline only if leave moves it."""
    if game.status != Game.Status.RUNNING or not game.to_move or game.deadline is None:
        TurnClock.objects.filter(game=game).delete()
        return
    started = game.deadline - game.turn_time_limit
    intervals = seat_leave_intervals(game, game.to_move[0], started, seats=seats)
    if intervals:
        deadline = clock_instant(started, game.turn_time_limit, intervals)
        Game.objects.filter(pk=game.pk, version=game.version).update(deadline=deadline)
        game.deadline = deadline
    points = clock_policy(game).reminder_points
    # A fresh decision has no "+24 h" yet; a bot's clock is cleared by the sweep if it is
    # ever due (bots answer within a second).
    next_at = (
        clock_instant(started, game.turn_time_limit * points[0] / 100, intervals)
        if points
        else None
    )
    fields = {
        "version": game.version,
        "started_at": started,
        "next_step": 0,
        "next_reminder_at": next_at,
    }
    if not TurnClock.objects.filter(game=game).update(**fields):
        TurnClock.objects.create(game=game, **fields)


def turn_clock_refresh(game: Game) -> None:
    """The rules of the running decision changed (leave declared, "+24 h"): recompute."""
    if game.status != Game.Status.RUNNING or not game.to_move or game.deadline is None:
        return
    _clock_schedule(game, clock_for(game))
    game_updated_on_commit(game.pk, game.version)


def turn_clock_after_move(
    *, game: Game, seat: Seat, by_member: bool, seats: list[Seat] | None = None
) -> None:
    """The clock's step of the play service's after-move pipeline (games/services/play.py),
    inside the move's transaction: the member's own move clears their consecutive timeouts;
    the next decision's clock starts. ``seats``: the game's seats with their players, read in
    this transaction (spares a join)."""
    if by_member and seat.consecutive_timeouts:
        Seat.objects.filter(pk=seat.pk).update(consecutive_timeouts=0)
        seat.consecutive_timeouts = 0
    turn_clock_start(game, seats=seats)


def deadline_extend(*, game_id: int, user: AbstractBaseUser, position: int) -> Game:
    """A tablemate grants the slow player "+24 h" on the decision they owe. Each seat can be
    given it once per game, by anyone else seated at the table."""
    from games.services.notifications import notification_send, table_notice_post

    player = getattr(user, "player", None) if user.is_authenticated else None
    if player is None:
        raise ClockError(_("Log in to play."))
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or game.status != Game.Status.RUNNING:
            raise ClockError(_("This game is not running."))
        seats = {seat.position: seat for seat in game.seats.select_related("player")}
        mine = next((s for s in seats.values() if s.player_id == player.pk), None)
        if mine is None:
            raise ClockError(_("Only the players at this table can give more time."))
        slow = seats.get(position)
        if slow is None or position not in (game.to_move or []):
            raise ClockError(_("That seat is not the one the table waits for."))
        if slow.pk == mine.pk:
            raise ClockError(_("You cannot give yourself more time."))
        if slow.is_bot or slow.player is None:
            raise ClockError(_("Bots do not need more time."))
        hours = clock_policy(game).extension_hours
        try:
            with transaction.atomic():
                DeadlineExtension.objects.create(
                    game=game, seat=position, version=game.version, granted_by=player, hours=hours
                )
        except IntegrityError:
            raise ClockError(
                _("%(name)s has already been given more time in this game.")
                % {"name": slow.player.display_name}
            ) from None
        clock = clock_for(game)
        _clock_schedule(game, clock)
        table_notice_post(
            game=game,
            kind="extension",
            text=gettext_noop("%(by)s gave %(name)s %(hours)s more hours."),
            args={"by": player.display_name, "name": slow.player.display_name, "hours": hours},
        )
        notification_send(
            player=slow.player,
            game=game,
            kind="extension",
            text=gettext_noop("%(by)s gave you %(hours)s more hours in game #%(game)s."),
            args={"by": player.display_name, "hours": hours, "game": game.pk},
            key=f"extension:{game.pk}:{position}",
        )
        game_updated_on_commit(game.pk, game.version)
    return game


def extensions_given(game: Game) -> set[int]:
    """The seats given "+24 h" in this game (once each): one query per copy of the game,
    none when the game's own query found none (games/selectors/tables.py ``_clock_hints``)."""
    if clock_known_empty(game, "extensions"):
        return set()
    return read_once(
        game,
        "extensions_given",
        lambda: set(DeadlineExtension.objects.filter(game=game).values_list("seat", flat=True)),
    )


def extension_available(
    game: Game, viewer: Player | None, seats: list[Seat] | None = None
) -> Seat | None:
    """The seat ``viewer`` may grant "+24 h" to on the game page now, if any (``seats``: the
    game's seats with their players, when the page has them already)."""
    if viewer is None or game.status != Game.Status.RUNNING or not game.to_move:
        return None
    if seats is None:
        seats = list(game.seats.select_related("player"))
    if not any(s.player_id == viewer.pk for s in seats):
        return None
    # Asked on every render of a seated member's page (not only when someone else is to
    # move), so the page costs the same queries whoever's turn it is.
    given = extensions_given(game)
    slow = next((s for s in seats if s.position == game.to_move[0]), None)
    if slow is None or slow.is_bot or slow.player_id in (None, viewer.pk):
        return None
    return None if slow.position in given else slow


def clock_policy_set(
    *,
    game: Game,
    reminder_points: list[int] | None = None,
    timeouts_to_bot: int | None = None,
    stand_in_level: str | None = None,
) -> None:
    """Give one game its own clock policy (a league's settings for its fixtures)."""
    clock = dict((game.options or {}).get("clock") or {})
    if reminder_points is not None:
        clock["reminder_points"] = list(reminder_points_clean(reminder_points))
    if timeouts_to_bot is not None:
        clock["timeouts_to_bot"] = max(0, int(timeouts_to_bot))
    if stand_in_level is not None:
        if stand_in_level not in LEVEL_LABELS:
            raise ValueError(f"unknown bot level {stand_in_level!r}")
        clock["stand_in_level"] = stand_in_level
    game.options = {**(game.options or {}), "clock": clock}
    Game.objects.filter(pk=game.pk).update(options=game.options)
    # A running decision follows the new policy at once.
    game.refresh_from_db()
    turn_clock_refresh(game)
