"""Helpers for the scaled tests, which talk to real servers on loopback: a dedicated
PostgreSQL database and Redis database, child processes (daphne, Celery) stopped for sure,
a small HTTP client that keeps cookies, and a minimal WebSocket client (RFC 6455 text frames,
enough to listen to a game page), and a started two-seat Napad game on the test database."""

from __future__ import annotations

import base64
import contextlib
import hashlib
import http.client
import os
import re
import secrets
import signal
import socket
import struct
import subprocess
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode, urlsplit, urlunsplit

import psycopg
import redis

from benchmarks.wsclient import client_frame
from games.models import Game
from tests import gamekit

WS_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
STOP_GRACE_SECONDS = 10


# --- a game on the test database ---------------------------------------------------------------


def napad_game_started(creator, other) -> Game:
    """A two-seat game of the default Napad ruleset, ``other`` joined and the game dealt."""
    return gamekit.started_game(creator, other, limit=timedelta(hours=10))


# --- servers: a database and a Redis keyspace of our own ----------------------------------------


@contextlib.contextmanager
def dedicated_database(base_url: str) -> Iterator[str]:
    """A fresh PostgreSQL database ``napad_scaled_<random>`` on ``base_url``'s server, dropped
    afterwards; yields its URL."""
    name = f"napad_scaled_{secrets.token_hex(4)}"
    parts = urlsplit(base_url)
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(admin, autocommit=True) as connection:
            # FORCE: a child that was killed may have left a connection behind.
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextlib.contextmanager
def dedicated_redis(base_url: str) -> Iterator[str]:
    """An empty Redis database on ``base_url``'s server, emptied again afterwards.

    Other test runs share the server: on their database our Celery worker would take their
    tasks and their broadcasts would reach our sockets (game ids start at 1 everywhere)."""
    parts = urlsplit(base_url)
    for number in range(15, -1, -1):
        url = urlunsplit(parts._replace(path=f"/{number}"))
        client = redis.Redis.from_url(url)
        if client.dbsize() == 0:
            break
        client.close()
    else:
        raise RuntimeError(f"no empty Redis database on {parts.hostname}:{parts.port}")
    try:
        yield url
    finally:
        client.flushdb()
        client.close()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# --- child processes -----------------------------------------------------------------------------


class Children:
    """Child processes, each leading its own process group (so Celery's pool and anything
    else they fork stop with them); ``stop_all`` ends exactly these groups."""

    def __init__(self, env: dict[str, str], logs: Path):
        self.env = env
        self.logs = logs
        self.processes: dict[str, subprocess.Popen] = {}

    def start(self, name: str, command: list[str]) -> subprocess.Popen:
        log = (self.logs / f"{name}.log").open("w")
        process = subprocess.Popen(
            command, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        log.close()
        self.processes[name] = process
        return process

    def log(self, name: str) -> str:
        return (self.logs / f"{name}.log").read_text(errors="replace")

    def stop_all(self) -> None:
        for process in self.processes.values():
            _signal_group(process, signal.SIGTERM)
        deadline = time.monotonic() + STOP_GRACE_SECONDS
        for process in self.processes.values():
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=max(0.0, deadline - time.monotonic()))
        for process in self.processes.values():
            _signal_group(process, signal.SIGKILL)
            process.wait()


def _signal_group(process: subprocess.Popen, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, sig)


