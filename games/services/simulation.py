"""Balance simulations: many bot games with one ruleset, run in Celery, with progress.

The games are played by the pure simulator (``games.engines.simulator.simulate``), one game
per call, so that each game's scores feed the score distribution and progress can be saved
between chunks. Game ``i`` of a run uses the seed ``"<run seed>-<i>"`` and the bots' line-up
shifted by ``i`` seats (every bot sits in every seat), so a run and its baseline on the
parent version deal exactly the same games and differ only by the rules.

``SimulationRun.results`` holds running *totals* (so a half-finished run can be shown and
totals add up across chunks); :func:`simulation_summary` turns them into rates and means.

A run is owed until it is finished or failed, and the row says so: its runner keeps a lease
(``lease_until``, renewed at least every ``HEARTBEAT``) and saves games and totals together
after each chunk. A run whose lease ran out — its message was lost, its worker was killed —
is found by :func:`simulation_runs_sweep` (beat), put back in the queue under the next
``attempt`` number, and resumes from its last saved chunk; a runner of an older attempt
stops at its next save, so no game is counted twice.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import F
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engines import get_engine
from games.engines.simulator import simulate
from games.models import Ruleset, SimulationRun
from games.services.queueing import task_queue_on_commit, task_send

logger = logging.getLogger(__name__)

# Progress is saved after every chunk: often enough for a smooth bar, rarely enough that the
# database is not the bottleneck.
MIN_CHUNK = 5
MAX_CHUNK = 100
PROGRESS_STEPS = 25
# A runner renews its lease at least this often (after a game, so a long game of search bots
# delays it by that game); a lease this long past its last renewal means the runner is gone.
HEARTBEAT = timedelta(seconds=10)
LEASE = timedelta(seconds=60)


class SimulationError(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def _empty_tally() -> dict[str, float]:
    return {"games": 0, "wins": 0, "score": 0, "place": 0}


def _tally_add(tally: dict[str, float], row: dict[str, Any]) -> None:
    """Add one simulator summary row (of a one-game simulation: exact values)."""
    games = row["games"]
    tally["games"] += games
    tally["wins"] += row["wins"]
    tally["score"] += row["mean_score"] * games
    tally["place"] += row["mean_place"] * games


def results_empty(players: int) -> dict[str, Any]:
    return {
        "games": 0,
        "actions": 0,
        "seconds": 0.0,
        "per_seat": [_empty_tally() for _ in range(players)],
        "per_bot": {},
        "per_identity": {},
        # score -> how many seat results had it (JSON keys are strings)
        "scores": {},
        "winning_scores": {},
    }


def results_add_game(results: dict[str, Any], game: dict[str, Any]) -> None:
    """Fold one game's simulator summary into the running totals."""
    results["games"] += game["games"]
    results["actions"] += game["actions"]
    for tally, row in zip(results["per_seat"], game["per_seat"]):
        _tally_add(tally, row)
    for group in ("per_bot", "per_identity"):
        for name, row in game[group].items():
            _tally_add(results[group].setdefault(name, _empty_tally()), row)
    for row in game["per_seat"]:
        score = str(round(row["mean_score"]))
        results["scores"][score] = results["scores"].get(score, 0) + 1
        if row["wins"]:
            results["winning_scores"][score] = results["winning_scores"].get(score, 0) + 1


def lineup_for_game(bots: list[str], players: int, index: int) -> list[str]:
    """The bot of each seat in game ``index``: the line-up shifted one seat per game."""
    lineup = [bots[seat % len(bots)] for seat in range(players)]
    shift = index % players
    return [lineup[(seat + shift) % players] for seat in range(players)]


def simulation_games_play(
    *,
    kind: str,
    config: dict[str, Any],
    players: int,
    bots: list[str],
    seed: str,
    start: int,
    stop: int,
    results: dict[str, Any],
    after_game: Callable[[], None] | None = None,
) -> None:
    """Play games ``start..stop-1`` of a run and add them to ``results`` (pure: no database;
    ``after_game`` is the runner's heartbeat)."""
    began = time.perf_counter()
    for index in range(start, stop):
        if after_game is not None and index > start:
            after_game()
        game = simulate(
            kind,
            1,
            players,
            f"{seed}-{index}",
            lineup_for_game(bots, players, index),
            config,
            rotate=False,
        )
        results_add_game(results, game)
    results["seconds"] = round(results["seconds"] + time.perf_counter() - began, 3)


