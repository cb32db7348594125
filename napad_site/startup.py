"""What a web process does before it answers anyone (called by ``wsgi.py`` and ``asgi.py``):
check that its static files are collected, then set its heap aside from the garbage collector.

With DEBUG off the pages link hashed static files named in the manifest that
``collectstatic`` writes. Without it — a release deployed but not collected — every page with
a stylesheet would answer 500 ("Missing staticfiles manifest entry"). Refusing to start, with
the command to run, is kinder than a site that starts and fails on every page; ``runclub``
and the release unit (docs/systemd/napad-release.service) collect before the web starts.
"""

from __future__ import annotations

import gc

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import ManifestFilesMixin, staticfiles_storage
from django.core.exceptions import ImproperlyConfigured
from django.urls import get_resolver


def static_files_missing() -> list[str]:
    """Static files the site ships that the collected manifest does not name (all of them
    when nothing was collected); empty when pages can link every one."""
    if settings.DEBUG or not isinstance(staticfiles_storage, ManifestFilesMixin):
        return []
    collected, _hash = staticfiles_storage.load_manifest()
    # What collectstatic copies (its default ignore patterns).
    ignore = ["CVS", ".*", "*~"]
    shipped = {path for finder in finders.get_finders() for path, _storage in finder.list(ignore)}
    return sorted(shipped - set(collected))


def static_files_ready() -> None:
    missing = static_files_missing()
    if missing:
        raise ImproperlyConfigured(
            f"The static files are not collected for this release ({len(missing)} missing, "
            f"e.g. {missing[0]}): run `python manage.py collectstatic --noinput` before "
            f"starting the web processes (STATIC_ROOT={settings.STATIC_ROOT})."
        )


def heap_settled() -> None:
    """Move everything the process built while starting (Django, the apps, the URL
    configuration and templates) out of the garbage collector's view.

    Python's oldest generation is collected whenever enough objects have survived into it,
    and each such collection walks every object the process holds: a pause that falls on
    whichever page or move is being answered. ``gc.freeze()`` leaves those objects (which
    live as long as the process) out of every later collection, so a full one walks only
    what was made since (figures: docs/decisions/0010-freeze-the-startup-heap.md).
    The URL configuration is imported first (with it every view, form and template tag
    module), as the first request would; garbage among it all is collected before."""
    get_resolver().url_patterns  # noqa: B018 (imported for its side effect)
    gc.collect()
    gc.freeze()
