"""Moderators keeping games running: abort, extend the deadline, hand a seat to a bot or to a
substitute member; and opening an invitation-only table to look at it (``table_view_record``:
written down first, see games/roles.py). Each action is one transaction that also
writes a ``ModerationAction`` (who, when, what, why) and tells open pages on commit.

These never bump ``Game.version``: the version counts moves (``GameEvent.seq`` follows it),
and a moderator's action is not a move. A page learns of it from the broadcast, and a move
made on it is still judged by the play service (an aborted game refuses every move).
"""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games import roles
from games.broadcast import game_updated_on_commit
from games.engines import get_engine
from games.models import Game, ModerationAction, Notification, Player, Seat, TurnClock
from games.services.clocks.deadlines import clock_for, turn_clock_refresh
from games.services.followups import bot_move_owed
from games.text.bots import bot_kind_for
from games.text.wording import phrase_format

# A moderator may push a deadline this far at once; repeated extensions are audited.
MAX_DEADLINE_EXTENSION = timedelta(days=30)
MAX_REASON_LENGTH = 1000


class ModerationError(Exception):
    """The action does not fit the game's situation; ``message`` says why, for people."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def _locked(game_id: int) -> Game:
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except Game.DoesNotExist:
        raise ModerationError(_("There is no such game.")) from None


def _clean_reason(reason: str, *, required: bool) -> str:
    reason = (reason or "").strip()
    if required and not reason:
        raise ModerationError(_("Give a reason: the players will read it."))
    if len(reason) > MAX_REASON_LENGTH:
        raise ModerationError(
            _("Keep the reason under %(max)s characters.") % {"max": MAX_REASON_LENGTH}
        )
    return reason


def _refuse_unless_running(game: Game) -> None:
    if game.status != Game.Status.RUNNING:
        raise ModerationError(
            _("Game %(game)s is %(status)s, not running.")
            % {"game": game.pk, "status": game.get_status_display()}
        )


def _seat(game: Game, position: int) -> Seat:
    seat = Seat.objects.select_related("player").filter(game=game, position=position).first()
    if seat is None:
        raise ModerationError(_("There is no seat %(seat)s at this table.") % {"seat": position})
    return seat


def _audit(
    *,
    game: Game,
    actor: AbstractBaseUser,
    action: str,
    reason: str,
    seat: Seat | None = None,
    details: dict | None = None,
) -> ModerationAction:
    return ModerationAction.objects.create(
        game=game,
        seat_position=seat.position if seat is not None else None,
        action=action,
        actor=actor if actor.is_authenticated else None,
        reason=reason,
        details=details or {},
    )


def _players_notify(
    game: Game, players: list[Player], kind: str, text: str, args: dict, key: str
) -> None:
    """A bell notification for each member concerned, once per moderation action; their
    open pages hear of it after the commit. ``text`` is marked English (``gettext_noop``):
    each member reads it in their own language."""
    from games.broadcast import user_notified_on_commit
    from games.services.notifications import notification_message

    message = notification_message(text, args)
    for player in players:
        with translation.override(player.language or "en"):
            rendered = phrase_format(message)[:300]
        Notification.objects.get_or_create(
            player=player,
            key=key,
            defaults={"game": game, "kind": kind, "text": rendered, "message": message},
        )
        user_notified_on_commit(player.user_id)


def game_abort(*, game_id: int, actor: AbstractBaseUser, reason: str) -> ModerationAction:
    """Stop a game for good. The reason is shown to the players on the game page."""
    reason = _clean_reason(reason, required=True)
    with transaction.atomic():
        game = _locked(game_id)
        if game.status not in {Game.Status.OPEN, Game.Status.RUNNING}:
            raise ModerationError(
                _("Game %(game)s is already %(status)s.")
                % {"game": game.pk, "status": game.get_status_display()}
            )
        previous = game.status
        updated = Game.objects.filter(pk=game.pk, status=previous).update(
            status=Game.Status.ABORTED,
            abort_reason=reason,
            deadline=None,
            to_move=[],
            finished_at=timezone.now(),
        )
        if not updated:
            raise ModerationError(_("The game changed meanwhile; look again."))
        # Its clock stops: no reminder for a decision nobody will make.
        TurnClock.objects.filter(game=game).delete()
        record = _audit(
            game=game,
            actor=actor,
            action=ModerationAction.Action.ABORT,
            reason=reason,
            details={"previous_status": previous, "version": game.version},
        )
        players = [seat.player for seat in game.seats.select_related("player") if seat.player]
        _players_notify(
            game,
            players,
            "game_aborted",
            gettext_noop("Game #%(game)s was stopped by a moderator: %(reason)s"),
            {"game": game.pk, "reason": reason},
            key=f"moderation:{record.pk}",
        )
        game_updated_on_commit(game.pk, game.version)
    return record


def deadline_extend(
    *, game_id: int, actor: AbstractBaseUser, by: timedelta, reason: str = ""
) -> ModerationAction:
    """Give the seat the game waits for more time on the current decision.

    The extension goes into the decision's turn clock (its start moves later by the same
    amount), not only into ``Game.deadline``: the clock recomputes the deadline whenever
    leave or a tablemate's "+24 h" changes, and would otherwise undo the moderator's time;
    the reminder ladder moves with it.
    """
    reason = _clean_reason(reason, required=False)
    if not timedelta(0) < by <= MAX_DEADLINE_EXTENSION:
        raise ModerationError(_("Extend by more than nothing and at most 30 days."))
    with transaction.atomic():
        game = _locked(game_id)
        _refuse_unless_running(game)
        if game.deadline is None:
            raise ModerationError(_("This game has no deadline running."))
        old_deadline = game.deadline
        # An overdue deadline is extended from now, or the extension could still be in the past.
        shift = max(old_deadline, timezone.now()) + by - old_deadline
        clock = clock_for(game)
        TurnClock.objects.filter(pk=clock.pk, version=clock.version).update(
            started_at=clock.started_at + shift
        )
        # Recomputes Game.deadline (leave included) and the next reminder; tells open pages.
        turn_clock_refresh(game)
        game.refresh_from_db(fields=["deadline"])
        record = _audit(
            game=game,
            actor=actor,
            action=ModerationAction.Action.EXTEND_DEADLINE,
            reason=reason,
            details={
                "old_deadline": old_deadline.isoformat(),
                "new_deadline": game.deadline.isoformat(),
                "by_seconds": int(by.total_seconds()),
                "version": game.version,
            },
        )
    return record


def seat_to_bot(
    *, game_id: int, position: int, actor: AbstractBaseUser, bot_kind: str, reason: str = ""
) -> ModerationAction:
    """A bot plays this seat from now on; if the seat is to act, the bot moves at once.

    The member stays recorded on the seat (``replaced_by_bot`` marks it for the league) and
    keeps seeing their seat's view; only the bot acts for it.
    """
    reason = _clean_reason(reason, required=False)
    with transaction.atomic():
        game = _locked(game_id)
        _refuse_unless_running(game)
        engine = get_engine(game.kind)
        bot_kind = bot_kind_for(engine, bot_kind) or bot_kind
        if bot_kind not in engine.bots:
            raise ModerationError(
                _("“%(bot)s” is not a bot of this game; choose one of %(bots)s.")
                % {"bot": bot_kind, "bots": ", ".join(sorted(engine.bots))}
            )
        seat = _seat(game, position)
        if seat.is_bot:
            raise ModerationError(_("A bot already plays this seat."))
        Seat.objects.filter(pk=seat.pk).update(
            bot_kind=bot_kind, replaced_by_bot=True, bot_since=timezone.now()
        )
        record = _audit(
            game=game,
            actor=actor,
            action=ModerationAction.Action.SEAT_TO_BOT,
            reason=reason,
            seat=seat,
            details={
                "bot_kind": bot_kind,
                "player": seat.player.display_name if seat.player else None,
                "player_id": seat.player_id,
                "version": game.version,
            },
        )
        if position in (game.to_move or []):
            bot_move_owed(game)
        # A bot gets no reminders: the clock drops the ladder for this decision.
        turn_clock_refresh(game)
        game_updated_on_commit(game.pk, game.version)
    return record


def seat_to_substitute(
    *,
    game_id: int,
    position: int,
    actor: AbstractBaseUser,
    substitute: Player,
    reason: str = "",
) -> ModerationAction:
    """Another member takes this seat (a human or a bot's). From now on they see exactly that
    seat's information and nothing of any other; the member they replace becomes a spectator.
    """
    reason = _clean_reason(reason, required=False)
    with transaction.atomic():
        game = _locked(game_id)
        _refuse_unless_running(game)
        seat = _seat(game, position)
        if seat.player_id == substitute.pk and not seat.is_bot:
            raise ModerationError(_("That member already plays this seat."))
        if Seat.objects.filter(game=game, player=substitute).exclude(pk=seat.pk).exists():
            raise ModerationError(
                _("%(member)s already has another seat at this table.")
                % {"member": substitute.display_name}
            )
        previous = seat.player
        Seat.objects.filter(pk=seat.pk).update(
            player=substitute, bot_kind="", consecutive_timeouts=0, bot_since=None
        )
        record = _audit(
            game=game,
            actor=actor,
            action=ModerationAction.Action.SEAT_TO_SUBSTITUTE,
            reason=reason,
            seat=seat,
            details={
                "previous_player": previous.display_name if previous else None,
                "previous_player_id": previous.pk if previous else None,
                "previous_bot_kind": seat.bot_kind,
                "substitute": substitute.display_name,
                "substitute_id": substitute.pk,
                "version": game.version,
            },
        )
        _players_notify(
            game,
            [substitute],
            "seat_substitute",
            gettext_noop("A moderator gave you seat %(seat)s of game #%(game)s."),
            {"seat": position + 1, "game": game.pk},
            key=f"moderation:{record.pk}",
        )
        # The reminders (and any leave) of the decision are now the substitute's.
        turn_clock_refresh(game)
        game_updated_on_commit(game.pk, game.version)
    return record


def table_view_record(*, game_id: int, actor: AbstractBaseUser, reason: str) -> ModerationAction:
    """A moderator opens a table from the admin: the audit trail keeps who, when and why, and
    only then does an invitation-only table open to them (``roles.moderator_acting_on``)."""
    if not roles.is_moderator(actor):
        raise ModerationError(_("Only moderators can open a table from the admin."))
    reason = (reason or "").strip()
    if not reason:
        raise ModerationError(_("Say why you open this table: the audit trail keeps it."))
    reason = _clean_reason(reason, required=False)
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise ModerationError(_("There is no such game."))
    return _audit(
        game=game,
        actor=actor,
        action=ModerationAction.Action.VIEW_TABLE,
        reason=reason,
        details={"status": game.status, "version": game.version},
    )