def chunk_size(total: int) -> int:
    return max(MIN_CHUNK, min(MAX_CHUNK, total // PROGRESS_STEPS or 1))


# -- starting a run ---------------------------------------------------------------------------


def _validate_request(ruleset: Ruleset, games: int, players: int, bots: list[str]) -> None:
    engine = get_engine(ruleset.kind)
    if not SimulationRun.MIN_GAMES <= games <= SimulationRun.MAX_GAMES:
        raise SimulationError(
            _("Simulate from %(low)s to %(high)s games.")
            % {"low": SimulationRun.MIN_GAMES, "high": SimulationRun.MAX_GAMES}
        )
    if not engine.min_players <= players <= engine.max_players:
        raise SimulationError(
            _("%(game)s takes %(low)s to %(high)s players.")
            % {"game": engine.name, "low": engine.min_players, "high": engine.max_players}
        )
    if not bots:
        raise SimulationError(_("Choose at least one bot."))
    unknown = sorted(set(bots) - set(engine.bots))
    if unknown:
        raise SimulationError(_("Unknown bot(s): %(bots)s.") % {"bots": ", ".join(unknown)})


def _queue_on_commit(run_id: int) -> None:
    task_queue_on_commit("games.simulation_run", (run_id, 0))


def simulation_start(
    *,
    ruleset: Ruleset,
    games: int,
    players: int,
    bots: list[str],
    user: AbstractBaseUser | None,
    seed: str | None = None,
    compare_with_parent: bool = True,
) -> SimulationRun:
    """Queue a run (and, for a clone, the same run on the version it was cloned from, unless
    an identical one has finished already). Drafts may be simulated: that is the point."""
    bots = list(bots)
    _validate_request(ruleset, games, players, bots)
    seed = seed or secrets.token_hex(8)
    created_by = user if user is not None and user.is_authenticated else None
    with transaction.atomic():
        baseline = None
        parent = ruleset.cloned_from if compare_with_parent else None
        if parent is not None:
            baseline = (
                SimulationRun.objects.filter(
                    ruleset=parent,
                    games_requested=games,
                    players=players,
                    bots=bots,
                    seed=seed,
                )
                .exclude(status=SimulationRun.Status.FAILED)
                .first()
            )
            if baseline is None:
                baseline = SimulationRun.objects.create(
                    ruleset=parent,
                    games_requested=games,
                    players=players,
                    bots=bots,
                    seed=seed,
                    created_by=created_by,
                    lease_until=timezone.now() + LEASE,
                )
                _queue_on_commit(baseline.pk)
        run = SimulationRun.objects.create(
            ruleset=ruleset,
            games_requested=games,
            players=players,
            bots=bots,
            seed=seed,
            baseline=baseline,
            created_by=created_by,
            lease_until=timezone.now() + LEASE,
        )
        _queue_on_commit(run.pk)
    return run


# -- running it (the Celery task calls this) --------------------------------------------------


class _Superseded(Exception):
    """The sweep handed the run to a newer attempt: this runner stops without saving."""


class _Runner:
    """One attempt at a run: every write is conditional on still holding it."""

    def __init__(self, run_id: int, attempt: int):
        self.held = SimulationRun.objects.filter(
            pk=run_id, attempt=attempt, status=SimulationRun.Status.RUNNING
        )
        self.renewed = time.monotonic()

    def heartbeat(self) -> None:
        if time.monotonic() - self.renewed < HEARTBEAT.total_seconds():
            return
        if not self.held.update(lease_until=timezone.now() + LEASE):
            raise _Superseded
        self.renewed = time.monotonic()

    def save(self, before: int, done: int, results: dict[str, Any]) -> None:
        # games_done is the version: a save on top of another runner's chunk would count
        # that chunk twice.
        saved = self.held.filter(games_done=before).update(
            games_done=done, results=results, lease_until=timezone.now() + LEASE
        )
        if not saved:
            raise _Superseded
        self.renewed = time.monotonic()

    def end(self, **fields: Any) -> None:
        self.held.update(lease_until=None, finished_at=timezone.now(), **fields)


def simulation_run_execute(
    run_id: int,
    attempt: int | None = None,
    *,
    on_progress: Callable[[int, int], None] | None = None,
) -> SimulationRun | None:
    """Play the run's games in chunks, saving totals and progress after each chunk.

    Claimed with a conditional update on the queued run and its attempt number, so a task
    delivered twice runs the games once; a run queued again after its worker died resumes
    after its last saved chunk. ``attempt`` is the one the message was queued for (``None``:
    the run's current one). A failure is recorded on the run (status "failed", the error)
    rather than retried: the same seed would fail the same way.
    """
    if attempt is None:
        attempt = SimulationRun.objects.filter(pk=run_id).values_list("attempt", flat=True).first()
        if attempt is None:
            return None
    now = timezone.now()
    claimed = SimulationRun.objects.filter(
        pk=run_id, attempt=attempt, status=SimulationRun.Status.QUEUED
    ).update(
        status=SimulationRun.Status.RUNNING,
        started_at=Coalesce(F("started_at"), now),
        lease_until=now + LEASE,
    )
    if not claimed:
        return None
    run = SimulationRun.objects.select_related("ruleset").get(pk=run_id)
    runner = _Runner(run_id, attempt)
    total = run.games_requested
    done = run.games_done
    results = run.results or results_empty(run.players)
    try:
        config = run.ruleset.config
        step = chunk_size(total)
        while done < total:
            stop = min(total, done + step)
            simulation_games_play(
                kind=run.ruleset.kind,
                config=config,
                players=run.players,
                bots=list(run.bots),
                seed=run.seed,
                start=done,
                stop=stop,
                results=results,
                after_game=runner.heartbeat,
            )
            runner.save(done, stop, results)
            done = stop
            if on_progress is not None:
                on_progress(done, total)
    except _Superseded:
        logger.warning("simulation run %s: attempt %s was superseded", run_id, attempt)
        return None
    except Exception as error:
        logger.exception("simulation run %s failed after %s games", run_id, done)
        runner.end(
            status=SimulationRun.Status.FAILED, error=f"{type(error).__name__}: {error}"[:2000]
        )
    else:
        runner.end(status=SimulationRun.Status.FINISHED)
    run.refresh_from_db()
    return run


def simulation_runs_sweep(*, now: datetime | None = None, queue=task_send) -> int:
    """Queue again every unfinished run whose lease ran out, under its next attempt; returns
    how many. Reads only those rows (the ``simulation_owed_idx`` index)."""
    now = now or timezone.now()
    owed = SimulationRun.objects.filter(
        status__in=[SimulationRun.Status.QUEUED, SimulationRun.Status.RUNNING],
        lease_until__lte=now,
    ).values_list("pk", "attempt", "lease_until")
    queued = 0
    for run_id, attempt, lease_until in owed:
        # Conditional on what was read: two sweeps hand a run to one new attempt.
        claimed = SimulationRun.objects.filter(
            pk=run_id, attempt=attempt, lease_until=lease_until
        ).update(attempt=attempt + 1, status=SimulationRun.Status.QUEUED, lease_until=now + LEASE)
        if not claimed:
            continue
        try:
            queue("games.simulation_run", (run_id, attempt + 1))
        except Exception:
            # The broker is away: the new lease runs out and a later sweep tries again.
            logger.exception("could not queue simulation run %s; a later sweep tries again", run_id)
            continue
        logger.info("simulation run %s queued again (attempt %s)", run_id, attempt + 1)
        queued += 1
    return queued


# -- reading the results ----------------------------------------------------------------------


def _rates(tally: dict[str, float]) -> dict[str, Any]:
    games = tally["games"] or 1
    return {
        "games": int(tally["games"]),
        "wins": int(tally["wins"]),
        "win_rate": tally["wins"] / games,
        "mean_score": tally["score"] / games,
        "mean_place": tally["place"] / games,
    }


def simulation_summary(results: dict[str, Any] | None) -> dict[str, Any] | None:
    """Rates and means from the stored totals (``None`` before the first chunk)."""
    if not results or not results.get("games"):
        return None
    scores = {int(score): count for score, count in results["scores"].items()}
    winning = {int(score): count for score, count in results["winning_scores"].items()}
    all_scores = sum(scores.values()) or 1
    return {
        "games": results["games"],
        "mean_actions_per_game": results["actions"] / results["games"],
        "seconds": results["seconds"],
        "per_seat": [_rates(tally) for tally in results["per_seat"]],
        "per_bot": {name: _rates(t) for name, t in sorted(results["per_bot"].items())},
        "per_identity": {name: _rates(t) for name, t in sorted(results["per_identity"].items())},
        "scores": dict(sorted(scores.items())),
        "winning_scores": dict(sorted(winning.items())),
        "mean_score": sum(score * count for score, count in scores.items()) / all_scores,
    }