def run_checked(command: list[str], env: dict[str, str], *, timeout: float = 180) -> str:
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        raise AssertionError(f"{' '.join(command[:4])} failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def wait_until(check: Callable[[], bool], *, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError, http.client.HTTPException):
            if check():
                return
        time.sleep(0.2)
    raise AssertionError(f"gave up after {timeout} s waiting for {what}")


# --- HTTP with cookies ---------------------------------------------------------------------------


class Browser:
    """Just enough of a browser: cookies kept across requests and servers (one site behind
    a proxy would share them the same way), forms posted urlencoded."""

    def __init__(self) -> None:
        self.cookies: dict[str, str] = {}

    def request(
        self,
        port: int,
        method: str,
        path: str,
        *,
        form: dict | None = None,
        headers: dict | None = None,
    ) -> tuple[int, str]:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        sent = {"Host": f"127.0.0.1:{port}", **(headers or {})}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{key}={value}" for key, value in self.cookies.items())
        body = None
        if form is not None:
            body = urlencode(form)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            connection.request(method, path, body=body, headers=sent)
            response = connection.getresponse()
            text = response.read().decode("utf-8", errors="replace")
            for header in response.headers.get_all("Set-Cookie") or []:
                for key, morsel in SimpleCookie(header).items():
                    self.cookies[key] = morsel.value
            return response.status, text
        finally:
            connection.close()

    def log_in(self, port: int, username: str, password: str) -> None:
        status, page = self.request(port, "GET", "/accounts/login/")
        assert status == 200, status
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        status, _page = self.request(
            port,
            "POST",
            "/accounts/login/",
            form={"username": username, "password": password, "csrfmiddlewaretoken": token},
        )
        assert status == 302 and "sessionid" in self.cookies, f"log-in answered {status}"

    def cookie_header(self) -> str:
        return "; ".join(f"{key}={value}" for key, value in self.cookies.items())


# --- WebSocket -----------------------------------------------------------------------------------


class WebSocketClosed(Exception):
    pass


class WebSocket:
    """A WebSocket client over a plain socket: the HTTP/1.1 upgrade, masked frames out,
    text frames in (fragments joined, pings answered)."""

    def __init__(self, port: int, path: str, *, cookie: str, timeout: float = 15):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.buffer = b""
        key = base64.b64encode(secrets.token_bytes(16)).decode()
        handshake = (
            f"GET {path} HTTP/1.1\r\n"
            f"Host: 127.0.0.1:{port}\r\n"
            f"Origin: http://127.0.0.1:{port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
            f"Cookie: {cookie}\r\n\r\n"
        )
        self.sock.sendall(handshake.encode())
        deadline = time.monotonic() + timeout
        while b"\r\n\r\n" not in self.buffer:
            self._fill(deadline)
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        if " 101 " not in lines[0]:
            raise WebSocketClosed(f"upgrade refused: {lines[0]}")
        accept = base64.b64encode(hashlib.sha1((key + WS_GUID).encode()).digest()).decode()  # noqa: S324 (RFC 6455)
        if f"sec-websocket-accept: {accept}".lower() not in (line.lower() for line in lines):
            raise WebSocketClosed("the server's Sec-WebSocket-Accept does not match")

    def _fill(self, deadline: float) -> None:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError("no WebSocket data in time")
        self.sock.settimeout(remaining)
        chunk = self.sock.recv(65536)
        if not chunk:
            raise WebSocketClosed("the server closed the connection")
        self.buffer += chunk

    def _take(self, count: int, deadline: float) -> bytes:
        while len(self.buffer) < count:
            self._fill(deadline)
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def _send(self, opcode: int, payload: bytes) -> None:
        self.sock.sendall(client_frame(opcode, payload))

    def receive_text(self, timeout: float) -> str:
        deadline = time.monotonic() + timeout
        parts: list[bytes] = []
        while True:
            first, second = self._take(2, deadline)
            fin, opcode = first & 0x80, first & 0x0F
            length = second & 0x7F
            if length == 126:
                (length,) = struct.unpack("!H", self._take(2, deadline))
            elif length == 127:
                (length,) = struct.unpack("!Q", self._take(8, deadline))
            mask = self._take(4, deadline) if second & 0x80 else b""
            payload = self._take(length, deadline)
            if mask:
                payload = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
            if opcode == 0x8:
                raise WebSocketClosed(f"closed by the server: {payload[:2].hex()}")
            if opcode == 0x9:
                self._send(0xA, payload)
                continue
            if opcode in (0x1, 0x0):
                parts.append(payload)
                if fin:
                    return b"".join(parts).decode()

    def receive_until(self, matches: Callable[[str], bool], *, timeout: float) -> str:
        """The first text message that ``matches``, skipping others; bounded by ``timeout``."""
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("no matching WebSocket message in time")
            text = self.receive_text(remaining)
            if matches(text):
                return text

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._send(0x8, struct.pack("!H", 1000))
        self.sock.close()
