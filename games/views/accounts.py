"""Account pages: log-in (throttled), sign-up, password reset and the member's own profile."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from games.forms.accounts import LoginForm, ProfileForm, SignUpForm
from games.limits import (
    PASSWORD_RESET_ADDRESS,
    PASSWORD_RESET_CLIENT,
    address_key,
    client_ip,
    limit_reached,
    limited_response,
)
from games.services.accounts import player_get_or_create, player_update, user_sign_up
from games.services.clocks.reminders import site_url


def remember_language(response: HttpResponse, language: str) -> HttpResponse:
    """Switch this browser to the member's language, the way Django's set_language does."""
    translation.activate(language)
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
    return response


class LoginView(auth_views.LoginView):
    form_class = LoginForm
    redirect_authenticated_user = True

    def form_valid(self, form):
        response = super().form_valid(form)
        player = player_get_or_create(user=form.get_user())
        return remember_language(response, player.language)


login_view = LoginView.as_view()


class PasswordResetView(auth_views.PasswordResetView):
    """Django's reset page, limited per address asked for and per client (games/limits.py):
    past either limit no email is sent and the page says why, with status 429. The link in
    the email is built from the site's configured address (``NAPAD_SITE_URL``, as every other
    email's links are): by default Django takes the scheme and the ``Host`` header of the
    request, which the sender chooses — a link to another port or host."""

    def form_valid(self, form):
        # Both limits are counted every time, whichever refuses.
        by_client = limit_reached(self.request, PASSWORD_RESET_CLIENT, client_ip(self.request))
        by_address = limit_reached(
            self.request, PASSWORD_RESET_ADDRESS, address_key(form.cleaned_data["email"])
        )
        refusal = by_client or by_address
        if refusal is not None:
            form.add_error(None, refusal.message)
            return limited_response(
                self.request,
                refusal,
                template=self.template_name,
                context=self.get_context_data(form=form),
            )
        # Read on each request, so a settings change (or a test's) is followed. The email's
        # context is Django's with these values put over it (``extra_email_context``).
        site = urlsplit(site_url())
        domain = site.netloc + site.path
        self.extra_email_context = {
            **(self.extra_email_context or {}),
            "protocol": site.scheme,
            "domain": domain,
            "site_name": domain,
        }
        return super().form_valid(form)


password_reset_view = PasswordResetView.as_view()


@sensitive_post_parameters("password1", "password2")
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = ""
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        language = translation.get_language() or settings.LANGUAGE_CODE
        if language not in dict(settings.LANGUAGES):
            language = settings.LANGUAGE_CODE
        try:
            user = user_sign_up(
                username=form.cleaned_data["username"],
                email=form.cleaned_data["email"],
                password=form.cleaned_data["password1"],
                display_name=form.cleaned_data["display_name"],
                language=language,
                time_zone=form.cleaned_data["time_zone"],
            )
        except ValidationError as error:
            # Taken by someone who signed up meanwhile: said next to the field, as any error.
            form.add_error(None, error)
            return render(request, "registration/signup.html", {"form": form, "next": next_url})
        login(request, user, backend=settings.AUTHENTICATION_BACKENDS[0])
        messages.success(
            request,
            _("Welcome to the club, %(name)s! Check your profile for reminders and time zone.")
            % {"name": user.player.display_name},
        )
        response = redirect(next_url or "profile")
        return remember_language(response, language)
    return render(request, "registration/signup.html", {"form": form, "next": next_url})


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    player = player_get_or_create(user=request.user)
    form = ProfileForm(request.POST or None, instance=player)
    if request.method == "POST" and form.is_valid():
        fields = {name: form.cleaned_data[name] for name in ProfileForm.Meta.fields}
        try:
            player_update(player=player, email=form.cleaned_data["email"], **fields)
        except ValidationError as error:
            # The name was taken by someone else meanwhile.
            form.add_error(None, error)
            player.refresh_from_db()
            return render(request, "accounts/profile.html", {"form": form, "player": player})
        response = redirect("profile")
        remember_language(response, player.language)
        # Said in the newly chosen language: the page that follows speaks it too.
        messages.success(request, _("Your profile is saved."))
        return response
    return render(request, "accounts/profile.html", {"form": form, "player": player})


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Django's language switch; for a member it also becomes the profile's language.

    Otherwise the next log-in would switch the member back, and emails would keep arriving
    in the old language.
    """
    response = django_set_language(request)
    try:
        # A page kept from before Portuguese became "pt-br" still posts "pt": the same choice.
        language = translation.get_supported_language_variant(request.POST.get("language", ""))
    except LookupError:
        language = ""
    if request.user.is_authenticated and language in dict(settings.LANGUAGES):
        player = player_get_or_create(user=request.user)
        if player.language != language:
            player_update(player=player, language=language)
    return response
