"""Web Push: the devices members turned push on for, and the pushes the site owes them.

``PushMessage`` is the outbox and the ledger in one: a push owed is a row (unique per member
and cause, like the bell's ``Notification.key``) written in the transaction that caused it; a
sender claims it with a conditional UPDATE, decides whether it still goes out (presence, quiet
hours, a newer push about the same game, a decision already made) and records the outcome.
``PushDelivery`` is written before each device is contacted, so a retried message never
reaches one device twice.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class PushSubscription(models.Model):
    """One browser (on a phone or a computer) a member turned push notifications on in."""

    # Whoever holds the endpoint and keys can push to the member's browser.
    SECRET_FIELDS = ("endpoint", "p256dh", "auth")

    player = models.ForeignKey(
        "games.Player", on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    # The push service's address for this browser: a capability, never shown in a page.
    endpoint = models.CharField(max_length=1000, unique=True)
    # The browser's keys for encrypting the payload (RFC 8291), base64url.
    p256dh = models.CharField(max_length=100)
    auth = models.CharField(max_length=40)
    device = models.CharField(_("device"), max_length=80)
    created_at = models.DateTimeField(auto_now_add=True)
    last_pushed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("push device")
        verbose_name_plural = _("push devices")

    def __str__(self) -> str:
        return self.device


class PushMessage(models.Model):
    """A push owed to a member: sent once, or held back for a recorded reason."""

    class Outcome(models.TextChoices):
        SENT = "sent", _("sent")
        PRESENT = "present", _("not sent: the member had the game open")
        STALE = "stale", _("not sent: the decision was made already")
        QUIET = "quiet", _("not sent: quiet hours until it no longer mattered")
        SUPERSEDED = "superseded", _("not sent: a newer push about the same game")
        NO_DEVICE = "no_device", _("not sent: no device")
        EXPIRED = "expired", _("not sent: too late")
        FAILED = "failed", _("failed at the push service")

    player = models.ForeignKey("games.Player", on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    kind = models.CharField(max_length=32)
    # What caused it ("turn:<game>:<version>:<seat>", a notification's key): once per cause.
    key = models.CharField(max_length=120)
    # The text as a marked English message and its arguments: rendered in the member's
    # language when it is sent, not when it was owed.
    text = models.CharField(max_length=300)
    # Its plural, when the text has one (chosen by args["count"]).
    plural = models.CharField(max_length=300, blank=True)
    args = models.JSONField(default=dict, blank=True)
    url = models.CharField(max_length=200, blank=True)
    # The game version whose decision the push is about: stale once the game moved on.
    decision_version = models.PositiveIntegerField(null=True, blank=True)
    not_before = models.DateTimeField()
    expires_at = models.DateTimeField()
    claimed_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    outcome = models.CharField(max_length=12, choices=Outcome.choices, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "key"], name="push_once_per_cause")
        ]
        indexes = [
            # The sweep reads only pushes still owed.
            models.Index(fields=["not_before"], condition=models.Q(outcome=""), name="push_outbox"),
            models.Index(fields=["player", "game"], name="push_player_game"),
        ]
        verbose_name = _("push message")
        verbose_name_plural = _("push messages")

    def __str__(self) -> str:
        return f"{self.player_id}:{self.key}"


class PushDelivery(models.Model):
    """One message handed to one device's push service (at most once)."""

    class Failure(models.TextChoices):
        ENDPOINT = "endpoint", _("not sent: the endpoint is not a known push service's")
        UNREACHABLE = "unreachable", _("the push service could not be reached")
        REFUSED = "refused", _("the push service refused the push")
        SIGNING = "signing", _("the push could not be signed (VAPID)")
        KEYS = "keys", _("the push could not be encrypted for the device's keys")
        ERROR = "error", _("an unexpected error")

    message = models.ForeignKey(PushMessage, on_delete=models.CASCADE, related_name="deliveries")
    subscription = models.ForeignKey(
        PushSubscription, on_delete=models.CASCADE, related_name="deliveries"
    )
    # The push service's HTTP answer (None while the request is under way, or if none came).
    status = models.PositiveSmallIntegerField(null=True, blank=True)
    # Why it did not reach the device (blank while under way and once delivered).
    failure = models.CharField(max_length=12, choices=Failure.choices, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["message", "subscription"], name="push_delivery_once")
        ]
        verbose_name = _("push delivery")
        verbose_name_plural = _("push deliveries")

    def __str__(self) -> str:
        return f"{self.message_id}→{self.subscription_id}"
