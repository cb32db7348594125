"""Site notifications: the bell. Sent once per cause (a unique key), read or unread.

A notification keeps its *message* — the English text (marked for translation) and its
arguments — so it reads in the member's language of the moment, not the one they had when it
was sent. ``text`` is that message as first written (in the member's language then): what
older rows, written before messages were kept, still show."""

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
    # {"text": English message, "args": {...}, "plural"?: English plural} (games.text.wording).
    message = models.JSONField(default=dict, blank=True)
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

    @property
    def display_text(self) -> str:
        """The notification in the active language (its message), or as it was written."""
        from games.text.wording import phrase_format

        if isinstance(self.message, dict) and self.message.get("text"):
            return phrase_format(self.message)[:300]
        return self.text
