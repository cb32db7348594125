"""The installable site: the web app manifest, the service worker and its offline page.

The service worker is served from the site's root (``/sw.js``) so its scope covers every
page. It keeps only the offline page and what that page needs; game pages are never cached
(they carry a member's private cards and must be fresh). The manifest and the offline page
speak the visitor's language.
"""

from __future__ import annotations

import hashlib
import json

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

THEME_COLOUR = "#1f1a17"  # the site header's ink
BACKGROUND_COLOUR = "#fbf7f0"  # the site's paper
ICONS = (
    ("icons/icon-192.png", 192, "any"),
    ("icons/icon-512.png", 512, "any"),
    ("icons/maskable-192.png", 192, "maskable"),
    ("icons/maskable-512.png", 512, "maskable"),
)


@require_GET
def web_manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: what a phone needs to add the club to its home screen."""
    home = reverse("home")
    manifest = {
        "id": home,
        "name": _("Napad Club"),
        "short_name": _("Napad Club"),
        "description": _("A club for train-robbery card games played turn by turn."),
        "lang": translation.get_language() or "en",
        "dir": "rtl" if translation.get_language_bidi() else "ltr",
        "start_url": home,
        "scope": home,
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "categories": ["games"],
        "icons": [
            {"src": static(path), "sizes": f"{size}x{size}", "type": "image/png", "purpose": use}
            for path, size, use in ICONS
        ],
    }
    response = JsonResponse(manifest, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    response["Cache-Control"] = "no-cache"
    return response


def _worker_config() -> dict:
    config = {
        "offline": reverse("offline"),
        "assets": [static("css/club.css"), static("icons/icon-192.png")],
        "icon": static("icons/icon-192.png"),
        "badge": static("icons/badge-96.png"),
        "home": reverse("home"),
    }
    # A new release (new static file hashes) changes the worker's bytes, so browsers install
    # it again and drop the old cache.
    config["version"] = hashlib.sha256(json.dumps(config).encode()).hexdigest()[:12]
    return config


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    response = render(
        request,
        "push/service_worker.js",
        {"config": json.dumps(_worker_config())},
        content_type="text/javascript; charset=utf-8",
    )
    # Browsers look for a new worker on every navigation; never let a cache answer for it.
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    """What a page shows when the network is away (kept by the service worker)."""
    return render(request, "push/offline.html")
