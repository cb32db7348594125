"""Who is calling the API: a personal token (``Authorization: Bearer …``) or the session.

A token that is presented but unknown or revoked is refused outright (401) instead of falling
back to the session, so a script never acts as whoever happens to be logged in. The session
counts only for a logged-in member, and then unsafe methods need the CSRF token like any
form on the site: a cookie alone must never be enough to move for someone.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.utils import translation
from django.utils.translation import gettext as _
from ninja.errors import AuthenticationError, HttpError
from ninja.security import APIKeyCookie, HttpBearer
from ninja.utils import check_csrf

from games.limits import API_CALLS, LimitReached, limit_reached, token_key
from games.services.api_tokens import api_token_user


class BearerToken(HttpBearer):
    def __call__(self, request: HttpRequest) -> Any:
        header = request.headers.get(self.header)
        if not header:
            return None
        scheme, _space, token = header.partition(" ")
        if scheme.lower() != self.openapi_scheme or not token.strip():
            raise AuthenticationError(
                message=_("Send your token as “Authorization: Bearer <token>”.")
            )
        return self.authenticate(request, token.strip())

    def authenticate(self, request: HttpRequest, token: str) -> Any:
        user = api_token_user(token)
        if user is None:
            raise AuthenticationError(message=_("That API token is unknown or was revoked."))
        refusal = limit_reached(request, API_CALLS, token_key(token))
        if refusal is not None:
            raise LimitReached(refusal)
        # Code further down (services, middleware-free helpers) reads request.user.
        request.user = user
        _speak_the_members_language(request, user)
        return user


def _speak_the_members_language(request: HttpRequest, user: Any) -> None:
    """A script that names no language (no Accept-Language) is answered in its member's
    profile language, as the site speaks to them; one that names a language gets it (the
    LocaleMiddleware has chosen it already)."""
    if request.headers.get("Accept-Language"):
        return
    player = getattr(user, "player", None)
    language = getattr(player, "language", "")
    if language in dict(settings.LANGUAGES):
        translation.activate(language)
        request.LANGUAGE_CODE = language


class SessionWithCsrf(APIKeyCookie):
    """The logged-in member of the browser session; CSRF-checked for unsafe methods."""

    param_name = settings.SESSION_COOKIE_NAME

    def __init__(self) -> None:
        # ninja's own check (csrf=True) runs before anyone is known to be logged in, which
        # turns an anonymous POST into "CSRF failed" instead of "log in": it is made below,
        # once a member is logged in (no operation of the API is CSRF-exempt).
        super().__init__(csrf=False)

    def authenticate(self, request: HttpRequest, key: str | None) -> Any:
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return None
        if check_csrf(request):
            raise HttpError(
                403,
                _(
                    "The CSRF check failed: send the csrftoken cookie's value in the "
                    "X-CSRFToken header, or use an API token."
                ),
            )
        return user


API_AUTH = [BearerToken(), SessionWithCsrf()]
