"""What organisers keep beside the rulesets: translated rules texts, the moderation audit trail
and balance simulation runs.

Also the model-level guard that a published (or retired) ruleset never changes: whatever saves
a ``Ruleset`` — a service, the admin, a shell — goes through ``Ruleset.save`` and so through
:func:`ruleset_refuse_frozen_change` below.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.signals import pre_save
from django.dispatch import receiver
from django.utils.translation import gettext_lazy as _

from .games import Game
from .rulesets import Ruleset

# Fields that make up a ruleset version. Only the status (published → retired) and its
# timestamps may move once the version is out of draft.
RULESET_FROZEN_FIELDS = ("kind", "name", "slug", "version", "config", "rules_text", "cloned_from")


class PublishedRulesetChange(ValidationError):
    """Someone tried to change a ruleset version that is no longer a draft."""


@receiver(pre_save, sender=Ruleset, dispatch_uid="ruleset_refuse_frozen_change")
def ruleset_refuse_frozen_change(sender, instance: Ruleset, raw: bool = False, **kwargs) -> None:
    # Fixtures (raw) load rows as they are; a brand-new row has nothing to protect.
    if raw or instance.pk is None:
        return
    stored = Ruleset.objects.filter(pk=instance.pk).first()
    if stored is None or stored.status == Ruleset.Status.DRAFT:
        return
    changed = [
        name for name in RULESET_FROZEN_FIELDS if getattr(stored, name) != getattr(instance, name)
    ]
    if instance.status == Ruleset.Status.DRAFT:
        changed.append("status")
    if changed:
        raise PublishedRulesetChange(
            _(
                "%(ruleset)s is %(status)s and can never be changed (%(fields)s). "
                "Clone it to make a new version."
            ),
            params={
                "ruleset": str(stored),
                "status": stored.get_status_display(),
                "fields": ", ".join(changed),
            },
            code="ruleset_frozen",
        )


class RulesText(models.Model):
    """A ruleset's rules in one language (Markdown). English falls back to ``rules_text``.

    Translations may be added or corrected after a version is published: they explain the
    version's rules, they do not change them, and a league pinned to a version must be able
    to get a Portuguese text later without moving to a new version.
    """

    ruleset = models.ForeignKey(
        Ruleset, on_delete=models.CASCADE, related_name="texts", verbose_name=_("ruleset")
    )
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES)
    text = models.TextField(_("rules text (Markdown)"))
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        ordering = ["ruleset", "language"]
        constraints = [
            models.UniqueConstraint(fields=["ruleset", "language"], name="rulestext_language"),
        ]
        verbose_name = _("rules text")
        verbose_name_plural = _("rules texts")

    def __str__(self) -> str:
        return f"{self.ruleset} [{self.language}]"


class ModerationAction(models.Model):
    """One thing a moderator did to a game. Written by the moderation services only."""

    class Action(models.TextChoices):
        ABORT = "abort", _("abort the game")
        EXTEND_DEADLINE = "extend_deadline", _("extend the deadline")
        SEAT_TO_BOT = "seat_to_bot", _("hand a seat to a bot")
        SEAT_TO_SUBSTITUTE = "seat_to_substitute", _("hand a seat to a substitute")
        VIEW_TABLE = "view_table", _("open an invitation-only table")

    # PROTECT: the audit trail outlives nothing it describes; a moderated game is aborted,
    # never deleted.
    game = models.ForeignKey(
        Game, on_delete=models.PROTECT, related_name="moderation_actions", verbose_name=_("game")
    )
    seat_position = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    action = models.CharField(_("action"), max_length=24, choices=Action.choices)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("moderator"),
    )
    reason = models.TextField(_("reason"), blank=True)
    details = models.JSONField(_("details"), default=dict, blank=True)
    created_at = models.DateTimeField(_("when"), auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        permissions = [("moderate_game", _("Can use the moderation actions on games"))]
        verbose_name = _("moderation action")
        verbose_name_plural = _("moderation actions")

    def __str__(self) -> str:
        return f"{self.get_action_display()} · {self.game}"


class SimulationRun(models.Model):
    """N bot games played with one ruleset in Celery, and what they say about its balance."""

    # Bots only, but the seed deals every game of the run: nobody needs to filter on it.
    SECRET_FIELDS = ("seed",)

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")
        FAILED = "failed", _("failed")

    MIN_GAMES = 1
    MAX_GAMES = 5000

    ruleset = models.ForeignKey(
        Ruleset,
        on_delete=models.CASCADE,
        related_name="simulation_runs",
        verbose_name=_("ruleset"),
    )
    games_requested = models.PositiveIntegerField(_("games"))
    players = models.PositiveSmallIntegerField(_("players"))
    bots = models.JSONField(_("bots"), default=list)
    seed = models.CharField(_("seed"), max_length=64)
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.QUEUED
    )
    games_done = models.PositiveIntegerField(_("games played"), default=0)
    # Running totals (see games.services.simulation); readable summaries are derived.
    results = models.JSONField(_("results"), null=True, blank=True)
    # The same simulation on the version this ruleset was cloned from, for comparison.
    baseline = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("compared with"),
    )
    error = models.TextField(_("error"), blank=True)
    # Who may run it (games/services/simulation.py): a queued or running run whose lease has
    # run out is owed — its message was lost or its worker died — and the sweep queues it
    # again under the next attempt number; a runner of an older attempt stops at its next save.
    attempt = models.PositiveIntegerField(_("attempt"), default=0)
    lease_until = models.DateTimeField(_("lease until"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        # The sweep reads only the unfinished runs whose lease ran out.
        indexes = [models.Index(fields=["status", "lease_until"], name="simulation_owed_idx")]
        verbose_name = _("simulation run")
        verbose_name_plural = _("simulation runs")

    def __str__(self) -> str:
        return f"{self.ruleset} × {self.games_requested}"

    @property
    def is_done(self) -> bool:
        return self.status in {self.Status.FINISHED, self.Status.FAILED}

    @property
    def progress_percent(self) -> int:
        if not self.games_requested:
            return 0
        return min(100, self.games_done * 100 // self.games_requested)
