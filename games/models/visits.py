"""What each member last saw of a table, for "since your last visit".

One row per (game, member): seated players and spectating members alike. ``seen_version`` is
the last version shown to them (a page, an HTMX answer, a socket delivery while the page was
open); ``since_version`` is where the "since your last visit" panel starts, kept until they act
at the table or dismiss the panel. Both are versions of the game, i.e. ``GameEvent.seq``: the
panel reads the events after ``since_version`` with one bounded query.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from .games import Game


class TableVisit(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="visits")
    player = models.ForeignKey(
        "games.Player", on_delete=models.CASCADE, related_name="table_visits"
    )
    seen_version = models.PositiveIntegerField(default=0)
    since_version = models.PositiveIntegerField(default=0)
    seen_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="tablevisit_game_player"),
        ]
        verbose_name = _("table visit")
        verbose_name_plural = _("table visits")

    def __str__(self) -> str:
        return f"{self.game_id}/{self.player_id}@{self.seen_version}"
