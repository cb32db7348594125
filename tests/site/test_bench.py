"""``manage.py bench`` end to end with tiny sizes: one JSON document with every section, and
numbers in each (the figures themselves depend on the machine, so none is asserted)."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest
from django.db import connections

from benchmarks.club import NAPAD_RULESET, logged_in_client, members_create
from benchmarks.pages import (
    EARLY_MOVE,
    EARLY_WINDOW,
    FULL_LOG_MOVE,
    PLAYERS,
    _choices,
    _moment_tables,
)
from benchmarks.servers import server_env

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


# Generous: the smallest whole bench takes well under a minute on an idle machine, but CI shares
# two cores with whatever else runs.
BENCH_TIMEOUT_SECONDS = 900


def _bench(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="napad_site.settings")
    # Its own var folder: the bench must not need (or touch) the club's files.
    env["NAPAD_VAR_DIR"] = str(tmp_path / "var")
    # A bench still running after the timeout is sent SIGABRT: faulthandler then writes every
    # thread's stack to stderr, so the failure says where it stood, not only that it was slow.
    env["PYTHONFAULTHANDLER"] = "1"
    command = [sys.executable, "manage.py", "bench", *args]
    with subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as process:
        try:
            stdout, stderr = process.communicate(timeout=BENCH_TIMEOUT_SECONDS)
        except subprocess.TimeoutExpired:
            process.send_signal(signal.SIGABRT)
            stdout, stderr = process.communicate()
            pytest.fail(
                f"manage.py bench {' '.join(args)} still ran after {BENCH_TIMEOUT_SECONDS} s; "
                f"its stacks:\n{stderr[-20000:]}"
            )
    return subprocess.CompletedProcess(command, process.returncode, stdout, stderr)


def _is_number(value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def test_it_prints_every_section_with_numbers(tmp_path):
    done = _bench(
        tmp_path,
        "--engine-games=3",
        "--moves=3",
        "--comeback-pages=2",
        "--sockets=2,5",
        "--sweep-games=50",
        "--sweep-due=4",
        "--repeats=2",
        "--page-requests=2",
        "--broadcast-calls=3",
        "--bot-games=1",
        "--table",
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)

    assert set(report["targets"]) == {
        "engines", "move_path", "pages", "comeback", "queries", "broadcast", "fanout", "sweep",
        "bots",
    }  # fmt: skip
    for name in ("napad", "colt", "colt_time_machine"):
        assert _is_number(report["engines"][name]["games_per_cpu_second"])
        assert report["engines"][name]["games"] == 3

    page = report["comeback"]
    assert page["pages"] == 2
    for name in ("coming_back", "seen_all", "fragment"):
        assert _is_number(page[name]["ratio_of_medians"])
        assert _is_number(page[name]["latency"]["median_ms"])

    move = report["move_path"]
    assert move["moves"] == 3 and move["refused_moves"] == 0
    for key in ("moves_per_second", "baseline_requests_per_second", "ratio", "ratio_of_medians"):
        assert _is_number(move[key])
    for latency in (move["move_latency"], move["baseline_latency"]):
        assert _is_number(latency["median_ms"]) and _is_number(latency["p95_ms"])
    _assert_spread(move["ratio_spread"], runs=2)

    pages = report["pages"]
    for game in ("napad", "colt"):
        for figure in (
            "page_to_floor",
            "fragment_to_floor",
            "late_page_over_early_page",
            "late_page_over_full_log_page",
        ):
            _assert_spread(pages[game][figure], runs=2)
        assert pages[game]["late_move"] > pages["full_log_move"] > pages["early_move"] == 10
        # Each moment is measured on deals of its own (one deal's decision is luck).
        late_moves = pages[game]["late_moves"]
        assert len(late_moves) == pages["tables_per_moment"] > 1
        assert min(late_moves) == pages[game]["late_move"]

    sent = report["broadcast"]
    _assert_spread(sent["broadcast_ms"], runs=2)
    assert sent["received"] is True  # the group's channel got the broadcast

    queries = report["queries"]
    late = queries["late_move"]
    assert late > 1
    assert _is_number(queries["per_move"]["move_1"])
    assert _is_number(queries["per_move"][f"move_{late}"])
    assert _is_number(queries["per_page"][f"after_move_{late}"])

    sizes = report["fanout"]["sizes"]
    assert set(sizes) == {"2", "5"}
    # Every socket got the new version, and each player's socket its own hand.
    assert sizes["5"]["delivered"] == 5 and sizes["5"]["player_views"] == 4
    assert sizes["2"]["delivered"] == 2
    assert _is_number(sizes["5"]["delivery"]["p95_ms"])

    sweep = report["sweep"]
    assert sweep["games"] == 50
    assert sweep["found"] == {"reminders": 2, "timeouts": 2}
    assert _is_number(sweep["sweep_seconds"])
    assert _is_number(sweep["beat_sweep_seconds"])

    for name in ("napad", "colt", "colt_time_machine"):
        bots = report["bots"][name]
        assert bots["games"] == 1 and bots["decisions"] > 0
        assert _is_number(bots["median_cpu_seconds"]) and _is_number(bots["max_cpu_seconds"])

    # The readable table goes to stderr, so stdout stays one JSON document.
    assert "fan-out 5 sockets" in done.stderr and "ratio move/baseline" in done.stderr
    assert "hard bot decision, colt" in done.stderr

    def moves(of: list[int]) -> str:
        first, last = min(of), max(of)
        return f"move {first}" if first == last else f"moves {first}–{last}"

    colt = pages["colt"]
    assert (
        f"colt: page before the end ({moves(colt['late_moves'])}) / "
        f"at {moves(colt['early_moves'])}, as many choices"
    ) in done.stderr
    for game in ("napad", "colt"):
        # Deal by deal, the three moments' members to move choose among as many actions
        # (unless six late deals in a row ended on a decision no early position asks).
        figure = pages[game]
        for deal, matched in enumerate(figure["matched"]):
            early, full, late = (
                figure["choices"][name][deal] for name in ("early", "full", "late")
            )
            if matched:
                assert early == full == late
                assert 10 <= figure["early_moves"][deal] < 15
            else:
                assert figure["early_moves"][deal] == 10


def test_it_measures_another_copy_of_the_engines_side_by_side(tmp_path):
    engines = ROOT / "games" / "engines"
    done = _bench(tmp_path, "--only=engines", "--engine-games=2", f"--engines-baseline={engines}")
    assert done.returncode == 0, done.stderr
    side = json.loads(done.stdout)["engines"]["side_by_side"]
    assert side["baseline"] == str(engines)
    for name in ("napad", "colt", "colt_time_machine"):
        figure = side[name]
        assert figure["games"] == 2
        assert _is_number(figure["speed_up"]) and figure["speed_up"] > 0


def _assert_spread(figure: dict, *, runs: int) -> None:
    assert figure["runs"] == runs
    assert all(_is_number(figure[key]) for key in ("min", "median", "max"))
    assert figure["min"] <= figure["median"] <= figure["max"]


def test_it_measures_through_gunicorn_and_daphne_servers(tmp_path):
    done = _bench(
        tmp_path,
        "--only=daphne",
        "--wsgi",
        "--wsgi-moves=4",
        "--repeats=1",
        "--daphne-setups=3x1,4x2",
        "--daphne-moves=2",
        "--table",
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert set(report["targets"]) == {"wsgi", "daphne"}

    wsgi = report["wsgi"]
    assert wsgi["refused_moves"] == 0
    for workers in ("workers_1", "workers_2"):
        _assert_spread(wsgi[workers]["ratio_move_to_floor"], runs=1)
        _assert_spread(wsgi[workers]["moves_per_second"], runs=1)
    assert _is_number(wsgi["two_workers_over_one_moves"])

    daphne = report["daphne"]
    # Every socket got each move; two processes need Redis to share it, which this run lacks.
    assert daphne["setups"]["3x1"]["delivered_per_move"] == 3
    _assert_spread(daphne["setups"]["3x1"]["delivery_p95_ms"], runs=2)
    assert _is_number(daphne["setups"]["3x1"]["rss_kb_per_socket"])
    assert "4x2" in daphne["skipped"]
    assert "2 WSGI workers / 1" in done.stderr and "3 sockets on 1 daphne" in done.stderr


def test_it_refuses_an_unknown_section(tmp_path):
    done = _bench(tmp_path, "--only=engines,teleport")
    assert done.returncode != 0
    assert "unknown section(s) teleport" in done.stderr


def test_its_servers_use_the_database_as_the_site_does(tmp_path):
    """A bench server that opened a connection per request (no ``CONN_MAX_AGE``: on
    PostgreSQL a backend forked and every statement planned again) would measure another
    site than the club's: the database's settings reach the servers whole."""
    database = connections["default"].settings_dict
    with mock.patch.dict(database, {"CONN_MAX_AGE": 60, "CONN_HEALTH_CHECKS": True}):
        sent = json.loads(server_env(tmp_path)["NAPAD_BENCH_DATABASE"])
    assert sent["CONN_MAX_AGE"] == 60
    assert sent["CONN_HEALTH_CHECKS"] is True
    assert {key: sent[key] for key in ("ENGINE", "NAME", "OPTIONS")} == {
        key: database[key] for key in ("ENGINE", "NAME", "OPTIONS")
    }
    # How the throwaway database was made means nothing to a server using it.
    assert "TEST" not in sent


@pytest.mark.django_db
def test_a_pages_deal_compares_three_tables_asking_the_same_decision():
    """The page near the end is compared with pages around move 10 and from move 30 on whose
    member to move chooses among as many actions: the hands dealt are not measured as the
    game's length (benchmarks/pages.py)."""
    users = members_create(PLAYERS, prefix="deal")
    clients = {user.pk: logged_in_client(user) for user in users}
    tables, matched = _moment_tables(users, clients, random.Random("deal"), NAPAD_RULESET)
    # Napad's last decisions (a card or two and a pass) are asked around move 10 too.
    assert matched
    choices = {name: _choices(game.pk) for name, (game, _viewer) in tables.items()}
    assert len(set(choices.values())) == 1, choices
    early, full, late = (tables[name][0] for name in ("early", "full", "late"))
    assert EARLY_MOVE <= early.version < EARLY_MOVE + EARLY_WINDOW
    assert full.version >= FULL_LOG_MOVE
    # The late table stops one move before the end: its game still runs, as a page shows it.
    assert late.status == late.Status.RUNNING and late.version > full.version
    for game, viewer in tables.values():
        assert viewer in {
            seat.player.user_id for seat in game.seats.filter(position__in=game.to_move)
        }


