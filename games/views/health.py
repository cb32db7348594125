"""``/healthz``: can this process reach the database, the channel layer, the Celery broker and
the cache?

Answers 200 when all four answer and 503 naming the part that failed (the site keeps working
without the cache — log-in throttling counts in the process meanwhile — but it is down).
The output names error classes and messages only — never URLs, hosts with passwords, or
settings.
"""

from __future__ import annotations

import asyncio
import re
import time
import uuid
from collections.abc import Callable

from channels.layers import get_channel_layer
from django.core.cache import cache, caches
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from games.broadcast import layer_call
from napad_site.celery import app as celery_app

TIMEOUT_SECONDS = 2.0
PROBE_GROUP = "healthz-probe"
_CREDENTIALS = re.compile(r"(\w+://)[^/@\s]*@")


def _safe_error(exc: BaseException) -> str:
    message = _CREDENTIALS.sub(r"\1***@", str(exc)).strip().splitlines()
    text = f"{type(exc).__name__}: {message[0]}" if message else type(exc).__name__
    return text[:200]


def check_database() -> dict:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return {"backend": connection.vendor}


def check_channel_layer() -> dict:
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer is configured")

    async def probe() -> None:
        await asyncio.wait_for(
            layer.group_send(PROBE_GROUP, {"type": "healthz.probe"}), timeout=TIMEOUT_SECONDS
        )

    # On the loop the broadcasts use: a probe that passes says they can be sent.
    layer_call(layer, probe())
    return {"backend": type(layer).__name__}


def check_cache() -> dict:
    key = f"healthz-probe-{uuid.uuid4().hex}"
    cache.set(key, 1, timeout=10)
    if cache.get(key) != 1:
        raise RuntimeError("a value written to the cache could not be read back")
    cache.delete(key)
    return {"backend": type(caches["default"]).__name__}


def check_broker() -> dict:
    conn = celery_app.connection_for_write()
    try:
        conn.ensure_connection(max_retries=1, interval_start=0, timeout=TIMEOUT_SECONDS)
        transport = conn.transport_cls
    finally:
        conn.release()
    return {"backend": transport if isinstance(transport, str) else type(conn.transport).__name__}


CHECKS: dict[str, Callable[[], dict]] = {
    "database": check_database,
    "channel_layer": check_channel_layer,
    "broker": check_broker,
    "cache": check_cache,
}


def _run(check: Callable[[], dict]) -> dict:
    started = time.perf_counter()
    try:
        details = check()
    except Exception as exc:
        result = {"status": "fail", "error": _safe_error(exc)}
    else:
        result = {"status": "ok", **details}
    result["ms"] = round((time.perf_counter() - started) * 1000, 1)
    return result


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    checks = {name: _run(check) for name, check in CHECKS.items()}
    failing = [name for name, result in checks.items() if result["status"] != "ok"]
    body = {"status": "fail" if failing else "ok", "checks": checks}
    if failing:
        body["failing"] = failing
    return JsonResponse(body, status=503 if failing else 200)
