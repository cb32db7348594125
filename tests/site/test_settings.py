"""Settings are chosen by environment variables: the embedded default, the scaled setup, and a
clear error naming the variable when a value is bad. Each case runs in a fresh interpreter,
because settings are read once at import."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, django
from django.conf import settings
django.setup()
print(json.dumps({
    "debug": settings.DEBUG,
    "db_engine": settings.DATABASES["default"]["ENGINE"],
    "db_options": settings.DATABASES["default"].get("OPTIONS", {}),
    "layer": settings.CHANNEL_LAYERS["default"]["BACKEND"],
    "broker": settings.CELERY_BROKER_URL,
    "email": settings.EMAIL_BACKEND,
    "secure_cookies": settings.SESSION_COOKIE_SECURE,
    "ssl_redirect": settings.SECURE_SSL_REDIRECT,
    "hosts": settings.ALLOWED_HOSTS,
}))
"""

SCALED_ENV = {
    "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/napad",
    "REDIS_URL": "redis://127.0.0.1:6379/0",
    "DJANGO_SECRET_KEY": secrets.token_urlsafe(64),
    "DJANGO_ALLOWED_HOSTS": "club.example.org",
}


def run_python(code: str, env: dict[str, str], tmp_path: Path) -> subprocess.CompletedProcess:
    clean = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "NAPAD_", "EMAIL_"))
        and key not in {"DATABASE_URL", "REDIS_URL"}
    }
    clean.update({"DJANGO_SETTINGS_MODULE": "napad_site.settings", "NAPAD_VAR_DIR": str(tmp_path)})
    clean.update(env)
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
    )


def probe(env: dict[str, str], tmp_path: Path) -> dict:
    done = run_python(PROBE, env, tmp_path)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_it_runs_embedded_with_no_variables(tmp_path):
    found = probe({}, tmp_path)
    assert found["debug"] is False
    assert found["db_engine"] == "django.db.backends.sqlite3"
    assert found["db_options"]["transaction_mode"] == "IMMEDIATE"
    assert "journal_mode=WAL" in found["db_options"]["init_command"]
    # A layer that crosses processes without a server, so the Celery worker reaches browsers.
    assert found["layer"] == "channels_lite.layers.core.SQLiteChannelLayer"
    assert found["broker"] == "filesystem://"
    assert found["email"] == "django.core.mail.backends.filebased.EmailBackend"
    assert found["secure_cookies"] is False  # served over plain HTTP on 127.0.0.1
    assert (tmp_path / "secret_key").exists()


def test_it_keeps_the_generated_secret_key_between_starts(tmp_path):
    code = "from django.conf import settings; print(settings.SECRET_KEY)"
    first = run_python(code, {}, tmp_path).stdout
    second = run_python(code, {}, tmp_path).stdout
    assert first and first == second


def test_it_scales_out_with_database_and_redis_urls(tmp_path):
    found = probe({**SCALED_ENV, "EMAIL_HOST": "smtp.example.org"}, tmp_path)
    assert found["db_engine"] == "django.db.backends.postgresql"
    assert found["layer"] == "channels_redis.core.RedisChannelLayer"
    assert found["broker"] == "redis://127.0.0.1:6379/0"
    assert found["email"] == "django.core.mail.backends.smtp.EmailBackend"
    assert found["secure_cookies"] is True
    assert found["ssl_redirect"] is True
    assert found["hosts"] == ["club.example.org"]
    assert found["debug"] is False
    # Parameters bound on the server, so psycopg can prepare the statements a connection
    # repeats (napad_site/database.py); NAPAD_DB_PREPARED=0 for a transaction-mode pooler.
    assert found["db_options"]["server_side_binding"] is True
    assert found["db_options"]["prepare_threshold"] == 5
    pooled = probe({**SCALED_ENV, "NAPAD_DB_PREPARED": "0"}, tmp_path)
    assert "server_side_binding" not in pooled["db_options"]
    assert "prepare_threshold" not in pooled["db_options"]


