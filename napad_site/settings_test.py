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
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
NAPAD_BOT_MOVE_DELAY = 0
