"""Settings for Napad Club, chosen by environment variables — nothing to edit.

Two shapes (see README "Scaling out"):

* **Embedded** (no variables): one machine, no servers. SQLite in WAL mode with immediate
  transactions, a SQLite-backed channel layer (``channels-lite``) so a Celery worker can push
  to browsers served by daphne, kombu's ``filesystem://`` broker, email written to a folder.
  Everything lives under ``NAPAD_VAR_DIR`` (default ``./var``).
* **Scaled**: ``DATABASE_URL`` (PostgreSQL) and ``REDIS_URL`` (channel layer, Celery broker,
  cache), SMTP via ``EMAIL_HOST``/``EMAIL_PORT``/``EMAIL_HOST_USER``/``EMAIL_HOST_PASSWORD``/
  ``EMAIL_USE_TLS``, plus ``DJANGO_SECRET_KEY``, ``DJANGO_ALLOWED_HOSTS``, ``DJANGO_DEBUG``.

Production defaults are safe: DEBUG is off unless ``DJANGO_DEBUG=1``; behind HTTPS
(``DJANGO_HTTPS``, on by default when ``DATABASE_URL`` is set) cookies are secure and HTTP
redirects to HTTPS; HSTS is the operator's choice (``DJANGO_HSTS_SECONDS``).
"""

from __future__ import annotations

import secrets
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from .database import database_from_url
from .env import (
    env_bool,
    env_host_names,
    env_int,
    env_list,
    env_origins,
    env_rate,
    env_str,
    env_url,
)
from .vapid import vapid_keys

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("NAPAD_VAR_DIR", str(BASE_DIR / "var"))).resolve()
VAR_DIR.mkdir(parents=True, exist_ok=True)

DATABASE_URL = env_url("DATABASE_URL", ("postgres", "postgresql", "pgsql", "sqlite"))
REDIS_URL = env_url("REDIS_URL", ("redis", "rediss"))
SCALED = bool(DATABASE_URL or REDIS_URL)


def _secret_key() -> str:
    """The key from DJANGO_SECRET_KEY, or one generated once and kept in the var folder."""
    key = env_str("DJANGO_SECRET_KEY").strip()
    if key:
        if len(key) < 50:
            raise ImproperlyConfigured("DJANGO_SECRET_KEY: must be at least 50 characters long")
        return key
    key_file = VAR_DIR / "secret_key"
    if not key_file.exists():
        key_file.write_text(secrets.token_urlsafe(64))
        key_file.chmod(0o600)
    return key_file.read_text().strip()


SECRET_KEY = _secret_key()
DEBUG = env_bool("DJANGO_DEBUG", False)
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

# --- HTTPS -----------------------------------------------------------------------------------
HTTPS = env_bool("DJANGO_HTTPS", bool(DATABASE_URL))
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_SSL_REDIRECT = HTTPS
if HTTPS and env_bool("DJANGO_BEHIND_PROXY", True):
    # The TLS-terminating proxy tells Django the original scheme.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 0, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_HSTS_PRELOAD", False)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
SILENCED_SYSTEM_CHECKS = []
if SECURE_HSTS_SECONDS == 0:
    # HSTS is opt-in: it pins browsers to HTTPS for a long time, so the operator decides.
    SILENCED_SYSTEM_CHECKS.append("security.W004")

# --- Applications ----------------------------------------------------------------------------
CHANNEL_BACKEND = env_str("NAPAD_CHANNEL_LAYER", "redis" if REDIS_URL else "sqlite")
if CHANNEL_BACKEND not in {"sqlite", "redis", "memory"}:
    raise ImproperlyConfigured("NAPAD_CHANNEL_LAYER: expected sqlite, redis or memory")
if CHANNEL_BACKEND == "redis" and not REDIS_URL:
    raise ImproperlyConfigured("NAPAD_CHANNEL_LAYER=redis needs REDIS_URL")

INSTALLED_APPS = [
    "daphne",  # must precede staticfiles so runserver is daphne's
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "channels",
    "django_htmx",
    "template_partials",
    "django_ratelimit",  # the fair limits' counters (games/limits.py) and its system checks
    "ninja",  # the API docs from its own static files, not a CDN (the CSP allows only 'self')
    "games",
    # manage.py bench, a developers' tool: no models, no URLs in the site, never imported by it.
    "benchmarks",
]
if CHANNEL_BACKEND == "sqlite":
    INSTALLED_APPS.append("channels_lite")

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "games.web.middleware.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Below WhiteNoise: every answer but a static file is marked no-store.
    "games.web.middleware.NoStoreMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "games.web.middleware.PlayerTimezoneMiddleware",
    "games.web.middleware.DatabaseUnavailableMiddleware",
]

