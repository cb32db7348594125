"""Turn clocks: the running decision's clock, the reminder ledger, "+24 h" grants, leave,
table notices, standing orders for Colt Express' Stealin', and the daily digest ledger.

``Game.deadline`` (indexed) is the moment the clock acts; ``TurnClock`` keeps what the
reminder ladder needs beside it (when the decision began, the next reminder, indexed) so the
per-minute sweep only ever reads rows that are due. Every side effect has a unique ledger row
(``ReminderSent``, ``DigestSent``, ``DeadlineExtension``) so a retried or overlapping sweep
cannot do it twice.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from .games import Game


class TurnClock(models.Model):
    """The clock of the decision a running game waits for (one row per game, replaced on
    every move). ``version`` is the game version the decision belongs to: a clock whose
    version is behind the game's is stale and is ignored."""

    game = models.OneToOneField(
        Game, primary_key=True, on_delete=models.CASCADE, related_name="clock"
    )
    version = models.PositiveIntegerField()
    started_at = models.DateTimeField()
    # The next ladder step to send (index into the reminder points) and when it is due;
    # NULL once every step is sent or the game no longer waits on anyone.
    next_step = models.PositiveSmallIntegerField(default=0)
    next_reminder_at = models.DateTimeField(null=True, blank=True, db_index=True)

    class Meta:
        verbose_name = _("turn clock")
        verbose_name_plural = _("turn clocks")

    def __str__(self) -> str:
        return f"{self.game_id}@{self.version}"


class ReminderSent(models.Model):
    """One reminder step for one seat's decision: the ledger that makes it happen once.

    ``outcome`` says what was done; the email is an outbox entry (``email_due``) sent after
    the ledger row commits and marked ``email_sent_at``: a worker that dies in between leaves
    it for the next sweep to retry once its claim goes stale.
    """

    class Outcome(models.TextChoices):
        SENT = "sent", _("sent")
        SITE_ONLY = "site_only", _("sent on the site only (quiet hours)")
        PRESENT = "present", _("not sent: the member had the game open")
        NO_CHANNEL = "no_channel", _("not sent: the member turned reminders off")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    version = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    step = models.PositiveSmallIntegerField()
    player = models.ForeignKey("games.Player", on_delete=models.CASCADE, related_name="+")
    outcome = models.CharField(max_length=12, choices=Outcome.choices)
    deadline = models.DateTimeField()
    email_due = models.BooleanField(default=False)
    email_claimed_at = models.DateTimeField(null=True, blank=True)
    email_sent_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game", "version", "seat", "step"], name="reminder_once"
            )
        ]
        indexes = [
            models.Index(
                fields=["created_at"],
                condition=models.Q(email_due=True, email_sent_at__isnull=True),
                name="reminder_email_outbox",
            )
        ]
        verbose_name = _("reminder sent")
        verbose_name_plural = _("reminders sent")

    def __str__(self) -> str:
        return f"{self.game_id}@{self.version} seat {self.seat} step {self.step}"


class DeadlineExtension(models.Model):
    """A "+24 h" granted by a tablemate to a slow player: once per seat per game."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="extensions")
    seat = models.PositiveSmallIntegerField()
    version = models.PositiveIntegerField()
    granted_by = models.ForeignKey("games.Player", on_delete=models.CASCADE, related_name="+")
    hours = models.PositiveSmallIntegerField(default=24)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="extension_once_per_seat")
        ]
        verbose_name = _("deadline extension")
        verbose_name_plural = _("deadline extensions")

    def __str__(self) -> str:
        return f"{self.game_id}/{self.seat} +{self.hours}h"


class Leave(models.Model):
    """Days a member declared they are away (dates in their own time zone, both included).
    Their clocks do not run during it."""

    player = models.ForeignKey("games.Player", on_delete=models.CASCADE, related_name="leaves")
    start = models.DateField(_("first day"))
    end = models.DateField(_("last day"))
    reason = models.CharField(_("reason (shown to tablemates)"), max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["start"]
        indexes = [models.Index(fields=["player", "end"], name="leave_player_end")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(end__gte=models.F("start")), name="leave_ordered"
            )
        ]
        verbose_name = _("leave")
        verbose_name_plural = _("leaves")

    def __str__(self) -> str:
        return f"{self.player_id}: {self.start}–{self.end}"

    @property
    def days(self) -> int:
        return (self.end - self.start).days + 1


class TableNotice(models.Model):
    """Something the clock tells the whole table (a seat handed to a bot, a "+24 h", a
    member on leave). Public: shown in the game's log beside the moves."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="notices")
    kind = models.CharField(max_length=32)
    # English text with %(name)s placeholders, translated when shown (like engine events).
    text = models.CharField(max_length=300)
    args = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "created_at", "pk"]
        indexes = [models.Index(fields=["game", "created_at"], name="notice_game_created")]
        verbose_name = _("table notice")
        verbose_name_plural = _("table notices")

    def __str__(self) -> str:
        return f"{self.game_id}: {self.kind}"


class StandingOrder(models.Model):
    """Colt Express: how a player wants one of their played cards carried out when it
    resolves, so an asynchronous Stealin' does not wait on them for every card.

    The card is named by the round (the engine's 0-based round index) and its place in that
    round's pile, which is exactly what the engine's pending choice names.
    """

    # The card (and what to do with it) may still lie face down on the pile.
    SECRET_FIELDS = ("card", "preference")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="standing_orders")
    seat = models.PositiveSmallIntegerField()
    round = models.PositiveSmallIntegerField()
    pile_index = models.PositiveSmallIntegerField()
    card = models.CharField(max_length=16)
    preference = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)
    # Set when the order was carried out: the GameEvent seq of that move (the log marks it).
    applied_seq = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["game", "round", "pile_index"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "round", "pile_index"], name="standing_order_per_card"
            )
        ]
        verbose_name = _("standing order")
        verbose_name_plural = _("standing orders")

    def __str__(self) -> str:
        # Not the card: the admin names related rows by this (a game's delete confirmation).
        return f"{self.game_id} r{self.round}#{self.pile_index}"


class DigestSent(models.Model):
    """The daily "your turn" digest went to this member on this (their local) day."""

    player = models.ForeignKey("games.Player", on_delete=models.CASCADE, related_name="+")
    day = models.DateField()
    games = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["player", "day"], name="digest_once_a_day")]
        verbose_name = _("digest sent")
        verbose_name_plural = _("digests sent")

    def __str__(self) -> str:
        return f"{self.player_id} {self.day}"
