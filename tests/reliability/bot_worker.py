"""The processes of test_bot_worker_killed.py, on the broker and database the environment
names (Redis + PostgreSQL, or the embedded ``filesystem://`` broker + SQLite in
``NAPAD_VAR_DIR``). Every one of them sends to, and listens on, the queue it is given, so no
other worker on the machine takes these messages.

    bot_worker.py setup QUEUE            migrate, and start Alice's game against a bot that
                                         moves first (its move queued after commit); prints
                                         {"game": id}
    bot_worker.py worker QUEUE [HANG]    a Celery worker (one process); with HANG (a file
                                         path), the first move a bot makes writes HANG and
                                         then waits forever *inside its transaction*
    bot_worker.py beat QUEUE SCHEDULE    Celery beat, the site's own schedule
    bot_worker.py marker QUEUE PATH      queue a task that writes PATH: once it has run,
                                         everything queued before it has run too
    bot_worker.py events GAME            prints the game's log and what it still owes

The HANG hook and the marker task exist only here; nothing in the site reads them.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "napad_site.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402

from napad_site.celery import app  # noqa: E402


@app.task(name="napad_test.marker")
def marker(path: str) -> None:
    Path(path).write_text("reached")


def _use_queue(queue: str) -> None:
    app.conf.task_always_eager = False
    app.conf.task_default_queue = queue


def setup(queue: str) -> None:
    from datetime import timedelta

    from games.models import Ruleset
    from games.services import play
    from games.services.accounts import user_sign_up
    from games.services.rulesets import rulesets_install_defaults

    _use_queue(queue)
    call_command("migrate", interactive=False, verbosity=0)
    if "channels" in settings.DATABASES:
        call_command("migrate", database="channels", interactive=False, verbosity=0)
    rulesets_install_defaults()
    alice = user_sign_up(
        username="alice",
        email="alice@example.org",
        password="train-robbery-42",  # noqa: S106
        display_name="Alice",
    )
    game = play.game_create(
        creator=alice,
        ruleset=Ruleset.objects.get(slug="napad-designed-default", version=1),
        seats=2,
        turn_time_limit=timedelta(hours=24),
        bot_seats={1: "heuristic"},
    )
    game = play.game_start(game_id=game.pk, user=alice, first_player=1)
    print(json.dumps({"game": game.pk}))


def worker(queue: str, hang: str = "") -> None:
    if hang:
        from games.services import play

        original = play.turn_clock_after_move

        def hangs_in_the_bots_move(*args, by_member, **kwargs):
            # Called inside the move's transaction, after its row and event are written.
            original(*args, by_member=by_member, **kwargs)
            if not by_member and not Path(hang).exists():
                Path(hang).write_text(str(os.getpid()))
                time.sleep(3600)

        play.turn_clock_after_move = hangs_in_the_bots_move
    _use_queue(queue)
    app.worker_main(
        [
            "worker",
            "--pool=solo",
            f"--queues={queue}",
            f"--hostname=bot-test-{os.getpid()}@localhost",
            "--loglevel=INFO",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ]
    )


def beat(queue: str, schedule: str) -> None:
    _use_queue(queue)
    app.start(["beat", "--loglevel=INFO", f"--schedule={schedule}"])


def send_marker(queue: str, path: str) -> None:
    _use_queue(queue)
    marker.apply_async((path,), queue=queue)
    print(json.dumps({"queued": path}))


def events(game_id: str) -> None:
    from games.models import Game, GameEvent

    game = Game.objects.get(pk=int(game_id))
    log = GameEvent.objects.filter(game=game).order_by("seq")
    print(
        json.dumps(
            {
                "events": [list(row) for row in log.values_list("seq", "seat", "by_clock")],
                "version": game.version,
                "to_move": game.to_move,
                "move_owed": game.auto_move_due_at is not None,
            }
        )
    )


if __name__ == "__main__":
    command, *arguments = sys.argv[1:]
    {
        "setup": setup,
        "worker": worker,
        "beat": beat,
        "marker": send_marker,
        "events": events,
    }[command](*arguments)