ROOT_URLCONF = "napad_site.urls"
WSGI_APPLICATION = "napad_site.wsgi.application"
ASGI_APPLICATION = "napad_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.web.context_processors.site",
            ],
        },
    },
    # The table's templates (the game page's live parts, boards, log, replay): decision 0021.
    {
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "NAME": "jinja2",
        "DIRS": [BASE_DIR / "templates" / "jinja2"],
        "APP_DIRS": False,
        "OPTIONS": {"environment": "games.table.templating.environment"},
    },
]

# --- Database --------------------------------------------------------------------------------
if DATABASE_URL:
    DATABASES = {
        "default": database_from_url(DATABASE_URL, prepared=env_bool("NAPAD_DB_PREPARED", True))
    }
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": env_str("NAPAD_SQLITE_PATH", str(VAR_DIR / "napad.sqlite3")),
            "OPTIONS": {
                # IMMEDIATE takes the write lock at BEGIN, so two writers queue up instead of
                # failing with "database is locked" half-way through a move.
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": (
                    "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=20000;"
                ),
            },
        }
    }
if CHANNEL_BACKEND == "sqlite":
    # channels-lite keeps its messages in its own SQLite file, away from the game data.
    DATABASES["channels"] = {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": str(VAR_DIR / "channels.sqlite3"),
        "OPTIONS": {
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        },
    }
    DATABASE_ROUTERS = ["channels_lite.router.ChannelsRouter"]
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Channel layer ---------------------------------------------------------------------------
if CHANNEL_BACKEND == "redis":
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL], "capacity": 1500, "expiry": 30},
        }
    }
elif CHANNEL_BACKEND == "sqlite":
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_lite.layers.core.SQLiteChannelLayer",
            "CONFIG": {"database": "channels", "polling_interval": 0.05},
        }
    }
else:
    # Reaches only its own process: for unit tests, never for a running site.
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# --- Cache (the fair limits and the log-in throttle, presence) -----------------------------------
# ``{% cache %}``'s fragments (Django reads this alias when it exists): the game log's lines,
# a Napad seat and its played cards, a Colt Express car, action pile, round card and bandit's
# row (templates/games/; decision 0015), keyed by everything they show, so a fragment never
# goes stale and needs no invalidation. In each process's memory: every page, answer and push
# renders them, and a round trip per fragment would cost more than rendering.
_TEMPLATE_FRAGMENTS = {
    "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
    "LOCATION": "template-fragments",
    "TIMEOUT": 24 * 3600,
    "OPTIONS": {"MAX_ENTRIES": 10_000},
}
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "napad",
        },
        "template_fragments": _TEMPLATE_FRAGMENTS,
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(VAR_DIR / "cache"),
        },
        "template_fragments": _TEMPLATE_FRAGMENTS,
    }
# The fair limits (games/limits.py) count in the default cache through this one, which counts
# in the web process's memory while the default cache is not answering: a cache outage must
# neither lock members out nor turn into a 500. A setting that replaces CACHES keeps it with
# {..., "limits": LIMITS_CACHE}.
LIMITS_CACHE = {"BACKEND": "napad_site.failover_cache.FailoverCache", "LOCATION": "default"}
CACHES["limits"] = LIMITS_CACHE
RATELIMIT_USE_CACHE = "limits"
# A count the cache could not keep lets the request through rather than refusing everyone.
RATELIMIT_FAIL_OPEN = True
# django-ratelimit knows only memcached and django-redis by name, so it warns about any other
# backend (Django's own RedisCache, this failover wrapper). What it asks of a cache is that
# every web process share it and increment atomically: Redis does (INCRBY), and the embedded
# setup's FileBasedCache is used by one daphne process that runs sync views one at a time.
# games/limits.py checks the cache behind the wrapper itself (napad.E001, napad.W001).
SILENCED_SYSTEM_CHECKS.append("django_ratelimit.W001")

# --- Celery ----------------------------------------------------------------------------------
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    # A message a worker took but never acknowledged (it was killed) goes back to the queue
    # after this many seconds. Nothing waits on that: what a task owes is a fact in the
    # database that a sweep queues again within seconds (games/services/followups.py, the
    # clocks' sweep), and every task is idempotent, so the redelivery only finds the work
    # done. It stays well above any countdown and a bot's move. A balance simulation may run
    # longer: handed to a second worker, its message finds the run claimed and does nothing.
    CELERY_BROKER_TRANSPORT_OPTIONS: dict = {"visibility_timeout": 900}