@pytest.mark.parametrize(
    ("env", "named"),
    [
        ({"DJANGO_DEBUG": "maybe"}, "DJANGO_DEBUG"),
        ({"DATABASE_URL": "mysql://root@localhost/db"}, "DATABASE_URL"),
        ({"REDIS_URL": "localhost:6379"}, "REDIS_URL"),
        ({"DJANGO_SECRET_KEY": "short"}, "DJANGO_SECRET_KEY"),
        ({"DJANGO_HSTS_SECONDS": "a year"}, "DJANGO_HSTS_SECONDS"),
        ({"EMAIL_HOST": "smtp.example.org", "EMAIL_PORT": "smtp"}, "EMAIL_PORT"),
        ({"NAPAD_CHANNEL_LAYER": "carrier-pigeon"}, "NAPAD_CHANNEL_LAYER"),
    ],
)
def test_it_refuses_a_bad_variable_naming_it(tmp_path, env, named):
    done = run_python("import django; django.setup()", env, tmp_path)
    assert done.returncode != 0
    assert "ImproperlyConfigured" in done.stderr
    assert named in done.stderr


def test_it_passes_check_deploy_with_production_defaults(tmp_path):
    clean = {**SCALED_ENV}
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env={
            **{k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "NAPAD_"))},
            **clean,
            "DJANGO_SETTINGS_MODULE": "napad_site.settings",
            "NAPAD_VAR_DIR": str(tmp_path),
        },
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_it_does_not_leak_a_database_password_in_the_error(tmp_path):
    done = run_python(
        "import django; django.setup()",
        {"DATABASE_URL": "mysql://root:hunter2@localhost/db"},
        tmp_path,
    )
    assert done.returncode != 0
    assert "hunter2" not in done.stderr


COLLECT = (
    "import django; django.setup(); from django.core.management import call_command; "
    "call_command('collectstatic', interactive=False, verbosity=0)"
)


@pytest.mark.slow
@pytest.mark.parametrize("entry_point", ["napad_site.wsgi", "napad_site.asgi"])
def test_the_web_refuses_to_start_until_the_static_files_are_collected(tmp_path, entry_point):
    start = f"import {entry_point}; print('started')"
    refused = run_python(start, {}, tmp_path)
    assert refused.returncode != 0
    assert "run `python manage.py collectstatic --noinput`" in refused.stderr

    assert run_python(COLLECT, {}, tmp_path).returncode == 0
    started = run_python(start, {}, tmp_path)
    assert started.returncode == 0, started.stderr
    assert started.stdout.strip() == "started"

    # A release whose files changed since the last collect (one missing from the manifest).
    manifest = tmp_path / "staticfiles" / "staticfiles.json"
    stored = json.loads(manifest.read_text())
    del stored["paths"]["css/club.css"]
    manifest.write_text(json.dumps(stored))
    stale = run_python(start, {}, tmp_path)
    assert stale.returncode != 0
    assert "1 missing, e.g. css/club.css" in stale.stderr


HEAP_PROBE = (
    "import gc, sys, {entry_point}; "
    "print(gc.get_freeze_count(), len(gc.get_objects()), 'games.views.play' in sys.modules)"
)


@pytest.mark.slow
@pytest.mark.parametrize("entry_point", ["napad_site.wsgi", "napad_site.asgi"])
def test_a_started_web_process_keeps_its_startup_heap_out_of_garbage_collection(
    tmp_path, entry_point
):
    # Everything the start built (Django, the apps, every view through the URL configuration)
    # is frozen, so Python's full collections, which otherwise walk all of it in the middle
    # of some member's request (napad_site/startup.py), walk only what came after.
    assert run_python(COLLECT, {}, tmp_path).returncode == 0
    done = run_python(HEAP_PROBE.format(entry_point=entry_point), {}, tmp_path)
    assert done.returncode == 0, done.stderr
    frozen, tracked, views_imported = done.stdout.split()
    assert int(frozen) > 50_000
    assert int(tracked) < int(frozen) // 100
    assert views_imported == "True"
