"""Real servers for a bench run: gunicorn workers and daphne processes on loopback, serving the
bench's throwaway database and URLs (``benchmarks.settings``), and a small HTTP client.

Each server leads its own process group and is stopped by that group's id (SIGTERM, then
SIGKILL after a grace period), so nothing it forked outlives the run.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from django.conf import settings
from django.db import connections

START_SECONDS = 90  # a bound for a busy machine, not a target
STOP_GRACE_SECONDS = 10
READY_PATH = "/accounts/login/"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def server_env(folder: Path) -> dict[str, str]:
    """The environment of a bench server: this run's database and channel layer, the same
    secret key (so sessions made here are valid there), its own var folder.

    The database goes over whole, as this process uses it — above all ``CONN_MAX_AGE``: a
    server without it opens a connection per request (on PostgreSQL a backend forked, and
    every statement planned again), which is not the site the bench means to measure. Only
    ``TEST`` (how the throwaway database was created) stays behind."""
    database = {
        key: value for key, value in connections["default"].settings_dict.items() if key != "TEST"
    }
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="benchmarks.settings",
        NAPAD_BENCH_DATABASE=json.dumps(database),
        NAPAD_BENCH_CHANNEL_LAYERS=json.dumps(settings.CHANNEL_LAYERS),
        DJANGO_SECRET_KEY=settings.SECRET_KEY,
        DJANGO_HTTPS="false",
        NAPAD_VAR_DIR=str(folder / "var"),
        NAPAD_CELERY_EAGER="true",
        PYTHONUNBUFFERED="1",
    )
    return env


class Server:
    """One server process (its own group); ``rss_kb`` sums the group's resident memory."""

    def __init__(self, name: str, command: list[str], env: dict[str, str], log: Path):
        self.name, self.log = name, log
        with log.open("w") as out:
            self.process = subprocess.Popen(
                command, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )

    def wait_ready(self, port: int) -> None:
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} stopped: {self.log.read_text()[-2000:]}")
            with contextlib.suppress(OSError, http.client.HTTPException):
                if http_request(port, "GET", READY_PATH)[0] == 200:
                    return
            time.sleep(0.2)
        raise RuntimeError(f"{self.name} did not answer within {START_SECONDS} s")

    def rss_kb(self) -> int:
        """Resident memory of the server and its children (gunicorn's workers), in kB."""
        total = 0
        for pid in _group_pids(self.process.pid):
            with contextlib.suppress(OSError):
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        return total

    def stop(self) -> None:
        for sig, wait in ((signal.SIGTERM, STOP_GRACE_SECONDS), (signal.SIGKILL, None)):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, sig)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=wait)
                return


def _group_pids(group: int) -> list[int]:
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if os.getpgid(int(entry.name)) == group:
                    pids.append(int(entry.name))
    return pids


@contextlib.contextmanager
def servers(kind: str, count: int, *, workers: int = 1) -> Iterator[list[tuple[Server, int]]]:
    """``count`` servers of ``kind`` (``gunicorn`` with ``workers`` sync workers, or
    ``daphne``), each on a port of its own; yields ``[(server, port)]`` once all answer."""
    with tempfile.TemporaryDirectory(prefix="napad-bench-servers-") as folder:
        env = server_env(Path(folder))
        started: list[tuple[Server, int]] = []
        try:
            for index in range(count):
                port = free_port()
                if kind == "gunicorn":
                    command = [
                        sys.executable, "-m", "gunicorn", "--workers", str(workers),
                        "--bind", f"127.0.0.1:{port}", "--log-level", "warning",
                        "napad_site.wsgi:application",
                    ]  # fmt: skip
                else:
                    command = [
                        sys.executable, "-m", "daphne", "--bind", "127.0.0.1", "--port", str(port),
                        "-v", "0", "napad_site.asgi:application",
                    ]  # fmt: skip
                log = Path(folder) / f"{kind}-{index}.log"
                started.append((Server(f"{kind} {index}", command, env, log), port))
            for server, port in started:
                server.wait_ready(port)
            yield started
        except BaseException:
            # What the servers said is the clue: their logs go with the temporary folder.
            for server, _port in started:
                sys.stderr.write(f"--- {server.name}:\n{server.log.read_text()[-4000:]}\n")
            raise
        finally:
            for server, _port in started:
                server.stop()


def http_request(
    port: int, method: str, path: str, *, body: str = "", headers: dict | None = None
) -> tuple[int, str]:
    """One request to a server on loopback (a fresh connection: gunicorn's sync workers close
    every connection anyway)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    sent = {"Host": "127.0.0.1", **(headers or {})}
    if body:
        sent["Content-Type"] = "application/x-www-form-urlencoded"
    try:
        connection.request(method, path, body=body or None, headers=sent)
        response = connection.getresponse()
        return response.status, response.read().decode("utf-8", errors="replace")
    finally:
        connection.close()
