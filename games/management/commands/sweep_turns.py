"""``manage.py sweep_turns``: run the turn-clock sweep once (what Celery beat does every
minute), printing what it did as JSON.

``--benchmark`` measures the sweep instead, on a throwaway club built inside a transaction
that is rolled back at the end: ``--games`` running games (default 100,000), of which
``--due`` (default 1,000) need something now — half a reminder, half a timeout (real game
states, so the timeout is a real move). It times both ways to sweep: what beat runs (find the
due items and queue one task each, here onto an in-memory broker) and doing every item in
this process. Nothing is kept and no email is sent.
"""

from __future__ import annotations

import json
import time
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from django.urls import reverse
from django.utils import timezone

from games.engines import get_engine
from games.models import Game, Player, Ruleset, Seat, TurnClock
from games.services.rulesets import rulesets_install_defaults
from games.services.turns import turns_sweep, turns_sweep_fan_out

BULK_BATCH = 5000


class _Rollback(Exception):
    """Raised to undo the benchmark's club once measured."""


class Command(BaseCommand):
    help = "Sweep the turn clocks once: due reminders, expired deadlines (--benchmark: time it)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--benchmark", action="store_true", help="Time a sweep on a throwaway club."
        )
        parser.add_argument("--games", type=int, default=100_000, help="Running games (benchmark).")
        parser.add_argument("--due", type=int, default=1_000, help="Of which due now (benchmark).")

    def handle(self, *args, benchmark, games, due, **options):
        if not benchmark:
            self.stdout.write(json.dumps(turns_sweep(), sort_keys=True))
            return
        if games < 1 or not 0 <= due <= games:
            raise CommandError("--games must be at least 1 and --due between 0 and --games")
        report: dict = {}
        try:
            with transaction.atomic():
                report = self._benchmark(games, due)
                raise _Rollback
        except _Rollback:
            pass
        self.stdout.write(json.dumps(report, sort_keys=True))

    def _benchmark(self, games: int, due: int) -> dict:
        started = time.perf_counter()
        rulesets_install_defaults()
        ruleset = Ruleset.objects.get(slug="napad-designed-default", version=1)
        engine = get_engine("napad")
        user = get_user_model().objects.create(
            username="sweep-benchmark", email="bench@example.org"
        )
        # (A signal may have made the profile already.)
        player, _created = Player.objects.get_or_create(
            user=user, defaults={"display_name": "Benchmark"}
        )
        now = timezone.now()
        limit = timedelta(hours=24)
        expired = due // 2
        reminders = due - expired
        rows = []
        for index in range(games):
            is_expired = index < expired
            rows.append(
                Game(
                    ruleset=ruleset,
                    kind="napad",
                    config=ruleset.config if index < due else {},
                    seats_count=2,
                    status=Game.Status.RUNNING,
                    turn_time_limit=limit,
                    seed=f"bench-{index}",
                    seed_hash="",
                    state=None,
                    version=1,
                    to_move=[0],
                    started_at=now - limit,
                    # Spread over the day so the index has a realistic shape.
                    deadline=now - timedelta(minutes=1)
                    if is_expired
                    else now + timedelta(seconds=60 + (index * 7919) % 80_000),
                )
            )
        Game.objects.bulk_create(rows, batch_size=BULK_BATCH)
        made = list(
            Game.objects.filter(seed__startswith="bench-").order_by("pk").values_list("pk", "seed")
        )
        due_ids = {pk for pk, seed in made if int(seed[6:]) < due}
        # Due games are real ones: a dealt state the timeout can move on, the member in the
        # seat that must act and a bot in the other.
        seats = []
        for pk, seed in made:
            if pk in due_ids:
                state = engine.setup(ruleset.config, 2, seed)
                to_move = engine.to_move(state)
                Game.objects.filter(pk=pk).update(state=engine.to_json(state), to_move=to_move)
                seats.append(Seat(game_id=pk, position=to_move[0], player=player))
                seats.append(Seat(game_id=pk, position=1 - to_move[0], bot_kind="heuristic"))
        Seat.objects.bulk_create(seats, batch_size=BULK_BATCH)
        clocks = []
        for pk, seed in made:
            index = int(seed[6:])
            is_reminder = expired <= index < due
            is_expired = index < expired
            clocks.append(
                TurnClock(
                    game_id=pk,
                    version=1,
                    started_at=(
                        now - timedelta(hours=13)
                        if is_reminder
                        else now - timedelta(minutes=1) - limit
                        if is_expired
                        else now
                    ),
                    next_step=0,
                    next_reminder_at=now - timedelta(seconds=30)
                    if is_reminder
                    else now + timedelta(hours=1 + index % 12),
                )
            )
        TurnClock.objects.bulk_create(clocks, batch_size=BULK_BATCH)
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE games_game; ANALYZE games_turnclock;")
        built = time.perf_counter() - started
        # A worker has its URLs and engines loaded long before a sweep: warm them up here too.
        reverse("game_detail", args=[1])

        query_started = time.perf_counter()
        found_timeouts = Game.objects.filter(status=Game.Status.RUNNING, deadline__lte=now).count()
        found_reminders = TurnClock.objects.filter(next_reminder_at__lte=now).count()
        query_seconds = time.perf_counter() - query_started

        fanned = self._fan_out_on_memory_broker(now, max(due, 1))
        result = turns_sweep(now=now, batch=max(due, 1))
        return {
            "fan_out_seconds": fanned["seconds"],
            "fan_out_queued": fanned["timeouts_queued"] + fanned["reminders_queued"],
            "database": connection.vendor,
            "games": games,
            "due_reminders": reminders,
            "due_timeouts": expired,
            "found": {"reminders": found_reminders, "timeouts": found_timeouts},
            "find_seconds": round(query_seconds, 4),
            "sweep_seconds": result["seconds"],
            "sweep_ms_per_item": round(1000 * result["seconds"] / max(due, 1), 2),
            "sweep": {"reminders": result["reminders"], "timeouts": result["timeouts"]},
            "build_seconds": round(built, 2),
        }

    @staticmethod
    def _fan_out_on_memory_broker(now, batch: int) -> dict:
        """Time what beat runs (find + queue one task per item), publishing real task
        messages to kombu's in-memory broker so no worker acts on this throwaway club: each
        message goes through a connection of the bench's own (``send_task(connection=…)``),
        the app's broker and pool left as they are."""
        from napad_site.celery import app

        eager = app.conf.task_always_eager
        app.conf.task_always_eager = False
        try:
            with app.connection_for_write("memory://", transport_options={}) as connection:

                def queue(task_name: str, args: tuple) -> None:
                    app.send_task(task_name, args, connection=connection)

                return turns_sweep_fan_out(now=now, batch=batch, queue=queue)
        finally:
            app.conf.task_always_eager = eager
