"""``manage.py runclub`` brings the whole club up (daphne, a Celery worker, beat), says what a
person needs (address, demo logins, how to stop) and keeps the processes' chatter in var/log/,
stops every process it started on SIGTERM or Ctrl-C, leaves none behind when it is killed
outright, and names whoever holds its port. Runs the real command in a subprocess, embedded."""

from __future__ import annotations

import base64
import contextlib
import http.cookiejar
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def process_groups_alive(pgids: set[int]) -> set[int]:
    """Process ids (any) still alive whose process group is one of ``pgids``."""
    alive = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        state, pgrp = fields[0], int(fields[2])
        if pgrp in pgids and state != "Z":
            alive.add(int(entry.name))
    return alive


class Club:
    def __init__(self, tmp_path: Path, *, demo: bool, port: int | None = None):
        self.port = port or free_port()
        self.var = tmp_path / "var"
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("DJANGO_", "NAPAD_")) and k not in {"DATABASE_URL", "REDIS_URL"}
        }
        env.update(
            DJANGO_SETTINGS_MODULE="napad_site.settings",
            NAPAD_VAR_DIR=str(self.var),
            PYTHONUNBUFFERED="1",
        )
        command = [sys.executable, "manage.py", "runclub", "--port", str(self.port)]
        if not demo:
            command.append("--no-demo")
        self.log = (tmp_path / f"runclub-{self.port}-{time.monotonic_ns()}.out").open("w+")
        # A session of its own, as in a terminal: killing its process group kills only it.
        self.process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.base = f"http://127.0.0.1:{self.port}"

    def output(self) -> str:
        self.log.flush()
        self.log.seek(0)
        return self.log.read()

    def wait_until_up(self, timeout: float = 90) -> dict:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.output()
            try:
                with urllib.request.urlopen(self.base + "/healthz", timeout=5) as response:
                    return json.loads(response.read())
            except OSError:
                time.sleep(0.5)
        raise AssertionError("runclub did not answer in time:\n" + self.output())

    def child_pids(self) -> dict[str, int]:
        pids = json.loads((self.var / "runclub.json").read_text())
        assert pids.pop("runclub") == self.process.pid
        return pids

    def stop(self, sig: int) -> int:
        self.process.send_signal(sig)
        return self.process.wait(timeout=30)


def websocket_handshake(port: int, path: str, cookie: str = "") -> str:
    """Open a WebSocket by hand and return the HTTP status line of the server's answer."""
    key = base64.b64encode(os.urandom(16)).decode()
    request = (
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
        f"Origin: http://127.0.0.1:{port}\r\n"
        + (f"Cookie: {cookie}\r\n" if cookie else "")
        + "\r\n"
    )
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request.encode())
        return sock.recv(4096).decode(errors="replace").split("\r\n", 1)[0]


def log_in(base: str, username: str, password: str) -> http.cookiejar.CookieJar:
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    page = opener.open(base + "/accounts/login/", timeout=10).read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    data = urllib.parse.urlencode(
        {"username": username, "password": password, "csrfmiddlewaretoken": token}
    ).encode()
    request = urllib.request.Request(base + "/accounts/login/", data=data)
    request.add_header("Referer", base + "/accounts/login/")
    opener.open(request, timeout=10)
    assert any(cookie.name == "sessionid" for cookie in jar), "login failed"
    return jar


# Everything the terminal may show: what a person needs, nothing the processes chatter.
TERMINAL_LINES = [
    r"Napad Club is running at http://127\.0\.0\.1:\d+/",
    r"Demo members \(username / password\):",
    r"  (alice|bob|carla|dan) / \S+",
    r"Demo organiser, staff \(the admin at http://127\.0\.0\.1:\d+/admin/\):",
    r"  organiser / \S+",
    r"Logs: \S+/var/log/",
    r"Press Ctrl-C to stop\.",
    r"Stopping…",
    r"Stopped\.",
]


