"""What a committed change still owes, kept in the game row so that nothing hangs on a message.

Two indexed facts on :class:`~games.models.Game`, each written in the same transaction as the
change that makes it owed:

* ``auto_move_due_at`` — the decision the game waits for is the site's to make: the bot to
  move plays (``NAPAD_BOT_MOVE_DELAY`` after the move before it), or, in Colt Express, a
  standing order answers the member's Stealin' choice (or the member is asked). The next
  move rewrites it; a task that finds nothing to do clears it.
* ``results_due_at`` — a finished game's results are still to be counted; the leagues'
  ledger (games/services/leagues/results.py) clears it in the transaction that counts them.

The Celery task queued after commit (and, for standing orders, the hook the web process runs
after commit) is only the fast path; the task, ``auto_move_play_task``, makes the move
(``games.services.turns.auto_move_play``, through the play service's ``move_play_for_seat``),
above this module.
:func:`followups_sweep` — Celery beat, every 10 s (``followups-sweep`` in the settings) —
reads only the due rows through the two indexes, so its cost grows with the work owed, not
with the games. It leaves each item ``SWEEP_GRACE`` for its fast path, then claims it with a
conditional UPDATE that pushes its due time ``CLAIM_LEASE`` ahead before queueing the task:
two sweeps queue an item once, a lost message costs one sweep period, and a worker killed in
the middle of a bot's move costs a lease (its transaction rolled back, the row is still
due). The move itself is guarded by the game's version, so a duplicated message never moves
twice.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from games.models import Game, Seat

from .queueing import bot_move_queue_on_commit, task_send

logger = logging.getLogger(__name__)

# How long the fast path has before the sweep takes an item over (a bot's countdown runs
# first: see auto_move_due).
SWEEP_GRACE = timedelta(seconds=5)
# A claimed item is left alone this long: its task is queued or running. Past it, the item is
# queued again (its worker died, or the broker lost the message).
CLAIM_LEASE = timedelta(seconds=15)
DEFAULT_BATCH = 1000


def auto_move_due(
    game: Game, seats: list[Seat], to_move: list[int], state: Any, *, now: datetime
) -> datetime | None:
    """When the site owes the decision ``to_move`` waits for, or ``None`` (a member's).

    Called by the move core (games/services/moves.py) for the row it is about to save
    (``state``: its new JSON)."""
    if not to_move:
        return None
    bots = {seat.position for seat in seats if seat.is_bot}
    if bots.intersection(to_move):
        return now + timedelta(seconds=settings.NAPAD_BOT_MOVE_DELAY)
    if to_move and standing_order_may_answer(game.kind, state):
        return now
    return None


def standing_order_may_answer(kind: str, state: Any) -> bool:
    """Whether the decision in ``state`` (a game's JSON state) is a choice that a standing
    order could answer or its member be asked about (games/services/standing_orders.py): the
    move records it as owed, so a lost after-commit hook is caught up. Here, below the
    standing orders, because :func:`auto_move_due` needs it and they need this module."""
    return (
        kind == "colt"
        and isinstance(state, dict)
        and state.get("phase") != "schemin"
        and bool(state.get("pending"))
    )


def bot_move_owed(game: Game) -> None:
    """A bot now holds the seat to move (the clock or a moderator handed it over): owe its
    move. Inside the caller's transaction, on the game's current version."""
    due = timezone.now() + timedelta(seconds=settings.NAPAD_BOT_MOVE_DELAY)
    Game.objects.filter(pk=game.pk, version=game.version).update(auto_move_due_at=due)
    game.auto_move_due_at = due
    bot_move_queue_on_commit(game.pk, game.version)


def auto_move_settled(game_id: int, version: int) -> None:
    """Nothing more is owed for this version's decision (the task found nothing to do)."""
    Game.objects.filter(pk=game_id, version=version, auto_move_due_at__isnull=False).update(
        auto_move_due_at=None
    )


def followups_sweep(
    *, now: datetime | None = None, batch: int | None = None, queue=task_send
) -> dict:
    """Queue every owed move and every owed result whose fast path had its chance."""
    now = now or timezone.now()
    batch = batch or getattr(settings, "NAPAD_SWEEP_BATCH", DEFAULT_BATCH)
    cutoff = now - SWEEP_GRACE
    lease_end = now + CLAIM_LEASE
    counts = {"moves_queued": 0, "results_queued": 0, "cleared": 0}

    due_moves = (
        Game.objects.filter(auto_move_due_at__lte=cutoff)
        .order_by("auto_move_due_at")
        .values_list("pk", "version", "status", "auto_move_due_at")[:batch]
    )
    for game_id, version, status, due_at in due_moves:
        if status != Game.Status.RUNNING:
            # Aborted (or otherwise stopped) with a move owed: nothing is owed any more.
            counts["cleared"] += Game.objects.filter(pk=game_id, auto_move_due_at=due_at).update(
                auto_move_due_at=None
            )
            continue
        claimed = Game.objects.filter(pk=game_id, version=version, auto_move_due_at=due_at).update(
            auto_move_due_at=lease_end
        )
        if claimed and _queued(queue, "games.auto_move_play", (game_id, version)):
            counts["moves_queued"] += 1

    due_results = (
        Game.objects.filter(results_due_at__lte=cutoff)
        .order_by("results_due_at")
        .values_list("pk", "results_due_at")[:batch]
    )
    for game_id, due_at in due_results:
        claimed = Game.objects.filter(pk=game_id, results_due_at=due_at).update(
            results_due_at=lease_end
        )
        if claimed and _queued(queue, "games.game_results_record", (game_id,)):
            counts["results_queued"] += 1
    return counts


def _queued(queue, task_name: str, args: tuple) -> bool:
    try:
        queue(task_name, args)
    except Exception:
        # The broker is away: the claim runs out and a later sweep queues it again.
        logger.exception("could not queue %s%r; a later sweep tries again", task_name, args)
        return False
    return True
