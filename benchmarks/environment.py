"""The throwaway world a bench run lives in: its own migrated database, an in-process channel
layer, a local cache and email outbox, Celery tasks run inline, and the bench-only URLs.

The club's real database, cache, mail folder and channel layer are never touched: Django's test
runner utilities create (and afterwards drop) a database of their own — a temporary SQLite file
by default, or a uniquely named database on the server of ``--database-url``.
"""

from __future__ import annotations

import contextlib
import copy
import logging
import secrets
import tempfile
import warnings
from collections.abc import Iterator
from pathlib import Path

from django.conf import settings
from django.db import connections
from django.test.utils import override_settings, setup_databases, teardown_databases

from napad_site.celery import app as celery_app
from napad_site.database import database_from_url

# The in-memory layer reaches only this process, which is all a bench run needs: the fan-out
# measures rendering and delivery to sockets served here, not a network hop.
MEMORY_CHANNEL_LAYER = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def _database_use(url: str) -> None:
    """Point the ``default`` alias at ``url`` before anything has connected to it."""
    config = database_from_url(url)
    connections["default"].close()
    configured = connections.configure_settings({"default": config})["default"]
    settings.DATABASES["default"] = configured
    connections.settings["default"] = configured
    del connections["default"]


def _throwaway_name(folder: Path) -> str:
    # A unique name even on a shared server: a test run (test_<name>) may be using the
    # server at the same moment, and the bench must never clobber its database.
    connection = connections["default"]
    if connection.vendor == "sqlite":
        return str(folder / "bench.sqlite3")
    return f"{connection.settings_dict['NAME']}_bench_{secrets.token_hex(4)}"


def _layers_of_this_run(layers: dict) -> dict:
    """The configured (Redis) layer under a key prefix of this run's own: the club's open pages
    and another bench run on the same server never see the bench's groups (game ids start
    at 1 everywhere)."""
    layers = copy.deepcopy(layers)
    config = layers["default"].setdefault("CONFIG", {})
    config["prefix"] = f"{config.get('prefix', 'asgi')}-bench-{secrets.token_hex(4)}"
    return layers


@contextlib.contextmanager
def bench_environment(
    *, database_url: str | None = None, channel_layer: str = "memory"
) -> Iterator[dict]:
    """Run the body against a fresh, migrated database and local side effects; yield a
    description of it (database vendor, channel layer) for the report."""
    if database_url:
        _database_use(database_url)
    with tempfile.TemporaryDirectory(prefix="napad-bench-") as folder:
        connection = connections["default"]
        connection.settings_dict.setdefault("TEST", {})
        connection.settings_dict["TEST"]["NAME"] = _throwaway_name(Path(folder))
        overrides = {
            "ROOT_URLCONF": "benchmarks.urls",
            "CACHES": {
                "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
                "limits": settings.LIMITS_CACHE,
                # As the site runs: {% cache %}'s fragments in the process's memory.
                "template_fragments": settings.CACHES["template_fragments"],
            },
            "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",
            "NAPAD_BOT_MOVE_DELAY": 0,
            # Fast hashing for the bench's members; nobody logs in with a password here.
            "PASSWORD_HASHERS": ["django.contrib.auth.hashers.MD5PasswordHasher"],
            "DEBUG": False,
            # Django's test client talks plain HTTP to "testserver".
            "ALLOWED_HOSTS": [*settings.ALLOWED_HOSTS, "testserver"],
            "SECURE_SSL_REDIRECT": False,
            # Pages link their static files without needing collectstatic's manifest.
            "STORAGES": {
                **settings.STORAGES,
                "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
            },
        }
        if channel_layer == "memory":
            overrides["CHANNEL_LAYERS"] = MEMORY_CHANNEL_LAYER
        else:
            overrides["CHANNEL_LAYERS"] = _layers_of_this_run(settings.CHANNEL_LAYERS)
        eager = celery_app.conf.task_always_eager
        # Anything queued (a finished game's league result) runs here, on the bench's data,
        # instead of travelling to the club's real broker.
        celery_app.conf.task_always_eager = True
        # Inline tasks log every success and kombu warns about the unused broker URL: noise
        # between the progress lines, not findings.
        quiet = {name: logging.getLogger(name) for name in ("celery", "kombu", "games")}
        levels = {name: logger.level for name, logger in quiet.items()}
        for logger in quiet.values():
            logger.setLevel(logging.ERROR)
        old_config = setup_databases(
            verbosity=0, interactive=False, aliases={"default"}, serialized_aliases=set()
        )
        try:
            with override_settings(**overrides), warnings.catch_warnings():
                # WhiteNoise warns when collectstatic has not run; the bench serves no files.
                warnings.filterwarnings("ignore", message="No directory at")
                layer = settings.CHANNEL_LAYERS["default"]["BACKEND"].rsplit(".", 1)[-1]
                yield {
                    "database": connections["default"].vendor,
                    "channel_layer": layer,
                }
        finally:
            connections.close_all()
            teardown_databases(old_config, verbosity=0)
            celery_app.conf.task_always_eager = eager
            for name, logger in quiet.items():
                logger.setLevel(levels[name])
