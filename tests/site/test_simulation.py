"""Balance simulations: the task plays the games in chunks with progress, the totals add up,
a clone is compared with its parent on the same games, and the admin shows it all."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from playkit import napad_ruleset

from games.engines.simulator import simulate
from games.models import Ruleset, SimulationRun
from games.services.ruleset_admin import ruleset_clone, ruleset_update_draft
from games.services.simulation import (
    SimulationError,
    lineup_for_game,
    simulation_run_execute,
    simulation_runs_sweep,
    simulation_start,
    simulation_summary,
)
from games.tasks import simulation_run_task
from tests.personakit import client_for, rules_editor

pytestmark = pytest.mark.django_db


def _run(ruleset, games=40, players=3, bots=("heuristic", "random"), **kwargs) -> SimulationRun:
    return simulation_start(
        ruleset=ruleset, games=games, players=players, bots=list(bots), user=None, **kwargs
    )


def test_the_task_plays_every_game_with_progress_and_stats(db):
    run = _run(napad_ruleset(), games=40, seed="fixed")
    progress = []
    simulation_run_execute(run.pk, on_progress=lambda done, total: progress.append((done, total)))
    run.refresh_from_db()
    assert run.status == SimulationRun.Status.FINISHED
    assert run.games_done == 40 and run.progress_percent == 100
    assert run.started_at and run.finished_at and not run.error
    # Progress was saved chunk by chunk, always growing, ending at the total.
    assert len(progress) > 1
    assert [done for done, _total in progress] == sorted({done for done, _t in progress})
    assert progress[-1] == (40, 40)

    summary = simulation_summary(run.results)
    assert summary["games"] == 40
    assert sum(seat["games"] for seat in summary["per_seat"]) == 40 * 3
    assert sum(seat["wins"] for seat in summary["per_seat"]) >= 40
    assert set(summary["per_bot"]) == {"heuristic", "random"}
    assert summary["per_bot"]["heuristic"]["games"] == 40 * 2  # two of three seats
    assert set(summary["per_identity"]) <= {"cowboys", "mexicans", "deserters", "indians"}
    assert sum(summary["scores"].values()) == 40 * 3
    # The heuristic bot beats the random one: the numbers mean something.
    assert summary["per_bot"]["heuristic"]["win_rate"] > summary["per_bot"]["random"]["win_rate"]


def test_the_run_agrees_with_the_simulator(db):
    """Played one game at a time, the totals equal the simulator's own summary of the same
    games (same seeds and rotating line-up)."""
    ruleset = napad_ruleset()
    run = _run(ruleset, games=12, players=3, bots=["heuristic", "random"], seed="s")
    simulation_run_execute(run.pk)
    run.refresh_from_db()
    summary = simulation_summary(run.results)
    for index in range(12):
        assert lineup_for_game(["heuristic", "random"], 3, index) == [
            ["heuristic", "random", "heuristic"][(seat + index) % 3] for seat in range(3)
        ]
    mean = sum(seat["mean_score"] for seat in summary["per_seat"]) / 3
    direct = [
        simulate(
            "napad",
            1,
            3,
            f"s-{i}",
            lineup_for_game(["heuristic", "random"], 3, i),
            ruleset.config,
            rotate=False,
        )
        for i in range(12)
    ]
    direct_mean = sum(sum(s["mean_score"] for s in game["per_seat"]) for game in direct) / 36
    assert mean == pytest.approx(direct_mean)


def test_a_run_is_claimed_once(db):
    run = _run(napad_ruleset(), games=5)
    assert simulation_run_execute(run.pk) is not None
    assert simulation_run_execute(run.pk) is None
    assert SimulationRun.objects.get(pk=run.pk).games_done == 5


def test_a_failing_run_records_its_error(db):
    run = _run(napad_ruleset(), games=5)
    SimulationRun.objects.filter(pk=run.pk).update(bots=["no-such-bot"])
    simulation_run_execute(run.pk)
    run.refresh_from_db()
    assert run.status == SimulationRun.Status.FAILED and "no-such-bot" in run.error


def test_a_clone_is_compared_with_its_parent_on_the_same_games(db):
    parent = napad_ruleset()
    draft = ruleset_clone(ruleset=parent, user=None)
    ruleset_update_draft(ruleset=draft, config={**draft.config, "variant_b_twos": True})
    run = _run(draft, games=20, seed="pair")
    assert run.baseline is not None
    assert run.baseline.ruleset == parent and run.baseline.seed == "pair"
    assert run.baseline.games_requested == 20
    # Asking again reuses the parent's identical run.
    again = _run(draft, games=20, seed="pair")
    assert again.baseline == run.baseline
    assert _run(draft, games=20, seed="pair", compare_with_parent=False).baseline is None


def test_bad_requests_are_refused(db):
    ruleset = napad_ruleset()
    for kwargs in ({"games": 0}, {"games": 10_000}, {"players": 7}, {"bots": ["nope"]}):
        with pytest.raises(SimulationError):
            _run(ruleset, **kwargs)
    assert not SimulationRun.objects.exists()


def test_started_through_celery_it_runs_to_the_end(db, django_capture_on_commit_callbacks):
    from napad_site.celery import app

    parent = napad_ruleset()
    draft = ruleset_clone(ruleset=parent, user=None)
    app.conf.task_always_eager = True
    try:
        with django_capture_on_commit_callbacks(execute=True):
            run = _run(draft, games=30)
    finally:
        app.conf.task_always_eager = False
    run.refresh_from_db()
    assert run.status == SimulationRun.Status.FINISHED and run.games_done == 30
    assert run.baseline.status == SimulationRun.Status.FINISHED
    # The task function itself is a thin wrapper over the service.
    queued = _run(parent, games=3, compare_with_parent=False)
    simulation_run_task(queued.pk)
    assert SimulationRun.objects.get(pk=queued.pk).status == SimulationRun.Status.FINISHED


def test_the_admin_starts_a_run_and_shows_progress_and_results(db):
    client = client_for(rules_editor())
    parent = napad_ruleset()
    draft = ruleset_clone(ruleset=parent, user=None)
    url = reverse("admin:games_ruleset_simulate", args=[draft.pk])
    assert client.get(url).status_code == 200
    response = client.post(
        url,
        {
            "games": "24",
            "players": "3",
            "bots": ["heuristic", "random"],
            "compare_with_parent": "on",
        },
    )
    run = SimulationRun.objects.get(ruleset=draft)
    assert response.status_code == 302
    assert response["Location"] == reverse("admin:games_simulationrun_change", args=[run.pk])

    # Queued: the page polls for progress.
    page = client.get(response["Location"])
    assert page.status_code == 200
    progress_url = reverse("admin:games_simulationrun_progress", args=[run.pk])
    assert (
        progress_url in page.content.decode() and 'hx-trigger="every 1s"' in page.content.decode()
    )
    fragment = client.get(progress_url, HTTP_HX_REQUEST="true")
    assert fragment.status_code == 200 and "<progress" in fragment.content.decode()
    assert "HX-Refresh" not in fragment

    simulation_run_execute(run.baseline_id)
    simulation_run_execute(run.pk)
    fragment = client.get(progress_url, HTTP_HX_REQUEST="true")
    assert fragment["HX-Refresh"] == "true"
    page = client.get(reverse("admin:games_simulationrun_change", args=[run.pk])).content.decode()
    assert "<svg" in page and "<rect" in page
    assert "win rate (parent)" in page and "Per gang / character" in page
    assert "cowboys" in page or "indians" in page
    assert 'hx-trigger="every 1s"' not in page

    # The form refuses a bad number of games without starting anything.
    response = client.post(url, {"games": "0", "players": "3", "bots": ["random"]})
    assert response.status_code == 200
    assert SimulationRun.objects.count() == 2


def test_a_colt_ruleset_can_be_simulated(db):
    napad_ruleset()  # installs every default, Colt Express too
    colt = Ruleset.objects.get(slug="colt-express", version=1)
    run = _run(colt, games=6, players=4)
    simulation_run_execute(run.pk)
    summary = simulation_summary(SimulationRun.objects.get(pk=run.pk).results)
    assert summary["games"] == 6
    assert set(summary["per_identity"]) <= {"Belle", "Cheyenne", "Django", "Doc", "Ghost", "Tuco"}


def test_the_score_chart_fits_and_pairs_run_with_baseline():
    from games.admin.rulesets import score_chart

    run = {"scores": {0: 2, 250: 5, 1000: 3, 2750: 1}}
    baseline = {"scores": {0: 4, 500: 4, 3000: 2}}
    chart = score_chart(run, baseline)
    assert {bar["css"] for bar in chart["bars"]} == {"run", "baseline"}
    for bar in chart["bars"]:
        assert 0 <= bar["x"] and bar["x"] + bar["width"] <= chart["width"]
        assert 0 <= bar["y"] and bar["y"] + bar["height"] <= chart["axis_y"] + 0.01
    # The tallest bar is the biggest share: the run's 250s, 5 of its 11 results.
    tallest = max(chart["bars"], key=lambda bar: bar["height"])
    assert tallest["css"] == "run" and tallest["title"].endswith("45.5%")
    assert tallest["height"] == chart["axis_y"] - chart["margin"]
    assert score_chart(None, None) is None
    alone = score_chart({"scores": {3: 1, 5: 1}}, None)
    assert {bar["css"] for bar in alone["bars"]} == {"run"}


@pytest.mark.slow
def test_a_real_worker_runs_a_simulation(tmp_path):
    """The whole path out of process: the site queues the run on the embedded broker and a
    real Celery worker plays it, saving progress the site can read."""
    import os
    import sqlite3
    import subprocess
    import sys
    import time
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "napad_site.settings",
        "NAPAD_VAR_DIR": str(tmp_path),
        "NAPAD_CHANNEL_LAYER": "memory",
    }
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    manage = [sys.executable, str(root / "manage.py")]
    subprocess.run([*manage, "migrate", "-v", "0"], cwd=root, env=env, check=True, timeout=120)
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "napad_site",
            "worker",
            "-P",
            "solo",
            "-l",
            "warning",
        ],
        cwd=root,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        start = (
            "from games.services.rulesets import rulesets_install_defaults\n"
            "from games.models import Ruleset\n"
            "from games.services.simulation import simulation_start\n"
            "rulesets_install_defaults()\n"
            "ruleset = Ruleset.objects.get(slug='napad-designed-default', version=1)\n"
            "run = simulation_start(ruleset=ruleset, games=200, players=4,"
            " bots=['heuristic', 'random'], user=None)\n"
            "print(run.pk)\n"
        )
        out = subprocess.run(
            [*manage, "shell", "-c", start],
            cwd=root,
            env=env,
            check=True,
            timeout=120,
            capture_output=True,
            text=True,
        )
        run_id = int(out.stdout.strip().splitlines()[-1])
        database = sqlite3.connect(tmp_path / "napad.sqlite3", timeout=20)
        deadline = time.monotonic() + 90
        status = None
        while time.monotonic() < deadline:
            status, done = database.execute(
                "SELECT status, games_done FROM games_simulationrun WHERE id = ?", (run_id,)
            ).fetchone()
            if status in ("finished", "failed"):
                break
            time.sleep(0.5)
        assert (status, done) == ("finished", 200)
        results = database.execute(
            "SELECT results FROM games_simulationrun WHERE id = ?", (run_id,)
        ).fetchone()[0]
        assert '"per_identity"' in results
        database.close()
    finally:
        worker.terminate()
        worker.wait(timeout=30)


# -- a run survives its worker ----------------------------------------------------------------


class _WorkerKilled(BaseException):
    """What a SIGKILL leaves: the runner stops between two statements, nothing handles it."""


def _results_of_an_uninterrupted_run(ruleset, **kwargs) -> dict:
    run = _run(ruleset, **kwargs)
    simulation_run_execute(run.pk)
    run.refresh_from_db()
    assert run.status == SimulationRun.Status.FINISHED
    return _without_timing(run.results)


def _without_timing(results: dict) -> dict:
    return {key: value for key, value in results.items() if key != "seconds"}


def _killed_after_first_chunk(run) -> None:
    def die(done, total):
        raise _WorkerKilled

    with pytest.raises(_WorkerKilled):
        simulation_run_execute(run.pk, on_progress=die)


def test_a_run_whose_worker_died_resumes_after_its_last_chunk_and_counts_each_game_once(db):
    ruleset = napad_ruleset()
    expected = _results_of_an_uninterrupted_run(ruleset, games=20, seed="crash")
    run = _run(ruleset, games=20, seed="crash", compare_with_parent=False)
    _killed_after_first_chunk(run)
    run.refresh_from_db()
    assert run.status == SimulationRun.Status.RUNNING and run.games_done == 5
    queued = []

    def queue(name, args):
        queued.append((name, args))

    # While its lease runs, the run is left to its runner.
    assert simulation_runs_sweep(queue=queue) == 0 and queued == []
    # Once it has run out, the run is queued again under the next attempt — once, however
    # many sweeps run.
    later = run.lease_until + timedelta(seconds=1)
    assert simulation_runs_sweep(now=later, queue=queue) == 1
    assert simulation_runs_sweep(now=later, queue=queue) == 0
    assert queued == [("games.simulation_run", (run.pk, 1))]
    run.refresh_from_db()
    assert run.status == SimulationRun.Status.QUEUED and run.attempt == 1

    # The first attempt's message, delivered again, does nothing; the new one finishes the run
    # from game 5, and the totals are those of a run that never stopped.
    assert simulation_run_execute(run.pk, 0) is None
    finished = simulation_run_execute(run.pk, 1)
    assert finished.status == SimulationRun.Status.FINISHED and finished.games_done == 20
    assert finished.lease_until is None and finished.finished_at is not None
    assert _without_timing(finished.results) == expected


def test_a_runner_handed_over_to_a_newer_attempt_stops_without_saving(db):
    ruleset = napad_ruleset()
    expected = _results_of_an_uninterrupted_run(ruleset, games=20, seed="slow")
    run = _run(ruleset, games=20, seed="slow", compare_with_parent=False)

    def overtaken(done, total):
        # The runner was too slow to renew its lease: the sweep gave the run to attempt 1.
        if done == 5:
            later = SimulationRun.objects.get(pk=run.pk).lease_until + timedelta(seconds=1)
            assert simulation_runs_sweep(now=later, queue=lambda name, args: None) == 1

    assert simulation_run_execute(run.pk, 0, on_progress=overtaken) is None
    run.refresh_from_db()
    # Its second chunk was not saved: the new attempt starts from game 5.
    assert run.games_done == 5 and run.status == SimulationRun.Status.QUEUED
    finished = simulation_run_execute(run.pk, 1)
    assert _without_timing(finished.results) == expected


def test_a_queued_run_whose_message_was_lost_is_queued_again(db):
    run = _run(napad_ruleset(), games=5, compare_with_parent=False)
    done = _run(napad_ruleset(), games=5, compare_with_parent=False)
    simulation_run_execute(done.pk)
    queued = []
    later = SimulationRun.objects.get(pk=run.pk).lease_until + timedelta(seconds=1)
    assert simulation_runs_sweep(now=later, queue=lambda name, args: queued.append(args)) == 1
    # Only the run still owed: the finished one holds no lease.
    assert queued == [(run.pk, 1)]
    assert simulation_run_execute(run.pk, 1).status == SimulationRun.Status.FINISHED