else:
    _broker_dir = VAR_DIR / "celery" / "queue"
    _processed_dir = VAR_DIR / "celery" / "processed"
    _broker_dir.mkdir(parents=True, exist_ok=True)
    _processed_dir.mkdir(parents=True, exist_ok=True)
    _control_dir = VAR_DIR / "celery" / "control"
    _control_dir.mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_URL = "filesystem://"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_dir),
        "data_folder_out": str(_broker_dir),
        "processed_folder": str(_processed_dir),
        "store_processed": False,
        # Broadcast (control) messages; kombu's default is a "control" folder in the cwd.
        "control_folder": str(_control_dir),
    }
CELERY_TASK_IGNORE_RESULT = True
# What a crashed worker needs. Acknowledge a message only once its task has run (acks late),
# so a worker killed mid-task leaves it unacknowledged for the broker to hand out again; and
# if only a pool process dies (OOM, SIGKILL), put its message back at once instead of
# acknowledging it as failed (reject on worker lost). Both are safe because every task is
# idempotent (the game version, conditional UPDATEs and unique ledgers guard them); the
# database sweeps remain the guarantee (the filesystem broker has no redelivery at all).
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# A worker that loses the broker connection stops its running tasks: their messages are
# redelivered, and the version guard makes the second run a no-op.
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# One message at a time per process: a killed worker holds at most the one it was running.
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_ALWAYS_EAGER = env_bool("NAPAD_CELERY_EAGER", False)
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# The turn clocks (games/services/clocks): deadlines live in the database and one beat
# triggers the sweep every minute, so a restart loses nothing (never ETA tasks hours ahead).
CELERY_BEAT_SCHEDULE: dict = {
    "turns-sweep": {"task": "games.turns_sweep", "schedule": 60.0},
    "digests-send": {"task": "games.digests_send", "schedule": 3600.0},
    # Leagues: open rounds whose date has come (creating their games), close overdue ones,
    # finish seasons whose tables have all been played (the next one waits as a draft).
    "league-rounds-sweep": {"task": "games.league_rounds_sweep", "schedule": 300.0},
    # What a committed move still owes (a bot's move, a standing order's answer, a finished
    # game's results), found in the database: a lost message or a killed worker costs seconds.
    "followups-sweep": {"task": "games.followups_sweep", "schedule": 10.0},
    # Balance simulations whose worker died (or whose message was lost) resume within a lease.
    "simulation-runs-sweep": {"task": "games.simulation_runs_sweep", "schedule": 15.0},
}
CELERY_TIMEZONE = "UTC"

# --- Email -----------------------------------------------------------------------------------
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Napad Club <club@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
if env_str("EMAIL_HOST"):
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = env_str("EMAIL_HOST")
    EMAIL_PORT = env_int("EMAIL_PORT", 587, minimum=1)
    EMAIL_HOST_USER = env_str("EMAIL_HOST_USER")
    EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
else:
    EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    EMAIL_FILE_PATH = str(VAR_DIR / "mail")

# --- Auth ------------------------------------------------------------------------------------
# A member's user is read with their profile (games/web/backends.py). Django's own backend stays
# listed second: a session opened before names it, and Django loads its user with the backend
# the session names, so nobody is logged out.
AUTHENTICATION_BACKENDS = [
    "games.web.backends.PlayerModelBackend",
    "django.contrib.auth.backends.ModelBackend",
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
LOGIN_ATTEMPTS_LIMIT = env_int("NAPAD_LOGIN_ATTEMPTS", 10, minimum=1)
LOGIN_ATTEMPTS_WINDOW = env_int("NAPAD_LOGIN_WINDOW_SECONDS", 900, minimum=1)
# How many proxies in front of the site append to X-Forwarded-For (nginx: 1). Only their
# entries are believed for the client's address (the log-in throttle); 0 ignores the header.
NAPAD_TRUSTED_PROXIES = env_int("NAPAD_TRUSTED_PROXIES", 0, minimum=0)

# --- Fair limits (games/limits.py; docs/limits.md) ------------------------------------------
# Rates are "count/period" (s, m, h, d; "3/15m" is three per quarter hour), counted per member,
# per API token, per email address or per client address in fixed windows.
NAPAD_LIMIT_OPEN_TABLES = env_rate("NAPAD_LIMIT_OPEN_TABLES", "10/h")
NAPAD_LIMIT_OPEN_TABLES_AT_ONCE = env_int("NAPAD_LIMIT_OPEN_TABLES_AT_ONCE", 5, minimum=1)
NAPAD_LIMIT_PRACTICE = env_rate("NAPAD_LIMIT_PRACTICE", "20/h")
NAPAD_LIMIT_CHAT = env_rate("NAPAD_LIMIT_CHAT", "10/m")
NAPAD_LIMIT_API = env_rate("NAPAD_LIMIT_API", "300/m")
NAPAD_LIMIT_PASSWORD_RESET_ADDRESS = env_rate("NAPAD_LIMIT_PASSWORD_RESET_ADDRESS", "3/h")
NAPAD_LIMIT_PASSWORD_RESET_CLIENT = env_rate("NAPAD_LIMIT_PASSWORD_RESET_CLIENT", "10/h")

# --- i18n ------------------------------------------------------------------------------------
LANGUAGE_CODE = "en"
# The club's Portuguese is Brazilian, and so must be Django's own catalogues (the admin, auth,
# forms): under `pt` they would answer in European Portuguese. A browser or a cookie asking
# for `pt` or `pt-PT` still gets `pt-br` (Django falls back to a variant of the same language).
LANGUAGES = [("en", _("English")), ("pl", _("Polish")), ("pt-br", _("Brazilian Portuguese"))]
LOCALE_PATHS = [BASE_DIR / "games" / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

# --- Static files ----------------------------------------------------------------------------
STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "staticfiles"
# WhiteNoise warns about a missing folder on every start until collectstatic has run.
STATIC_ROOT.mkdir(exist_ok=True)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
# Hashed, compressed files from STATIC_ROOT: `runclub` runs collectstatic at every start, a
# scaled deployment runs it once per release.
WHITENOISE_USE_FINDERS = DEBUG

# --- Logging: game secrets are never logged; requests log only paths ---------------------------
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env_str("NAPAD_LOG_LEVEL", "INFO")},
    "loggers": {"django.db.backends": {"level": "WARNING"}},
}

