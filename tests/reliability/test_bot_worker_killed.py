"""A Celery worker is killed (SIGKILL) in the middle of a bot's move and started again: the
bot moves within 30 s of the new worker being ready, exactly once, and the game's log has no
gap. Once on Redis + PostgreSQL (the scaled setup), once on the embedded ``filesystem://``
broker + SQLite, with real processes: the worker, beat (which keeps running, as it does in a
club), and the game's setup, all from tests/reliability/bot_worker.py on a queue of their own.

What makes it work is the database, not the broker: the move that made the bot's turn wrote
``Game.auto_move_due_at`` in its transaction; the killed move's transaction rolled back, so
the row still says the bot owes its move, and beat's followups sweep (every 10 s) claims it
and queues it again (games/services/followups.py). Redis would hand the killed worker's
message out again only after its visibility timeout; the filesystem broker never would.

"Exactly once" is shown by ordering, not by waiting: beat is stopped, then a marker task is
queued behind whatever the sweeps queued; once the marker has run, so has everything before
it, and the log still holds one bot move."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest
from workerkit import PROCESS_START_SECONDS, Harness, run_embedded, run_scaled

SCRIPT = Path(__file__).with_name("bot_worker.py")
BOT = 1
# What the issue asks of a restart; the waits around it are generous (a busy machine).
RECOVERY_SECONDS = 30


def _killed_mid_move_and_restarted(harness: Harness) -> None:
    game = str(harness.run("setup", harness.queue)["game"])
    hang = harness.tmp / "hanging"
    harness.start("beat", str(harness.tmp / "beat-schedule"))
    first, _log = harness.start("worker", str(hang))
    # The worker takes the bot's move (queued after the setup's commit) and stops inside it.
    harness.wait_for("the bot's move to begin", hang.exists, PROCESS_START_SECONDS)
    assert harness.run("events", game)["events"] == []
    first.send_signal(signal.SIGKILL)
    first.wait(timeout=30)
    # The killed move's transaction is gone with it: the bot still owes its move.
    state = harness.run("events", game)
    assert state["events"] == [] and state["version"] == 0 and state["move_owed"], state

    _second, log = harness.start("worker")
    harness.wait_for(
        "the new worker to be ready", lambda: " ready." in log.read_text(), PROCESS_START_SECONDS
    )
    took = harness.wait_for(
        "the bot to move",
        lambda: harness.run("events", game)["events"] != [],
        RECOVERY_SECONDS,
    )
    print(f"the bot moved {took:.1f} s after the restarted worker was ready")

    # Ordering: no more sweeps, then a marker behind anything they queued.
    beat_process = harness.processes[0][0]
    beat_process.send_signal(signal.SIGTERM)
    beat_process.wait(timeout=30)
    reached = harness.tmp / "marker"
    harness.run("marker", harness.queue, str(reached))
    harness.wait_for("the marker task", reached.exists, PROCESS_START_SECONDS)
    state = harness.run("events", game)
    assert state["events"] == [[1, BOT, False]], state
    assert state["version"] == 1 and state["to_move"] == [0] and not state["move_owed"], state


@pytest.mark.slow
def test_a_bot_move_killed_with_its_worker_is_made_once_after_a_restart_embedded(tmp_path):
    run_embedded(tmp_path, SCRIPT, _killed_mid_move_and_restarted)


@pytest.mark.slow
@pytest.mark.scaled
@pytest.mark.django_db(transaction=True)
def test_a_bot_move_killed_with_its_worker_is_made_once_after_a_restart_on_redis(tmp_path):
    run_scaled(tmp_path, SCRIPT, _killed_mid_move_and_restarted)
