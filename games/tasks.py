"""Celery tasks: one-line wrappers around services."""

from celery import shared_task

from games.services import clocks, followups, simulation, turns
from games.services.leagues import results as leagues_results
from games.services.leagues import sweep as leagues_sweep
from games.services.push import sending as push_sending


@shared_task(name="games.bot_move_play")
def bot_move_play_task(game_id: int, version: int) -> None:
    turns.bot_move_play(game_id, version)


@shared_task(name="games.auto_move_play")
def auto_move_play_task(game_id: int, version: int) -> None:
    turns.auto_move_play(game_id, version)


@shared_task(name="games.followups_sweep")
def followups_sweep_task() -> None:
    followups.followups_sweep()


@shared_task(name="games.simulation_run")
def simulation_run_task(run_id: int, attempt: int | None = None) -> None:
    simulation.simulation_run_execute(run_id, attempt)


@shared_task(name="games.simulation_runs_sweep")
def simulation_runs_sweep_task() -> None:
    simulation.simulation_runs_sweep()


@shared_task(name="games.turns_sweep")
def turns_sweep_task() -> None:
    turns.turns_sweep_fan_out()


@shared_task(name="games.turn_timeout_apply")
def turn_timeout_apply_task(game_id: int, version: int, deadline: str) -> None:
    turns.turn_timeout_due_apply(game_id, version, deadline)


@shared_task(name="games.turn_reminder_send")
def turn_reminder_send_task(game_id: int) -> None:
    clocks.turn_reminder_due_send(game_id)


@shared_task(name="games.push_send")
def push_send_task(message_id: int) -> None:
    push_sending.push_message_send_logged(message_id)


@shared_task(name="games.digests_send")
def digests_send_task() -> None:
    clocks.digests_send()


# -- leagues (games/services/leagues) ---------------------------------------------------------


@shared_task(name="games.game_results_record")
def game_results_record_task(game_id: int) -> None:
    leagues_results.game_results_record(game_id)


@shared_task(name="games.league_rounds_sweep")
def league_rounds_sweep_task() -> None:
    leagues_sweep.leagues_sweep()
