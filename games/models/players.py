"""A club member's profile: how they are called, where they live, how they want reminders."""

from __future__ import annotations

import zoneinfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _


def validate_time_zone(value: str) -> None:
    if value not in zoneinfo.available_timezones():
        raise ValidationError(_("“%(value)s” is not a known time zone."), params={"value": value})


class Player(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player"
    )
    display_name = models.CharField(_("display name"), max_length=40)
    time_zone = models.CharField(
        _("time zone"), max_length=64, default="UTC", validators=[validate_time_zone]
    )
    language = models.CharField(
        _("language"), max_length=8, choices=settings.LANGUAGES, default="en"
    )
    # Reminder preferences: which channels, and when to keep quiet (in the member's time zone).
    remind_by_email = models.BooleanField(_("reminders by email"), default=True)
    remind_on_site = models.BooleanField(_("reminders on the site"), default=True)
    daily_digest = models.BooleanField(_("daily “your turn” digest"), default=True)
    quiet_hours_start = models.TimeField(_("quiet hours start"), null=True, blank=True)
    quiet_hours_end = models.TimeField(_("quiet hours end"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["display_name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return self.display_name

    def clean(self) -> None:
        if (self.quiet_hours_start is None) != (self.quiet_hours_end is None):
            raise ValidationError(_("Give both ends of your quiet hours, or neither."))
