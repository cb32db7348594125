"""Test settings: the real settings with the in-memory channel layer and fast hashing.

With ``REDIS_URL`` set (the scaled run in CI) the Redis channel layer stays, so consumers are
tested against the real server.
"""

import os

os.environ.setdefault("NAPAD_CHANNEL_LAYER", "redis" if os.environ.get("REDIS_URL") else "memory")
os.environ.setdefault("DJANGO_HTTPS", "false")

from .settings import *  # noqa: E402,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "limits": LIMITS_CACHE,  # noqa: F405
    # As in production, so the fragments' own cache is what the tests read.
    "template_fragments": CACHES["template_fragments"],  # noqa: F405
}
NAPAD_BOT_MOVE_DELAY = 0
# The fair limits (games/limits.py) stay out of the way of tests that do much in a moment;
# tests/limits/ makes them small where they are what is tested.
NAPAD_LIMIT_OPEN_TABLES = "10000/m"
NAPAD_LIMIT_OPEN_TABLES_AT_ONCE = 10000
NAPAD_LIMIT_PRACTICE = "10000/m"
NAPAD_LIMIT_CHAT = "10000/m"
NAPAD_LIMIT_API = "10000/m"
NAPAD_LIMIT_PASSWORD_RESET_ADDRESS = "10000/m"  # noqa: S105 (a rate, no password)
NAPAD_LIMIT_PASSWORD_RESET_CLIENT = "10000/m"  # noqa: S105 (a rate, no password)
# One test process: the limits' counts in memory are shared by all it serves.
SILENCED_SYSTEM_CHECKS = [*SILENCED_SYSTEM_CHECKS, "napad.W001"]  # noqa: F405
