"""Request middleware: the Content-Security-Policy, no caching of rendered answers, the
member's time zone, and a clear 503 when the database is away."""

from __future__ import annotations

import logging
import zoneinfo

from django.db import DatabaseError, InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _

logger = logging.getLogger(__name__)


# Only the site's own files: no inline script or style (templates keep JS in static/js and
# CSS in static/css; htmx is configured for it in partials/htmx_config.html), nothing framed,
# no plugins. 'self' covers the WebSockets (ws:/wss: to this host) too. data: images are the
# API docs' icons (swagger-ui.css).
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)


class ContentSecurityPolicyMiddleware:
    """Every answer carries the site's Content-Security-Policy (unless a view set its own)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        return response


class NoStoreMiddleware:
    """Every answer Django renders is kept out of every cache — ``Cache-Control: private,
    no-store`` and the rest of what ``never_cache`` sends — unless its view chose its own
    caching (the web manifest and the service worker, public files). Pages, fragments, HTMX
    and API answers show a member's hand, seat, notifications or account: none may sit in a
    shared cache or come back from the browser's history after logging out. Static files
    never get here: WhiteNoise, above this middleware, serves them with their own long cache
    (docs/deployment.md, "Caching")."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if "Cache-Control" not in response.headers:
            add_never_cache_headers(response)
        return response


class PlayerTimezoneMiddleware:
    """Show dates in the member's own time zone."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        tz_name = None
        user = getattr(request, "user", None)
        try:
            if user is not None and user.is_authenticated:
                player = getattr(user, "player", None)
                tz_name = player.time_zone if player is not None else None
        except (OperationalError, InterfaceError):
            # The database is away. Raised here, in a middleware, it would become a 500:
            # DatabaseUnavailableMiddleware sees only what views raise. The view reads the
            # member again (the lazy user is not cached after a failure), and that 503s.
            tz_name = None
        if tz_name:
            try:
                timezone.activate(zoneinfo.ZoneInfo(tz_name))
            except (zoneinfo.ZoneInfoNotFoundError, ValueError):
                timezone.deactivate()
        else:
            timezone.deactivate()
        return self.get_response(request)


class DatabaseUnavailableMiddleware:
    """Turn "cannot reach the database" into a 503 with a message, not a 500.

    Transactions roll back before the exception reaches here, so nothing is half-applied.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception):
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        if isinstance(exception, DatabaseError) and "locked" in str(exception).lower():
            logger.warning("database busy on %s", request.path)
        else:
            logger.error("database unavailable on %s: %s", request.path, type(exception).__name__)
        message = _(
            "The club’s database is not answering right now. Nothing was changed; "
            "try again in a moment."
        )
        wants_json = "application/json" in request.headers.get("Accept", "")
        if request.path.startswith("/api/") or wants_json:
            return JsonResponse({"detail": message}, status=503)
        body = render_to_string("503.html", {"message": message})
        return HttpResponse(body, status=503, headers={"Retry-After": "5"})
