"""The scaled layout on real servers: two daphne processes on loopback sharing PostgreSQL and
the Redis channel layer, and a separate Celery worker process.

A move posted over HTTP to the first daphne reaches a WebSocket held by the second; a bot move
played by the Celery worker reaches sockets on both. Each socket gets the table as its own
member sees it. Everything runs in a database and a Redis keyspace of its own.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import sys
from pathlib import Path

import pytest
from scaledkit import (
    Browser,
    Children,
    WebSocket,
    dedicated_database,
    dedicated_redis,
    free_port,
    run_checked,
    wait_until,
)

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "train-robbery-42"  # noqa: S105 (a test password)
SERVER_START_SECONDS = 60
DELIVERY_SECONDS = 30
WORKER_MOVE_SECONDS = 90

pytestmark = [pytest.mark.scaled, pytest.mark.slow]

# Run in the site's own shell on the dedicated database: the default rulesets, two members and
# a started 3-seat Napad table — alice (seat 0, to move first), a random bot (seat 1), bob.
SETUP = f"""
import json
from datetime import timedelta
from games.engines import get_engine
from games.models import Ruleset
from games.services.accounts import user_sign_up
from games.services.play import game_create, game_start, seat_join
from games.services.rulesets import rulesets_install_defaults

rulesets_install_defaults()
members = [
    user_sign_up(username=name, email=name + "@example.org", password={PASSWORD!r},
                 display_name=name.title(), language="en")
    for name in ("alice", "bob")
]
game = game_create(
    creator=members[0],
    ruleset=Ruleset.objects.get(slug="napad-designed-default", version=1),
    seats=3, options={{}}, turn_time_limit=timedelta(hours=24), bot_seats={{1: "random"}},
)
seat_join(game_id=game.pk, user=members[1])
game = game_start(game_id=game.pk, user=members[0], first_player=0)
engine = get_engine(game.kind)
seats = {{seat.position: (seat.player.user.username if seat.player else seat.bot_kind)
         for seat in game.seats.select_related("player__user")}}
action = engine.legal_actions(engine.from_json(game.state), 0)[0]
print(json.dumps({{"game": game.pk, "version": game.version, "seats": seats, "action": action}}))
"""


def _version(text: str) -> int:
    found = re.search(r'data-version="(\d+)"', text)
    return int(found.group(1)) if found else -1


def _healthy(browser: Browser, port: int) -> bool:
    return browser.request(port, "GET", "/healthz")[0] == 200


@pytest.fixture
def scaled_env(tmp_path):
    database_url, redis_url = os.environ["DATABASE_URL"], os.environ["REDIS_URL"]
    with dedicated_database(database_url) as db_url, dedicated_redis(redis_url) as r_url:
        yield {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "napad_site.settings",
            "DATABASE_URL": db_url,
            "REDIS_URL": r_url,
            "NAPAD_CHANNEL_LAYER": "redis",
            "DJANGO_HTTPS": "false",
            # Both web processes must sign and read the same sessions.
            "DJANGO_SECRET_KEY": secrets.token_urlsafe(64),
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
            "NAPAD_VAR_DIR": str(tmp_path / "var"),
            "NAPAD_BOT_DELAY_MS": "0",
            "NAPAD_CELERY_EAGER": "false",
            "PYTHONUNBUFFERED": "1",
        }


def test_moves_reach_sockets_on_the_other_daphne_and_from_the_worker(scaled_env, tmp_path):
    python = sys.executable
    manage = [python, str(ROOT / "manage.py")]
    run_checked([*manage, "migrate", "--noinput"], scaled_env)
    # As every release of a scaled deployment does: pages link the hashed static files.
    run_checked([*manage, "collectstatic", "--noinput"], scaled_env)
    table = json.loads(run_checked([*manage, "shell", "-c", SETUP], scaled_env).splitlines()[-1])
    assert table["seats"] == {"0": "alice", "1": "random", "2": "bob"}
    game_path = f"/games/{table['game']}/"

    first, second = free_port(), free_port()
    children = Children(scaled_env, tmp_path)
    sockets: list[WebSocket] = []
    try:
        for name, port in (("daphne-first", first), ("daphne-second", second)):
            children.start(
                name,
                [
                    python,
                    "-m",
                    "daphne",
                    "-b",
                    "127.0.0.1",
                    "-p",
                    str(port),
                    "napad_site.asgi:application",
                ],
            )
        probe = Browser()
        for port in (first, second):
            wait_until(
                lambda p=port: _healthy(probe, p),
                timeout=SERVER_START_SECONDS,
                what=f"daphne on {port}",
            )

        alice, bob = Browser(), Browser()
        alice.log_in(first, "alice", PASSWORD)
        bob.log_in(second, "bob", PASSWORD)
        # alice listens on the second daphne, bob on the first.
        alice_socket = WebSocket(second, f"/ws{game_path}", cookie=alice.cookie_header())
        sockets.append(alice_socket)
        bob_socket = WebSocket(first, f"/ws{game_path}", cookie=bob.cookie_header())
        sockets.append(bob_socket)
        # On connect each page is sent the table as it is now.
        assert _version(alice_socket.receive_text(DELIVERY_SECONDS)) == 0
        assert _version(bob_socket.receive_text(DELIVERY_SECONDS)) == 0

        # alice moves through the first daphne: the HTMX endpoint, with her CSRF token.
        status, fragment = alice.request(
            first,
            "POST",
            f"{game_path}act",
            form={"action": json.dumps(table["action"]), "version": str(table["version"])},
            headers={"X-CSRFToken": alice.cookies["csrftoken"], "HX-Request": "true"},
        )
        assert status == 200 and _version(fragment) == 1, fragment[:500]

        # No worker runs yet, so the bot's move waits in Redis and the table stays at 1.
        pushed = alice_socket.receive_until(
            lambda text: _version(text) == 1, timeout=DELIVERY_SECONDS
        )
        assert "Your hand" in pushed and 'id="game-live"' in pushed  # alice's own view
        pushed = bob_socket.receive_until(
            lambda text: _version(text) == 1, timeout=DELIVERY_SECONDS
        )
        assert "Your hand" in pushed

        # A separate Celery worker process picks up the queued bot move and plays it.
        children.start(
            "celery-worker",
            [
                python,
                "-m",
                "celery",
                "-A",
                "napad_site",
                "worker",
                "--pool=solo",
                "--loglevel=INFO",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                f"--hostname=scaled-{secrets.token_hex(3)}@%h",
            ],
        )
        to_alice = alice_socket.receive_until(
            lambda text: _version(text) == 2, timeout=WORKER_MOVE_SECONDS
        )
        to_bob = bob_socket.receive_until(
            lambda text: _version(text) == 2, timeout=WORKER_MOVE_SECONDS
        )
        # bob (seat 2) is to move after the bot: only his view offers him moves.
        assert 'name="action"' in to_bob and 'name="action"' not in to_alice
        wait_until(
            lambda: (
                "games.bot_move_play" in children.log("celery-worker")
                and "succeeded" in children.log("celery-worker")
            ),
            timeout=DELIVERY_SECONDS,
            what="the worker's log of the bot move",
        )
        for name in ("daphne-first", "daphne-second", "celery-worker"):
            assert children.processes[name].poll() is None, children.log(name)
    finally:
        for socket in sockets:
            socket.close()
        children.stop_all()