# --- Club defaults -----------------------------------------------------------------------------
NAPAD_BOT_MOVE_DELAY = float(env_int("NAPAD_BOT_DELAY_MS", 800, minimum=0)) / 1000
# How long a moderator who opened an invitation-only table in the admin (or acted on it) may
# watch it (games/roles.py, docs/roles.md).
NAPAD_MODERATOR_VIEW_HOURS = env_int("NAPAD_MODERATOR_VIEW_HOURS", 24, minimum=1)

# --- Turn clocks (games/services/clocks; a game may override in options["clock"]) ------------
NAPAD_SITE_URL = env_str("NAPAD_SITE_URL", "http://127.0.0.1:8000")  # links in emails
NAPAD_REMINDER_POINTS = (50, 80, 95)  # % of the turn time
NAPAD_TIMEOUTS_TO_BOT = env_int("NAPAD_TIMEOUTS_TO_BOT", 3, minimum=0)
NAPAD_EXTENSION_HOURS = 24
NAPAD_DIGEST_HOUR = env_int("NAPAD_DIGEST_HOUR", 8, minimum=0)
NAPAD_MAX_LEAVE_DAYS = env_int("NAPAD_MAX_LEAVE_DAYS", 30, minimum=1)

# --- Web Push (issue 17: games/services/push/, napad_site/vapid.py) ---------------------------
# The VAPID pair from NAPAD_VAPID_PRIVATE_KEY / NAPAD_VAPID_PUBLIC_KEY, else generated once into
# the var folder. The subject tells push services whom to contact about our pushes.
NAPAD_VAPID_PRIVATE_KEY, NAPAD_VAPID_PUBLIC_KEY = vapid_keys(VAR_DIR)
NAPAD_VAPID_SUBJECT = env_str("NAPAD_VAPID_SUBJECT") or (
    "mailto:" + DEFAULT_FROM_EMAIL.rsplit("<", 1)[-1].rstrip(">").strip()
)
if not NAPAD_VAPID_SUBJECT.startswith(("mailto:", "https://")):
    raise ImproperlyConfigured("NAPAD_VAPID_SUBJECT: expected a mailto: or https:// address")
# Where a subscription may point: the browsers' push services, as host names — an endpoint's
# host must be one of them or a subdomain of one, over https on port 443
# (games/services/push/devices.py), so a forged subscription cannot make the site post to an
# address of the operator's network. FCM: Chrome, Edge on Android, Opera, Samsung Internet;
# Mozilla's autopush: Firefox; WNS: Edge on Windows; Apple: Safari on macOS and iOS.
NAPAD_PUSH_SERVICES = env_host_names(
    "NAPAD_PUSH_SERVICES",
    [
        "fcm.googleapis.com",
        "android.googleapis.com",
        "updates.push.services.mozilla.com",
        "notify.windows.com",
        "push.apple.com",
    ],
)
# Exact origins (scheme://host:port) of push services the operator runs itself (a self-hosted
# autopush, or a test's loopback service): trusted as they are, so empty unless set.
NAPAD_PUSH_EXTRA_ORIGINS = env_origins("NAPAD_PUSH_EXTRA_ORIGINS")
