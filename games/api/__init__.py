"""The JSON API for club tools, bots and scripts (django-ninja), mounted at ``/api/``.

The OpenAPI schema is at ``/api/schema/`` and the interactive docs at ``/api/docs``. Every
endpoint needs a member: a personal token (``Authorization: Bearer <token>``) or the browser
session (with the CSRF header for unsafe methods). Errors are JSON ``{"detail": "..."}``;
bad input answers 4xx, never 5xx.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.urls import re_path
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, ValidationError

from games.engines import EngineError
from games.limits import LimitReached, limited_response
from games.services.api_tokens import ApiTokenError
from games.services.play import PlayError

from . import games, leagues, tables
from .auth import API_AUTH

logger = logging.getLogger(__name__)

api = NinjaAPI(
    title="Napad Club API",
    version="1",
    description=(
        "Tables, games and moves of the Napad Club, for club tools, bots and scripts. "
        "Authenticate with a personal token (`Authorization: Bearer <token>`, created on "
        "your profile page) or the site's session."
    ),
    openapi_url="/schema/",
    docs_url="/docs",
    auth=API_AUTH,
    urls_namespace="api",
)
api.add_router("/", tables.router)
api.add_router("/", games.router)
api.add_router("/", leagues.router)


def _error(request: HttpRequest, status: int, detail: str, **extra) -> HttpResponse:
    return api.create_response(request, {"detail": detail, **extra}, status=status)


@api.exception_handler(PlayError)
def play_error(request: HttpRequest, exc: PlayError) -> HttpResponse:
    problems = {str(field or "__all__"): messages for field, messages in exc.problems.items()}
    return _error(request, 400, exc.message, problems=problems)


@api.exception_handler(LimitReached)
def limit_reached(request: HttpRequest, exc: LimitReached) -> HttpResponse:
    return limited_response(request, exc.refusal)


@api.exception_handler(ApiTokenError)
def api_token_error(request: HttpRequest, exc: ApiTokenError) -> HttpResponse:
    return _error(request, 400, exc.message)


@api.exception_handler(EngineError)
def engine_error(request: HttpRequest, exc: EngineError) -> HttpResponse:
    return _error(request, 400, str(exc))


@api.exception_handler(ValidationError)
def validation_error(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    errors = [
        {
            "loc": [str(part) for part in error.get("loc", ())],
            "msg": str(error.get("msg", "")),
            "type": str(error.get("type", "")),
        }
        for error in exc.errors
    ]
    summary = "; ".join(f"{'.'.join(e['loc'])}: {e['msg']}" for e in errors[:5])
    return _error(
        request,
        422,
        _("The request is not valid: %(problems)s") % {"problems": summary},
        errors=errors,
    )


@api.exception_handler(HttpError)
def http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    if exc.status_code == 400 and str(exc).startswith("Cannot parse request body"):
        # ninja's answer to a body that is not JSON; said like any other invalid request
        # (422, the shape every endpoint documents).
        return _error(
            request,
            422,
            _("The request body is not valid JSON."),
            errors=[{"loc": ["body"], "msg": "not valid JSON", "type": "json_invalid"}],
        )
    if isinstance(exc, AuthenticationError) and str(exc) == "Unauthorized":
        # ninja's own message when nobody is logged in: say how to authenticate.
        return _error(
            request,
            401,
            _("Log in, or send a personal API token as “Authorization: Bearer <token>”."),
        )
    return _error(request, exc.status_code, str(exc))


@api.exception_handler(Http404)
def not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
    return _error(request, 404, str(exc) or _("Not found."))


@api.exception_handler(PermissionDenied)
def permission_denied(request: HttpRequest, exc: PermissionDenied) -> HttpResponse:
    return _error(request, 403, str(exc) or _("You may not do that."))


@api.exception_handler(RequestDataTooBig)
def body_too_large(request: HttpRequest, exc: RequestDataTooBig) -> HttpResponse:
    limit_kib = settings.DATA_UPLOAD_MAX_MEMORY_SIZE // 1024
    return _error(
        request,
        413,
        _("The request body is too large: the API takes at most %(limit)s KiB.")
        % {"limit": limit_kib},
    )


@api.exception_handler(Exception)
def unexpected_error(request: HttpRequest, exc: Exception) -> HttpResponse:
    # Still JSON, so a script gets a message it can show; the traceback goes to the log.
    if isinstance(exc, OperationalError | InterfaceError):
        logger.warning("api: database unavailable on %s: %s", request.path, exc)
        return _error(
            request, 503, _("The club’s database is not answering right now; try again soon.")
        )
    logger.exception("api: unexpected error on %s", request.path)
    return _error(request, 500, _("Something went wrong on our side; please try again."))


@csrf_exempt  # it changes nothing: a POST with a token (no CSRF cookie) gets the 404 too
def unknown_endpoint(request: HttpRequest, rest: str = "") -> JsonResponse:
    """Anything under /api/ that is not an endpoint — an id no column can hold included
    (``{id:…}``, games/web/converters.py): a JSON 404, not the site's HTML page."""
    return JsonResponse({"detail": _("There is no such API endpoint; see /api/docs.")}, status=404)


# What napad_site/urls.py mounts at "api/": ninja's URLs, then the JSON 404 for the rest.
api_patterns, _app_name, _namespace = api.urls
# (?s: any character, a line break in the path included, which "." alone would not take.)
urls = ([*api_patterns, re_path(r"^(?P<rest>(?s:.*))$", unknown_endpoint)], _app_name, _namespace)
