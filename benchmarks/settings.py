"""Settings for the servers a bench run starts (gunicorn workers, daphne processes): the site's
own settings, pointed at the bench's throwaway database and URLs.

The parent (``benchmarks.servers``) passes the database as JSON in
``NAPAD_BENCH_DATABASE`` — the exact settings its own connection uses, so SQLite's options
(WAL, immediate transactions) and PostgreSQL's alike reach the children — and its channel layer
in ``NAPAD_BENCH_CHANNEL_LAYERS`` (in-process, or the site's Redis under a prefix of the run's
own).
"""

import json
import os

from napad_site.settings import *  # noqa: F403
from napad_site.settings import ALLOWED_HOSTS, INSTALLED_APPS, LIMITS_CACHE
from napad_site.settings import CACHES as SITE_CACHES

DATABASES = {"default": json.loads(os.environ["NAPAD_BENCH_DATABASE"])}
DATABASE_ROUTERS: list = []
INSTALLED_APPS = [app for app in INSTALLED_APPS if app != "channels_lite"]
ROOT_URLCONF = "benchmarks.urls"
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "limits": LIMITS_CACHE,
    # As the site runs: {% cache %}'s fragments in the process's memory.
    "template_fragments": SITE_CACHES["template_fragments"],
}
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
NAPAD_BOT_MOVE_DELAY = 0
DEBUG = False
ALLOWED_HOSTS = [*ALLOWED_HOSTS, "127.0.0.1", "localhost"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
CHANNEL_LAYERS = json.loads(os.environ["NAPAD_BENCH_CHANNEL_LAYERS"])
# Request lines would only slow the servers being measured.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}
