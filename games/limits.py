"""Fair limits: how much one member, token or address may do in a while, in one place.

Every limit is named here with its setting and the message a member reads when it is reached
(docs/limits.md lists them). The rates are counted by django-ratelimit in the cache named by
``RATELIMIT_USE_CACHE`` (``napad_site/failover_cache.py``: the default cache, or this
process's memory while that is not answering). One more limit is a count of rows, not a rate:
how many tables a member may have open and waiting at once.

A limit reached answers 429 with its message and changes nothing: the views call
:func:`limit_reached` before they act and :func:`limited_response` to answer (a page, the
HTMX fragment the caller names, or JSON for the API).
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import checks
from django.db.models import Max
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from django_ratelimit.core import get_usage

from games.models import Game


@dataclass(frozen=True)
class Limit:
    """A rate: at most so many of something per period, counted per ``per``."""

    group: str  # the name django-ratelimit counts under
    setting: str  # the setting holding the rate ("10/h")
    per: str  # what is counted separately: member, token, address, client or username
    message: Promise

    def rate(self) -> str | tuple[int, int]:
        return getattr(settings, self.setting)


OPEN_TABLES = Limit(
    "napad.open-tables",
    "NAPAD_LIMIT_OPEN_TABLES",
    "member",
    _("You have opened a lot of tables in a short time."),
)
PRACTICE = Limit(
    "napad.practice",
    "NAPAD_LIMIT_PRACTICE",
    "member",
    _("You have started a lot of practice games in a short time."),
)
CHAT = Limit(
    "napad.chat",
    "NAPAD_LIMIT_CHAT",
    "member",
    _("You are writing faster than the table can read; your message was not sent."),
)
API_CALLS = Limit(
    "napad.api",
    "NAPAD_LIMIT_API",
    "token",
    _("This API token has made too many calls in a short time."),
)
PASSWORD_RESET_ADDRESS = Limit(
    "napad.password-reset.address",
    "NAPAD_LIMIT_PASSWORD_RESET_ADDRESS",
    "address",
    _("Password reset emails have been asked for too often; no email was sent this time."),
)
PASSWORD_RESET_CLIENT = Limit(
    "napad.password-reset.client",
    "NAPAD_LIMIT_PASSWORD_RESET_CLIENT",
    "client",
    PASSWORD_RESET_ADDRESS.message,
)
# Log-in failures: NAPAD_LOGIN_ATTEMPTS per NAPAD_LOGIN_WINDOW_SECONDS, per username and per
# client address; a member's successful log-in starts their username's count afresh.
LOGIN_MESSAGE = _(
    "Too many failed log-in attempts. Please wait a few minutes and try again, "
    "or reset your password."
)


class LoginLimit(Limit):
    """Failures per window: two settings (NAPAD_LOGIN_ATTEMPTS, NAPAD_LOGIN_WINDOW_SECONDS)."""

    def rate(self) -> tuple[int, int]:
        return (settings.LOGIN_ATTEMPTS_LIMIT, settings.LOGIN_ATTEMPTS_WINDOW)


LOGIN_USERNAME = LoginLimit(
    "napad.login.username", "LOGIN_ATTEMPTS_LIMIT", "username", LOGIN_MESSAGE
)
LOGIN_CLIENT = LoginLimit("napad.login.client", "LOGIN_ATTEMPTS_LIMIT", "client", LOGIN_MESSAGE)

# Not a rate: how many of a member's tables may wait for players at once.
OPEN_TABLES_AT_ONCE_SETTING = "NAPAD_LIMIT_OPEN_TABLES_AT_ONCE"

LIMITS = [
    OPEN_TABLES,
    PRACTICE,
    CHAT,
    API_CALLS,
    PASSWORD_RESET_ADDRESS,
    PASSWORD_RESET_CLIENT,
    LOGIN_USERNAME,
    LOGIN_CLIENT,
]


@dataclass(frozen=True)
class Refusal:
    """A limit reached: what to tell the member, and in how many seconds to try again."""

    message: str
    retry_after: int | None = None


class LimitReached(Exception):
    """Raised where returning an answer is not possible (the API's authentication, its
    endpoints); the API answers it with :func:`limited_response`."""

    def __init__(self, refusal: Refusal):
        super().__init__(refusal.message)
        self.refusal = refusal


def client_ip(request) -> str | None:
    """The address the request came from, for the limits counted per client.

    ``X-Forwarded-For`` is believed only as far as ``NAPAD_TRUSTED_PROXIES`` says: each of
    that many proxies in front of the site appends the address it received the request from,
    so with N proxies the client is the (N+1)-th address from the right of the header's
    hops followed by ``REMOTE_ADDR``; anything further left was written by the client and can
    be forged. With no proxy (the default, 0) the header is ignored: a client reaching the
    site directly could otherwise send a new address with every guess.
    """
    if request is None:
        return None
    remote = request.META.get("REMOTE_ADDR") or None
    proxies = settings.NAPAD_TRUSTED_PROXIES
    if not proxies:
        return remote
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
    addresses = [*hops, remote] if remote else hops
    if not addresses:
        return None
    # Fewer addresses than proxies: a proxy was skipped; the leftmost is the best there is.
    return addresses[-(proxies + 1)] if len(addresses) > proxies else addresses[0]


def _digest(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()[:32]


def _wait_message(seconds: int) -> str:
    minutes = max(1, math.ceil(seconds / 60))
    if minutes < 120:
        return ngettext(
            "Please try again in %(count)s minute.",
            "Please try again in %(count)s minutes.",
            minutes,
        ) % {"count": minutes}
    hours = math.ceil(minutes / 60)
    return ngettext(
        "Please try again in %(count)s hour.", "Please try again in %(count)s hours.", hours
    ) % {"count": hours}


def _usage(request: HttpRequest, limit: Limit, value: str, *, increment: bool) -> dict | None:
    return get_usage(
        request,
        group=limit.group,
        key=lambda _group, _request: value,
        rate=limit.rate(),
        increment=increment,
    )


def limit_reached(request: HttpRequest, limit: Limit, value: str | None) -> Refusal | None:
    """Count one more of ``limit`` for ``value`` (a member's id, a token, an address); the
    refusal when that one is over the rate. ``value`` None (no address known) counts nothing."""
    if value is None:
        return None
    usage = _usage(request, limit, value, increment=True)
    if usage is None or not usage["should_limit"]:
        return None  # (None: limits are switched off, or the count could not be kept)
    return _refusal(limit, usage)


def _refusal(limit: Limit, usage: dict) -> Refusal:
    retry_after = max(1, usage["time_left"]) if usage["time_left"] > 0 else None
    message = str(limit.message)
    if retry_after:
        message = f"{message} {_wait_message(retry_after)}"
    return Refusal(message, retry_after)


def member_key(request: HttpRequest) -> str:
    return str(request.user.pk)


def token_key(raw_token: str) -> str:
    return _digest(raw_token)


def address_key(email: str) -> str:
    return _digest(email.strip().casefold())


def open_tables_refusal(user) -> Refusal | None:
    """The refusal when the member has as many tables waiting for players as one may."""
    cap = getattr(settings, OPEN_TABLES_AT_ONCE_SETTING)
    waiting = Game.objects.filter(created_by=user, status=Game.Status.OPEN).count()
    if waiting < cap:
        return None
    return Refusal(
        ngettext(
            "You already have %(count)s table waiting for players. Start or cancel it "
            "before you open another.",
            "You already have %(count)s tables waiting for players. Start or cancel one "
            "of them before you open another.",
            waiting,
        )
        % {"count": waiting}
    )


def table_creation_refusal(request: HttpRequest) -> Refusal | None:
    """Both limits on opening a table, the count of waiting tables first (it counts nothing)."""
    return open_tables_refusal(request.user) or limit_reached(
        request, OPEN_TABLES, member_key(request)
    )


# --- Log-in failures ---------------------------------------------------------------------------


def _username_key(username: str) -> str:
    """The username's count: by its casefolded form, and since the member's last log-in (so a
    success starts a fresh count, and the count of a name nobody has stays its own)."""
    name = username.strip().casefold()
    last_login = (
        get_user_model()
        .objects.filter(**{f"{get_user_model().USERNAME_FIELD}__iexact": username.strip()})
        .aggregate(last=Max("last_login"))["last"]
    )
    return f"{_digest(name)}:{last_login.isoformat() if last_login else ''}"


def _login_counts(request: HttpRequest, username: str) -> list[tuple[Limit, str]]:
    counts = [(LOGIN_USERNAME, _username_key(username))]
    ip = client_ip(request)
    if ip:
        counts.append((LOGIN_CLIENT, ip))
    return counts


def login_refusal(request: HttpRequest, username: str) -> Refusal | None:
    """The refusal when this username or client has failed too often in the window (asked
    before the password is checked, so a guess made meanwhile learns nothing)."""
    for limit, value in _login_counts(request, username):
        usage = get_usage(
            request,
            group=limit.group,
            key=lambda _group, _request, value=value: value,
            rate=limit.rate(),
        )
        if usage is not None and usage["count"] >= usage["limit"]:
            return Refusal(str(limit.message))
    return None


def login_failure_record(request: HttpRequest, username: str) -> None:
    for limit, value in _login_counts(request, username):
        get_usage(
            request,
            group=limit.group,
            key=lambda _group, _request, value=value: value,
            rate=limit.rate(),
            increment=True,
        )


# --- Answers -----------------------------------------------------------------------------------


def limited_response(
    request: HttpRequest,
    refusal: Refusal,
    *,
    template: str = "limits/limited.html",
    context: dict[str, Any] | None = None,
    back_url: str = "",
    fragment: str | None = None,
) -> HttpResponse:
    """429 with the refusal's message: JSON under /api/; ``fragment``, the HTML an HTMX caller
    swaps in (the site's htmx swaps 429s: partials/htmx_config.html); else ``template``, a
    whole page (by default one saying the message, with a link to ``back_url``)."""
    headers = {"Retry-After": str(refusal.retry_after)} if refusal.retry_after else {}
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": refusal.message}, status=429, headers=headers)
    if fragment is not None:
        return HttpResponse(fragment, status=429, headers=headers)
    page = {"message": refusal.message, "back_url": back_url, **(context or {})}
    response = render(request, template, page, status=429)
    for name, value in headers.items():
        response[name] = value
    return response


# --- System checks -------------------------------------------------------------------------------

# Backends that cannot hold the limits' counts for several processes: they would count per
# process (memory), not increment atomically across processes (files), or not at all.
_NOT_SHARED = {
    "django.core.cache.backends.locmem.LocMemCache",
    "django.core.cache.backends.filebased.FileBasedCache",
}
_COUNTS_NOTHING = {"django.core.cache.backends.dummy.DummyCache"}


@checks.register(checks.Tags.caches)
def limits_cache_check(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    """What django-ratelimit's own check would say of the cache behind the failover one."""
    alias = getattr(settings, "RATELIMIT_USE_CACHE", "default")
    config = settings.CACHES.get(alias, {})
    behind = settings.CACHES.get(config.get("LOCATION") or "default", {})
    backend = (
        behind.get("BACKEND", "")
        if config.get("BACKEND", "").endswith("FailoverCache")
        else config.get("BACKEND", "")
    )
    if backend in _COUNTS_NOTHING:
        return [
            checks.Error(
                f"the fair limits count in {backend}, which keeps nothing",
                hint="Point the limits' cache at Redis (REDIS_URL) or the default folder cache.",
                id="napad.E001",
            )
        ]
    if backend in _NOT_SHARED and settings.SCALED:
        return [
            checks.Warning(
                f"the fair limits count in {backend}, which several web processes do not share",
                hint="Set REDIS_URL so that every web process counts in Redis.",
                id="napad.W001",
            )
        ]
    return []
