"""What a move owes after commit is a fact in the game row, and the followups sweep makes it
happen when the message that should have done it never came: a bot whose move was lost moves
(once), an overlapping sweep or a duplicated task never moves it twice, a claim whose worker
died is taken again after its lease, and a stopped game owes nothing.

Here no after-commit callback runs (a plain ``django_db`` test): every Celery message the
move queued is lost, as when the broker drops it or the process dies right after commit."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game, GameEvent, Seat
from games.services import followups, moderation, play
from napad_site.celery import app
from tests.gamekit import open_table

pytestmark = pytest.mark.django_db

AFTER_GRACE = followups.SWEEP_GRACE + timedelta(seconds=1)


def _napad_for_two(alice, *, bot: bool) -> Game:
    """Alice and a bot (or, without ``bot``, an empty seat) at an open two-seat Napad table."""
    return open_table(alice, seats=2, bots={1: "heuristic"} if bot else {})


def _bot_opens(alice) -> Game:
    """Alice against a bot that moves first."""
    game = _napad_for_two(alice, bot=True)
    return play.game_start(game_id=game.pk, user=alice, first_player=1)


class Queue:
    """What a sweep queued; ``run()`` delivers it (each message as often as asked)."""

    def __init__(self):
        self.sent: list[tuple[str, tuple]] = []

    def __call__(self, task_name: str, args: tuple) -> None:
        self.sent.append((task_name, args))

    def run(self, times: int = 1) -> None:
        for name, args in list(self.sent):
            for _ in range(times):
                app.tasks[name](*args)  # the task registered under the name sent


def _events(game: Game) -> list[tuple[int, int]]:
    return list(GameEvent.objects.filter(game=game).order_by("seq").values_list("seq", "seat"))


def test_it_marks_the_bots_move_owed_in_the_same_transaction_as_the_move(alice):
    game = _bot_opens(alice)
    assert game.to_move == [1]
    assert game.auto_move_due_at is not None
    # Nothing is due while its own message may still come (the grace).
    assert followups.followups_sweep(now=timezone.now(), queue=Queue())["moves_queued"] == 0


def test_a_bot_whose_message_was_lost_moves_once_when_the_sweep_comes(alice):
    game = _bot_opens(alice)
    queue = Queue()
    counts = followups.followups_sweep(now=timezone.now() + AFTER_GRACE, queue=queue)
    assert counts["moves_queued"] == 1
    assert queue.sent == [("games.auto_move_play", (game.pk, 0))]
    # Delivered twice (a redelivery, or the hint arriving late): one move.
    queue.run(times=2)
    game.refresh_from_db()
    assert _events(game) == [(1, 1)]
    assert game.to_move == [0]
    # Alice's turn: nothing owed any more.
    assert game.auto_move_due_at is None


def test_two_sweeps_at_once_queue_the_owed_move_once(alice):
    game = _bot_opens(alice)
    now = timezone.now() + AFTER_GRACE
    first, second = Queue(), Queue()
    followups.followups_sweep(now=now, queue=first)
    followups.followups_sweep(now=now, queue=second)
    assert len(first.sent) == 1 and second.sent == []
    game.refresh_from_db()
    assert game.auto_move_due_at == now + followups.CLAIM_LEASE


def test_a_claim_whose_worker_died_is_queued_again_after_its_lease(alice):
    game = _bot_opens(alice)
    now = timezone.now() + AFTER_GRACE
    lost = Queue()
    followups.followups_sweep(now=now, queue=lost)
    # The worker that took the message died: nothing ran. Within the lease nobody requeues.
    within = Queue()
    followups.followups_sweep(now=now + followups.CLAIM_LEASE, queue=within)
    assert within.sent == []
    later = Queue()
    followups.followups_sweep(now=now + followups.CLAIM_LEASE + AFTER_GRACE, queue=later)
    assert later.sent == [("games.auto_move_play", (game.pk, 0))]
    later.run()
    lost.run()  # the first message redelivered after all: the game moved on
    assert _events(game) == [(1, 1)]


def test_a_sweep_whose_broker_is_away_leaves_the_move_owed(alice, caplog):
    game = _bot_opens(alice)
    now = timezone.now() + AFTER_GRACE

    def broker_away(task_name, args):
        raise ConnectionError("broker unreachable")

    assert followups.followups_sweep(now=now, queue=broker_away)["moves_queued"] == 0
    assert "a later sweep tries again" in caplog.text
    back = Queue()
    followups.followups_sweep(now=now + followups.CLAIM_LEASE + AFTER_GRACE, queue=back)
    back.run()
    assert _events(game) == [(1, 1)]


def test_a_seat_handed_to_a_bot_by_a_moderator_owes_the_bots_move(alice, bob, charlie):
    game = _napad_for_two(alice, bot=False)
    play.seat_join(game_id=game.pk, user=bob)
    game = play.game_start(game_id=game.pk, user=alice, first_player=1)
    assert game.auto_move_due_at is None  # bob, a member, is to move
    charlie.is_staff = charlie.is_superuser = True
    charlie.save()
    moderation.seat_to_bot(
        game_id=game.pk, position=1, actor=charlie, bot_kind="heuristic", reason="away"
    )
    queue = Queue()
    followups.followups_sweep(now=timezone.now() + AFTER_GRACE, queue=queue)
    queue.run()
    assert _events(game) == [(1, 1)]
    assert Seat.objects.get(game=game, position=1).bot_kind == "heuristic"


def test_a_game_stopped_with_a_move_owed_owes_nothing(alice):
    game = _bot_opens(alice)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.ABORTED)
    queue = Queue()
    counts = followups.followups_sweep(now=timezone.now() + AFTER_GRACE, queue=queue)
    assert counts == {"moves_queued": 0, "results_queued": 0, "cleared": 1}
    game.refresh_from_db()
    assert game.auto_move_due_at is None and not _events(game)


def test_the_beat_runs_the_followups_sweep_every_ten_seconds():
    from django.conf import settings

    schedule = {e["task"]: e["schedule"] for e in settings.CELERY_BEAT_SCHEDULE.values()}
    assert schedule["games.followups_sweep"] == 10.0