def test_it_runs_the_whole_club_and_stops_every_child_on_sigterm(tmp_path):
    club = Club(tmp_path, demo=True)
    try:
        health = club.wait_until_up()
        assert health["status"] == "ok", health
        children = club.child_pids()
        assert set(children) == {"daphne", "worker", "beat"}, club.output()
        out = club.output()
        assert f"http://127.0.0.1:{club.port}/" in out
        logins = re.findall(r"^\s+(alice|bob|carla|dan) / (\S+)$", out, flags=re.M)
        assert len(logins) == 4, out
        with urllib.request.urlopen(club.base + "/", timeout=10) as response:
            assert response.status == 200

        # Anonymous sockets are refused; a logged-in member's socket is accepted.
        assert " 403 " in websocket_handshake(club.port, "/ws/notifications/") + " "
        jar = log_in(club.base, *logins[0])
        cookie = "; ".join(f"{c.name}={c.value}" for c in jar)
        assert " 101 " in websocket_handshake(club.port, "/ws/notifications/", cookie)

        # The demo organiser gets into the admin at once.
        (organiser,) = re.findall(r"^  (organiser) / (\S+)$", out, flags=re.M)
        opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(log_in(club.base, *organiser))
        )
        admin = opener.open(club.base + "/admin/games/ruleset/", timeout=10)
        assert admin.status == 200 and admin.url.endswith("/admin/games/ruleset/")
    finally:
        code = club.stop(signal.SIGTERM)
    assert code == 0, club.output()
    assert process_groups_alive(set(club.child_pids().values())) == set()
    # The terminal said only what a person needs; Celery's banner, kombu's warnings, the
    # root-user SecurityWarning and daphne's notices are in the logs.
    for line in club.output().splitlines():
        assert any(re.fullmatch(allowed, line) for allowed in TERMINAL_LINES), line
    logs = club.var / "log"
    assert " ready." in (logs / "worker.log").read_text()
    assert "beat: Starting" in (logs / "beat.log").read_text()
    assert "Listening on TCP address" in (logs / "daphne.log").read_text()


def test_it_stops_everything_on_ctrl_c_and_skips_the_demo_when_asked(tmp_path):
    club = Club(tmp_path, demo=False)
    try:
        club.wait_until_up()
        assert "Demo members" not in club.output()
        children = club.child_pids()
        assert len(children) == 3
    finally:
        code = club.stop(signal.SIGINT)
    assert code == 0, club.output()
    assert process_groups_alive(set(children.values())) == set()


def _wait_until_gone(pids: set[int], seconds: float = 90) -> set[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        alive = process_groups_alive(pids)
        if not alive:
            return alive
        time.sleep(0.2)
    return process_groups_alive(pids)


def test_no_child_outlives_a_runclub_killed_outright_and_it_starts_again(tmp_path):
    club = Club(tmp_path, demo=False)
    club.wait_until_up()
    children = club.child_pids()
    try:
        # kill -9 of runclub's process group: runclub alone (each child has its own).
        os.killpg(club.process.pid, signal.SIGKILL)
        assert club.process.wait(timeout=30) == -signal.SIGKILL
        survivors = _wait_until_gone(set(children.values()))
        assert survivors == set(), f"still running: {survivors}"
    finally:
        for pid in children.values():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)

    again = Club(tmp_path, demo=False, port=club.port)
    try:
        assert again.wait_until_up()["status"] == "ok"
    finally:
        assert again.stop(signal.SIGTERM) == 0, again.output()


def test_a_port_already_in_use_is_refused_naming_its_holder(tmp_path):
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        club = Club(tmp_path, demo=False, port=port)
        code = club.process.wait(timeout=120)
    out = club.output()
    assert code != 0, out
    assert f"port {port} on 127.0.0.1 is already in use by pid {os.getpid()} (" in out
    assert f"manage.py runclub --port {port + 1}" in out
    assert "Napad Club is running" not in out
