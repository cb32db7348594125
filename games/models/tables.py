"""Around a table: who is invited to an invite-only table, and the table chat."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from .games import Game


class Invitation(models.Model):
    """A member invited to an invite-only table; only they (and the creator) may join it."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="invitations")
    player = models.ForeignKey("games.Player", on_delete=models.CASCADE, related_name="invitations")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="invitation_game_player"),
        ]
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")

    def __str__(self) -> str:
        return f"{self.game_id} → {self.player_id}"


class ChatMessage(models.Model):
    """One line of a table's chat. Shown escaped; never edited."""

    MAX_LENGTH = 500

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat_messages")
    player = models.ForeignKey(
        "games.Player", on_delete=models.CASCADE, related_name="chat_messages"
    )
    text = models.CharField(_("message"), max_length=MAX_LENGTH)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "created_at", "pk"]
        indexes = [models.Index(fields=["game", "-created_at"], name="chat_game_created")]
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")

    def __str__(self) -> str:
        return self.text[:40]
