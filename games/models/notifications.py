"""Site notifications: the bell. Sent once per cause (a unique key), read or unread."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class Notification(models.Model):
    player = models.ForeignKey(
        "games.Player", on_delete=models.CASCADE, related_name="notifications"
    )
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    kind = models.CharField(max_length=32)
    text = models.CharField(max_length=300)
    url = models.CharField(max_length=200, blank=True)
    # What caused it (e.g. "reminder:<game>:<version>:<step>"): a second attempt to send the
    # same notification hits the unique constraint instead of spamming the member.
    key = models.CharField(max_length=120, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["player", "read_at"], name="notification_unread")]
        constraints = [
            models.UniqueConstraint(
                fields=["player", "key"], condition=~models.Q(key=""), name="notification_once"
            )
        ]
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")

    def __str__(self) -> str:
        return self.text
