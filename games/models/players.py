"""A club member's profile: how they are called, where they live, how they want reminders."""

from __future__ import annotations

import unicodedata
import zoneinfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

# --- Display names: one per member, honest about what they show --------------------------------
# Two names are the same name when they look the same: compared by a key that folds
# compatibility forms (NFKC: a fullwidth "Ａ" is an "A"), case (casefold), whitespace (gone)
# and the Cyrillic and Greek letters drawn like Latin ones. Characters that are not seen, or
# that reorder what follows (bidi controls), are refused outright: a name must show what it is.

DISPLAY_NAME_KEY_MAX = 160

# After casefold, so each maps to the Latin letter its capital or small form is rendered like
# (a Cyrillic "Н" is an "H", a Greek "Ν" an "N").
# fmt: off
_LOOKALIKES = str.maketrans(
    {
        # Cyrillic
        "а": "a", "в": "b", "е": "e", "ѐ": "è", "ё": "ë", "і": "i", "ї": "ï", "ј": "j",
        "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "т": "t", "у": "y",
        "х": "x", "ѕ": "s", "ԁ": "d", "ԛ": "q", "ԝ": "w", "һ": "h", "ӏ": "l",
        # Greek
        "α": "a", "β": "b", "ε": "e", "ζ": "z", "η": "h", "ι": "i", "κ": "k", "μ": "m",
        "ν": "n", "ο": "o", "ρ": "p", "τ": "t", "υ": "y", "χ": "x", "ϲ": "c", "ϳ": "j",
    }
)
# fmt: on

# Invisible although not in a refused category: variation selectors, the combining grapheme
# joiner, Hangul fillers, the braille blank, Mongolian free variation selectors.
_INVISIBLE = {0x034F, 0x115F, 0x1160, 0x2800, 0x3164, 0xFFA0, 0x180B, 0x180C, 0x180D, 0x180F}
_INVISIBLE_RANGES = ((0xFE00, 0xFE0F), (0xE0100, 0xE01EF))
# Control (Cc), format (Cf: bidi controls, zero-width characters, tags), private use (Co),
# surrogates (Cs), unassigned (Cn), and the line and paragraph separators.
_REFUSED_CATEGORIES = {"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"}


DISPLAY_NAME_TAKEN = _("Another member already goes by this name, or one that looks like it.")


def display_name_char_refused(char: str) -> bool:
    code = ord(char)
    if unicodedata.category(char) in _REFUSED_CATEGORIES or code in _INVISIBLE:
        return True
    return any(low <= code <= high for low, high in _INVISIBLE_RANGES)


def display_name_tidy(name: str) -> str:
    """The name as stored: its whitespace trimmed and each run of it one space."""
    return " ".join((name or "").split())


def display_name_key(name: str) -> str:
    """What two names that look alike have in common (compared for uniqueness)."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return "".join(folded.translate(_LOOKALIKES).split())


def display_name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a display name (on its own, whoever else exists), or None."""
    if any(display_name_char_refused(char) for char in name):
        return _(
            "A display name cannot contain invisible characters, control characters or "
            "characters that change the writing direction."
        )
    if not display_name_key(name):
        return _("Choose a display name with letters or digits in it.")
    if len(display_name_key(name)) > DISPLAY_NAME_KEY_MAX:
        return _("This display name is too long.")
    return None


def validate_time_zone(value: str) -> None:
    if value not in zoneinfo.available_timezones():
        raise ValidationError(_("“%(value)s” is not a known time zone."), params={"value": value})


class Player(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player"
    )
    display_name = models.CharField(_("display name"), max_length=40)
    # display_name_key(display_name), kept by save(): unique, so two members never look alike.
    display_name_key = models.CharField(max_length=DISPLAY_NAME_KEY_MAX, editable=False)
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
        constraints = [
            models.UniqueConstraint(
                fields=["display_name_key"], name="games_player_display_name_key_unique"
            )
        ]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return self.display_name

    def save(self, *args, **kwargs) -> None:
        self.display_name_key = display_name_key(self.display_name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "display_name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "display_name_key"}
        super().save(*args, **kwargs)

    def display_name_taken(self) -> bool:
        """Whether another member's name looks the same as this one."""
        others = Player.objects.exclude(pk=self.pk) if self.pk else Player.objects.all()
        return others.filter(display_name_key=display_name_key(self.display_name)).exists()

    def clean_fields(self, exclude=None) -> None:
        self.display_name = display_name_tidy(self.display_name)
        errors = {}
        try:
            super().clean_fields(exclude=exclude)
        except ValidationError as error:
            errors = error.update_error_dict(errors)
        if "display_name" not in errors and not (exclude and "display_name" in exclude):
            problem = display_name_problem(self.display_name)
            if problem is None and self.display_name_taken():
                problem = str(DISPLAY_NAME_TAKEN)
            if problem is not None:
                errors["display_name"] = [ValidationError(problem, code="display_name")]
        if errors:
            raise ValidationError(errors)

    def clean(self) -> None:
        if (self.quiet_hours_start is None) != (self.quiet_hours_end is None):
            raise ValidationError(_("Give both ends of your quiet hours, or neither."))
