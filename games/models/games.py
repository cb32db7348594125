"""Tables: a Game, its Seats and its append-only log of GameEvents.

``Game.state`` is the engine's JSON state and holds secrets (hands, decks, the seed); it is
only ever read through ``engine.view`` before anything reaches a player.
"""

from __future__ import annotations

from collections.abc import Hashable
from functools import cached_property
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .json_fields import JSONTextField, ReadFastJSONField
from .rulesets import Ruleset


class Game(models.Model):
    # Fields that hold a secret (games/models/secrets.py): never shown, filtered, searched or
    # ordered on in the admin. The seed and the state give the whole game away; the log's
    # copy holds private events; the setup args name the seats' dealt identities and order.
    SECRET_FIELDS = ("seed", "state", "recent_events", "setup_args")

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")
        ABORTED = "aborted", _("aborted")
        CANCELLED = "cancelled", _("cancelled")

    ruleset = models.ForeignKey(Ruleset, on_delete=models.PROTECT, related_name="games")
    kind = models.CharField(max_length=16, choices=Ruleset.Kind.choices)
    # The exact config the table plays (the ruleset's config with the chosen options folded
    # in), so a later ruleset version can never change a running game.
    config = ReadFastJSONField(default=dict)
    options = ReadFastJSONField(default=dict, blank=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.OPEN)
    seats_count = models.PositiveSmallIntegerField()
    invite_only = models.BooleanField(default=False)
    # "Play against bots": a member alone with hard bots; no rating counts it.
    practice = models.BooleanField(default=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    turn_time_limit = models.DurationField(_("turn time limit"))
    # The seed is secret until the game ends; its SHA-256 is shown from the start.
    seed = models.CharField(max_length=64)
    seed_hash = models.CharField(max_length=64)
    # What engine.setup was given besides config, seat count and seed (a league fixture's
    # first player and identities): a replay must pass the same to rebuild the same game.
    setup_args = ReadFastJSONField(default=dict, blank=True)
    state = ReadFastJSONField(null=True, blank=True)
    version = models.PositiveIntegerField(default=0)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    # What a committed change still owes (games/services/followups.py), kept here rather than
    # only in a Celery message so a lost message or a killed worker costs seconds: the
    # decision waiting is the site's to make (a bot's move, or a Colt Express standing order's
    # answer), and a finished game's results are still to be counted. Indexed: the sweep
    # reads only what is due.
    auto_move_due_at = models.DateTimeField(null=True, blank=True, db_index=True)
    results_due_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # The seats that must act now (engine.to_move), kept beside the state so the lobby can put
    # "my turn" first without loading every game's state.
    to_move = ReadFastJSONField(default=list, blank=True)
    # The log's last lines, written by each move with its state (games/selectors/log_copy.py): the
    # page, its fragment, every push and the move's answer read them with the game, not in a query
    # of their own. A copy: the events table is the record. Holds private events, like state. Kept
    # as text, not jsonb: nothing queries into it, and jsonb costs each read its output.
    recent_events = JSONTextField(default=list, blank=True, editable=False)
    abort_reason = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "-created_at"], name="game_status_created")]
        verbose_name = _("game")
        verbose_name_plural = _("games")

    def __str__(self) -> str:
        return f"#{self.pk} {self.get_kind_display()}"

    @cached_property
    def read_cache(self) -> dict[Hashable, Any]:
        """What has been read about this copy of the game, by key: its parsed state, the log's
        last lines, the clock panel's reads (``games.selectors.tables.read_once``). A copy is
        loaded for one request, one broadcast or one move, and its cache goes with it."""
        return {}

    @property
    def is_over(self) -> bool:
        return self.status in {self.Status.FINISHED, self.Status.ABORTED, self.Status.CANCELLED}


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    player = models.ForeignKey(
        "games.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="seats"
    )
    bot_kind = models.CharField(max_length=32, blank=True)
    identity = models.CharField(_("gang or character"), max_length=32, blank=True)
    score = models.IntegerField(null=True, blank=True)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    breakdown = models.JSONField(null=True, blank=True)
    timeouts = models.PositiveSmallIntegerField(default=0)
    consecutive_timeouts = models.PositiveSmallIntegerField(default=0)
    # Set when the seat was handed to a bot mid-game (timeouts or a moderator): leagues care.
    replaced_by_bot = models.BooleanField(default=False)
    # When a bot took over a member's seat (the seat shows "bot for <member> since …").
    bot_since = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="seat_game_position"),
            models.UniqueConstraint(
                fields=["game", "player"],
                condition=models.Q(player__isnull=False),
                name="seat_game_player",
            ),
        ]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")

    def __str__(self) -> str:
        return f"{self.game_id}/{self.position}"

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_kind)

    @property
    def is_stand_in(self) -> bool:
        """A bot plays a member's seat for them (timeouts or a moderator)."""
        return bool(self.bot_kind) and self.player_id is not None


class GameEvent(models.Model):
    """One applied action and what it caused. Append-only: rows are never updated."""

    # The submitted action may name a face-down card; private events are some seats' only.
    SECRET_FIELDS = ("action", "private_events")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # The action as submitted: may hold secrets (a face-down card), so only the replay and
    # verify code reads it, always through engine views.
    action = ReadFastJSONField()
    # Events everybody may see, and events meant for some seats only (each carries
    # "private_to"); the log shows a viewer only their own private ones.
    public_events = ReadFastJSONField(default=list)
    private_events = ReadFastJSONField(default=list)
    by_clock = models.BooleanField(default=False)
    # A move gives its own time (the moment its deadline counts from, and the time the
    # game's copy of the log shows: games/selectors/log_copy.py); anything else, now.
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="gameevent_game_seq"),
        ]
        verbose_name = _("game event")
        verbose_name_plural = _("game events")

    def __str__(self) -> str:
        return f"{self.game_id}#{self.seq}"
