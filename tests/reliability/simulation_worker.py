"""The processes of test_simulation_worker_killed.py, on the broker and database the
environment names (as bot_worker.py). Every one of them uses the queue it is given.

    simulation_worker.py setup QUEUE           migrate, and start a balance simulation of 10
                                               games in chunks of 5 (queued after commit);
                                               prints {"run": id}
    simulation_worker.py worker QUEUE [HANG]   a Celery worker (one process) whose runs hold
                                               a 5 s lease; with HANG (a file path), the run's
                                               second chunk writes HANG and waits forever
    simulation_worker.py beat QUEUE SCHEDULE   Celery beat, the site's own schedule
    simulation_worker.py run RUN               prints the run's row and, once it is finished,
                                               whether its totals are those of the same games
                                               played in one go

The short lease and the HANG hook exist only here; nothing in the site reads them.
"""

from __future__ import annotations

import json
import os
import sys
import time
from datetime import timedelta
from pathlib import Path

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "napad_site.settings")

import django  # noqa: E402

django.setup()

from bot_worker import _use_queue, beat  # noqa: E402
from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402

from napad_site.celery import app  # noqa: E402

GAMES = 10
BOTS = ["heuristic", "random"]


def setup(queue: str) -> None:
    from games.models import Ruleset
    from games.services.rulesets import rulesets_install_defaults
    from games.services.simulation import simulation_start

    _use_queue(queue)
    call_command("migrate", interactive=False, verbosity=0)
    if "channels" in settings.DATABASES:
        call_command("migrate", database="channels", interactive=False, verbosity=0)
    rulesets_install_defaults()
    run = simulation_start(
        ruleset=Ruleset.objects.get(slug="napad-designed-default", version=1),
        games=GAMES,
        players=3,
        bots=BOTS,
        user=None,
        seed="worker-killed",
    )
    print(json.dumps({"run": run.pk}))


def worker(queue: str, hang: str = "") -> None:
    from games.services import simulation

    # A short lease, so the test waits seconds rather than a minute for the sweep.
    simulation.LEASE = timedelta(seconds=5)
    simulation.HEARTBEAT = timedelta(seconds=1)
    if hang:
        original = simulation.simulation_games_play

        def hangs_in_the_second_chunk(**kwargs):
            if kwargs["start"] > 0 and not Path(hang).exists():
                Path(hang).write_text(str(os.getpid()))
                time.sleep(3600)
            original(**kwargs)

        simulation.simulation_games_play = hangs_in_the_second_chunk
    _use_queue(queue)
    app.worker_main(
        [
            "worker",
            "--pool=solo",
            f"--queues={queue}",
            f"--hostname=simulation-test-{os.getpid()}@localhost",
            "--loglevel=INFO",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ]
    )


def run(run_id: str) -> None:
    from games.models import SimulationRun
    from games.services.simulation import results_empty, simulation_games_play

    row = SimulationRun.objects.select_related("ruleset").get(pk=int(run_id))
    same = None
    if row.status == SimulationRun.Status.FINISHED:
        played = results_empty(row.players)
        simulation_games_play(
            kind=row.ruleset.kind,
            config=row.ruleset.config,
            players=row.players,
            bots=list(row.bots),
            seed=row.seed,
            start=0,
            stop=row.games_requested,
            results=played,
        )
        same = {k: v for k, v in played.items() if k != "seconds"} == {
            k: v for k, v in row.results.items() if k != "seconds"
        }
    print(
        json.dumps(
            {
                "status": row.status,
                "games_done": row.games_done,
                "attempt": row.attempt,
                "error": row.error,
                "same_as_in_one_go": same,
            }
        )
    )


if __name__ == "__main__":
    command, *arguments = sys.argv[1:]
    {"setup": setup, "worker": worker, "beat": beat, "run": run}[command](*arguments)
