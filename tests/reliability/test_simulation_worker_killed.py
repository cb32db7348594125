"""A Celery worker is killed (SIGKILL) in the middle of a balance simulation and started
again: the run resumes after its last saved chunk and finishes, and its totals are those of
the same games played in one go — no game lost, none counted twice. On the embedded
``filesystem://`` broker (which never hands a message out again: only the sweep can recover
the run) and on Redis + PostgreSQL, with real processes from simulation_worker.py.

The run's row says it is owed: its lease (5 s in these workers) runs out once its runner is
dead, and beat's ``simulation-runs-sweep`` (every 15 s) queues it again under the next
attempt (games/services/simulation.py)."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest
from workerkit import PROCESS_START_SECONDS, Harness, run_embedded, run_scaled

SCRIPT = Path(__file__).with_name("simulation_worker.py")
# A lease, a sweep period and a worker's start, on a busy machine.
RECOVERY_SECONDS = 120


def _killed_mid_run_and_restarted(harness: Harness) -> None:
    run = str(harness.run("setup", harness.queue)["run"])
    hang = harness.tmp / "hanging"
    harness.start("beat", str(harness.tmp / "beat-schedule"))
    first, _log = harness.start("worker", str(hang))
    # The worker saves the first chunk of five games and stops inside the second.
    harness.wait_for("the second chunk to begin", hang.exists, PROCESS_START_SECONDS)
    row = harness.run("run", run)
    assert row["status"] == "running" and row["games_done"] == 5, row
    first.send_signal(signal.SIGKILL)
    first.wait(timeout=30)

    harness.start("worker")
    harness.wait_for(
        "the run to finish",
        lambda: harness.run("run", run)["status"] in {"finished", "failed"},
        RECOVERY_SECONDS,
    )
    row = harness.run("run", run)
    assert row["status"] == "finished" and row["games_done"] == 10, row
    assert row["attempt"] >= 1 and row["same_as_in_one_go"] is True, row


@pytest.mark.slow
def test_a_simulation_killed_with_its_worker_resumes_and_counts_each_game_once_embedded(
    tmp_path,
):
    run_embedded(tmp_path, SCRIPT, _killed_mid_run_and_restarted)


@pytest.mark.slow
@pytest.mark.scaled
@pytest.mark.django_db(transaction=True)
def test_a_simulation_killed_with_its_worker_resumes_and_counts_each_game_once_on_redis(
    tmp_path,
):
    run_scaled(tmp_path, SCRIPT, _killed_mid_run_and_restarted)
