"""Rulesets: a game's rules as versioned data. A published version never changes."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext

from games.engines import KINDS


class Ruleset(models.Model):
    class Kind(models.TextChoices):
        NAPAD = "napad", _("To jest napad!")
        COLT = "colt", _("Colt Express")

    class Status(models.TextChoices):
        DRAFT = "draft", _("draft")
        PUBLISHED = "published", _("published")
        RETIRED = "retired", _("retired")

    kind = models.CharField(_("game"), max_length=16, choices=Kind.choices)
    name = models.CharField(_("name"), max_length=100)
    slug = models.SlugField(_("slug"), max_length=80)
    version = models.PositiveIntegerField(_("version"), default=1)
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.DRAFT
    )
    config = models.JSONField(_("config"), default=dict)
    rules_text = models.TextField(_("rules text (Markdown)"), blank=True)
    cloned_from = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="clones"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    published_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["kind", "slug", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["slug", "version"], name="ruleset_slug_version"),
            models.CheckConstraint(
                condition=models.Q(kind__in=list(KINDS)), name="ruleset_kind_known"
            ),
        ]
        verbose_name = _("ruleset")
        verbose_name_plural = _("rulesets")

    def __str__(self) -> str:
        return f"{self.display_name} v{self.version}"

    @property
    def display_name(self) -> str:
        """The name in the reader's language: the default rulesets' names are translated
        (marked with the "ruleset name" context); an organiser's own names stay as written."""
        return pgettext("ruleset name", self.name) if self.name else self.name

    @property
    def is_published(self) -> bool:
        return self.status == self.Status.PUBLISHED