@pytest.mark.django_db
def test_the_bench_clubs_cookies_log_a_member_in_and_pass_the_csrf_check():
    """The bench's servers get members' cookies made in one INSERT (benchmarks/club.py
    ``session_cookies``): each is a session Django accepts and a CSRF secret its check accepts,
    so the bench's moves are applied, not refused."""
    from django.test import Client
    from django.urls import reverse

    from benchmarks.club import csrf_headers, game_started, next_move, session_cookies
    from games.models import Game

    users = members_create(2, prefix="cookies")
    game = game_started(users)
    cookies = dict(zip((user.pk for user in users), session_cookies(users), strict=True))
    user_id, version, action = next_move(game.pk, random.Random("cookies"))
    headers = csrf_headers(cookies[user_id])
    client = Client(enforce_csrf_checks=True)
    response = client.post(
        reverse("game_act", args=[game.pk]),
        {"action": json.dumps(action), "version": str(version)},
        headers=headers,
    )
    assert response.status_code == 200
    assert Game.objects.get(pk=game.pk).version == version + 1
    # Without the token the same cookies are refused, as a forged request would be.
    refused = client.post(
        reverse("game_act", args=[game.pk]),
        {"action": json.dumps(action), "version": str(version + 1)},
        headers={"Cookie": cookies[user_id], "HX-Request": "true"},
    )
    assert refused.status_code == 403
