"""Forms for members: sign-up, log-in with throttling, and the profile."""

from __future__ import annotations

import zoneinfo

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from games.limits import LOGIN_MESSAGE, client_ip, login_failure_record, login_refusal
from games.models import Player
from games.models.players import DISPLAY_NAME_TAKEN, display_name_problem, display_name_tidy

__all__ = ["client_ip"]  # (the limits' client address; imported from here by older code)


def time_zone_choices() -> list[tuple[str, str]]:
    names = sorted(zoneinfo.available_timezones() - {"localtime"})
    return [(name, name.replace("_", " ")) for name in names]


class ThrottledLoginMixin:
    """Refuse log-in attempts once a username or address has failed too often.

    Checked before the password, so a guess made while throttled learns nothing.
    """

    error_messages = {**AuthenticationForm.error_messages, "throttled": LOGIN_MESSAGE}

    def clean(self):
        # The counts live in games/limits.py; a success starts the username's count afresh
        # (it is keyed by the member's last log-in).
        username = self.cleaned_data.get("username") or ""
        if login_refusal(self.request, username) is not None:
            raise ValidationError(self.error_messages["throttled"], code="throttled")
        try:
            return super().clean()
        except ValidationError as exc:
            if getattr(exc, "code", None) == "invalid_login":
                login_failure_record(self.request, username)
            raise


class LoginForm(ThrottledLoginMixin, AuthenticationForm):
    """The site's log-in form."""


class AdminLoginForm(ThrottledLoginMixin, AdminAuthenticationForm):
    """The admin's log-in form, throttled the same way (it checks the same passwords)."""

    error_messages = {
        **AdminAuthenticationForm.error_messages,
        "throttled": ThrottledLoginMixin.error_messages["throttled"],
    }


_AUTOCOMPLETE = {"username": "username", "email": "email", "display_name": "nickname"}


class SignUpForm(UserCreationForm):
    email = forms.EmailField(
        label=_("Email"),
        help_text=_("For password resets and turn reminders. Never shown to other members."),
    )
    display_name = forms.CharField(
        label=_("Display name"),
        max_length=Player._meta.get_field("display_name").max_length,
        help_text=_("How other members see you at the table."),
    )
    # Filled in by the browser (static/js/timezone.js); a bad or missing value means UTC.
    time_zone = forms.CharField(required=False, widget=forms.HiddenInput)

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email", "display_name")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Django's sign-up form offers a "usable password: no" choice meant for the admin.
        self.fields.pop("usable_password", None)
        for name in ("username", "email", "display_name"):
            self.fields[name].widget.attrs.setdefault("autocomplete", _AUTOCOMPLETE[name])

    def clean_email(self) -> str:
        email = self.cleaned_data["email"].strip()
        if get_user_model().objects.filter(email__iexact=email).exists():
            raise ValidationError(
                _("A member with this email address already exists."), code="email_taken"
            )
        return email

    def clean_display_name(self) -> str:
        name = display_name_tidy(self.cleaned_data["display_name"])
        problem = display_name_problem(name)
        if problem is None and Player(display_name=name).display_name_taken():
            problem = DISPLAY_NAME_TAKEN
        if problem is not None:
            raise ValidationError(problem, code="display_name")
        return name

    def clean_time_zone(self) -> str:
        value = self.cleaned_data.get("time_zone") or ""
        return value if value in zoneinfo.available_timezones() else "UTC"


class ProfileForm(forms.ModelForm):
    email = forms.EmailField(
        label=_("Email"), help_text=_("For password resets and turn reminders. Never shown.")
    )

    class Meta:
        model = Player
        fields = [
            "display_name",
            "time_zone",
            "language",
            "remind_by_email",
            "remind_on_site",
            "daily_digest",
            "quiet_hours_start",
            "quiet_hours_end",
        ]
        widgets = {
            "quiet_hours_start": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
            "quiet_hours_end": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        }
        help_texts = {
            "time_zone": _("Deadlines and dates are shown in this time zone."),
            "language": _("The language of the site and of the emails we send you."),
            "quiet_hours_start": _("No reminders between these times (your time zone)."),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["time_zone"].widget = forms.Select(choices=time_zone_choices())
        self.fields["email"].initial = self.instance.user.email
        self.order_fields(["display_name", "email"])

    def clean_email(self) -> str:
        email = self.cleaned_data["email"].strip()
        others = get_user_model().objects.exclude(pk=self.instance.user_id)
        if others.filter(email__iexact=email).exists():
            raise ValidationError(
                _("A member with this email address already exists."), code="email_taken"
            )
        return email
