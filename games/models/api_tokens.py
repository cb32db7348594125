"""Personal API tokens: how a member's scripts and bots call the JSON API.

Only the token's SHA-256 is stored, never the token: a leaked database cannot be replayed
against the API. The prefix (the token's first characters) lets a member tell tokens apart.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ApiToken(models.Model):
    # A hash, but of a capability: nobody needs to filter or search on it.
    SECRET_FIELDS = ("token_hash",)

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(_("name"), max_length=60)
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    prefix = models.CharField(_("starts with"), max_length=16, editable=False)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)

    class Meta:
        ordering = ["user", "-created_at"]
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"
