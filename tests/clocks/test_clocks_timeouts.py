"""Timeouts: at the deadline each game's timeout policy is played through the play service,
once; repeated timeouts hand the seat to a bot; the member's own move resets the count."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from clockkit import (
    colt_stealin,
    legal,
    play_first_legal,
    seat_of,
    started_game,
    sweep,
    user_to_move,
)

from games.engines import get_engine
from games.models import Game, GameEvent, Notification, Seat, TableNotice
from games.services.clocks.deadlines import clock_policy_set
from games.services.turns.timeouts import timeouts_expired_apply, turn_timeout_apply

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
LIMIT = timedelta(hours=2)


def _expire(game, capture) -> dict:
    """Move the clock to the game's deadline and sweep."""
    game.refresh_from_db()
    with time_machine.travel(game.deadline, tick=False):
        return sweep(game.deadline, capture)


def _expected_timeout(game) -> dict:
    game.refresh_from_db()
    engine = get_engine(game.kind)
    return engine.timeout_action(engine.from_json(game.state), game.to_move[0])


def _last_event(game) -> GameEvent:
    return GameEvent.objects.filter(game=game).order_by("-seq").first()


def test_napad_plays_the_lowest_card_where_passing_is_not_allowed_then_passes(
    alice, bob, django_capture_on_commit_callbacks
):
    with time_machine.travel(T0, tick=False):
        game = started_game(alice, bob, limit=LIMIT)
    # The starting player must send a gang member on the first turn: no pass among options.
    assert all(action["type"] == "play" for action in legal(game))
    expected = _expected_timeout(game)
    assert expected["type"] == "play"
    deck = game.state["decks"][game.to_move[0]]

    def value(action):
        return next(half[1] for half in deck[action["card"]] if half[0] == action["colour"])

    assert value(expected) == min(value(action) for action in legal(game))
    outcome = _expire(game, django_capture_on_commit_callbacks)
    assert outcome["timeouts"] == {"timeout": 1}
    event = _last_event(game)
    assert event.by_clock
    assert event.action == {k: v for k, v in expected.items() if k != "label"}

    # The next player may pass: the clock passes for them.
    assert any(action["type"] == "pass" for action in legal(game))
    _expire(game, django_capture_on_commit_callbacks)
    event = _last_event(game)
    assert event.by_clock and event.action == {"type": "pass"}


def test_colt_schemin_timeout_draws_cards(alice, bob, django_capture_on_commit_callbacks):
    with time_machine.travel(T0, tick=False):
        game = started_game(alice, bob, slug="colt-express", limit=LIMIT)
    game.refresh_from_db()
    assert game.state["phase"] == "schemin"
    _expire(game, django_capture_on_commit_callbacks)
    event = _last_event(game)
    assert event.by_clock and event.action == {"type": "draw"}
    drawn = [e for e in event.public_events if e["type"] == "draw"]
    assert [e["args"]["count"] for e in drawn] == [3]


def test_colt_stealin_timeout_takes_the_first_option(
    alice, bob, charlie, django_capture_on_commit_callbacks
):
    with time_machine.travel(T0, tick=False):
        game = started_game(alice, bob, charlie, slug="colt-express", limit=LIMIT)
        # Seat 0 on the roof of car 1 moves: several destinations, so the owner must choose.
        state = colt_stealin(
            game, at={0: (1, "roof"), 1: (2, "inside"), 2: (3, "inside")}, pile=[(0, "move")]
        )
    assert state["pending"]["kind"] == "move"
    first = {k: v for k, v in legal(game)[0].items() if k != "label"}
    Game.objects.filter(pk=game.pk).update(deadline=T0 + LIMIT)
    _expire(game, django_capture_on_commit_callbacks)
    event = _last_event(game)
    assert event.by_clock and event.seat == 0 and event.action == first


def test_after_three_timeouts_in_a_row_a_bot_takes_the_seat(
    alice, bob, eager_celery, django_capture_on_commit_callbacks
):
    with time_machine.travel(T0, tick=False):
        game = started_game(alice, bob, limit=LIMIT)
    alice_seat = seat_of(game, alice)
    for _step in range(40):
        game.refresh_from_db()
        if Seat.objects.get(pk=alice_seat.pk).is_bot or game.status != Game.Status.RUNNING:
            break
        if user_to_move(game, [alice, bob]) == alice:
            _expire(game, django_capture_on_commit_callbacks)
        else:
            with time_machine.travel(game.deadline - timedelta(minutes=1), tick=False):
                with django_capture_on_commit_callbacks(execute=True):
                    play_first_legal(game)
    seat = Seat.objects.get(pk=alice_seat.pk)
    assert seat.bot_kind == "heuristic" and seat.replaced_by_bot
    assert seat.timeouts == 3 and seat.consecutive_timeouts == 3
    assert TableNotice.objects.filter(game=game, kind="seat_to_bot").count() == 1
    for user in (alice, bob):
        assert Notification.objects.filter(player=user.player, kind="seat_to_bot").count() == 1
    # From now on the bot plays that seat: bob moves, and the game never waits for alice.
    game.refresh_from_db()
    for _step in range(6):
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            break
        assert game.to_move[0] != alice_seat.position, "the bot should have moved"
        with django_capture_on_commit_callbacks(execute=True):
            play_first_legal(game)
    assert GameEvent.objects.filter(game=game, seat=alice_seat.position, by_clock=False).exists()


def test_the_number_of_timeouts_before_the_bot_is_a_per_game_option(
    alice, bob, eager_celery, django_capture_on_commit_callbacks
):
    with time_machine.travel(T0, tick=False):
        game = started_game(alice, bob, limit=LIMIT)
    clock_policy_set(game=game, timeouts_to_bot=1)
    mover = user_to_move(game, [alice, bob])
    _expire(game, django_capture_on_commit_callbacks)
    seat = seat_of(game, mover)
    assert seat.replaced_by_bot and seat.timeouts == 1


def test_the_bot_taking_the_seat_plays_at_the_games_stand_in_level(
    alice, bob, django_capture_on_commit_callbacks
):
    with time_machine.travel(T0, tick=False):
        game = started_game(alice, bob, limit=LIMIT)
    clock_policy_set(game=game, timeouts_to_bot=1, stand_in_level="hard")
    mover = user_to_move(game, [alice, bob])
    _expire(game, django_capture_on_commit_callbacks)
    seat = seat_of(game, mover)
    assert seat.replaced_by_bot and seat.bot_kind == "search"


def test_a_move_of_their_own_resets_the_count(alice, bob, django_capture_on_commit_callbacks):
    with time_machine.travel(T0, tick=False):
        game = started_game(alice, bob, limit=LIMIT)
    counts = []
    for _step in range(30):
        game.refresh_from_db()
        mover = user_to_move(game, [alice, bob])
        if mover != alice:
            with time_machine.travel(game.deadline - timedelta(minutes=1), tick=False):
                play_first_legal(game)
            continue
        if len(counts) == 2:
            # Alice plays herself after two timeouts.
            with time_machine.travel(game.deadline - timedelta(minutes=1), tick=False):
                play_first_legal(game)
            counts.append(seat_of(game, alice).consecutive_timeouts)
            break
        _expire(game, django_capture_on_commit_callbacks)
        counts.append(seat_of(game, alice).consecutive_timeouts)
    assert counts == [1, 2, 0]
    seat = seat_of(game, alice)
    assert seat.timeouts == 2 and not seat.replaced_by_bot


def test_overlapping_sweeps_apply_a_timeout_once(alice, bob, django_capture_on_commit_callbacks):
    with time_machine.travel(T0, tick=False):
        game = started_game(alice, bob, limit=LIMIT)
    game.refresh_from_db()
    now = game.deadline
    stale = (game.pk, game.version, game.deadline)
    with time_machine.travel(now, tick=False):
        # Sweep A found the game due; sweep B ran the whole timeout in the meantime.
        first = sweep(now, django_capture_on_commit_callbacks)
        with django_capture_on_commit_callbacks(execute=True):
            second = turn_timeout_apply(*stale, now)
            third = timeouts_expired_apply(now)
    assert first["timeouts"] == {"timeout": 1}
    assert second == "taken" and third == {}
    assert GameEvent.objects.filter(game=game, by_clock=True).count() == 1
    assert sum(Seat.objects.filter(game=game).values_list("timeouts", flat=True)) == 1


def test_a_bot_whose_move_got_lost_is_played_by_the_sweep(
    alice, django_capture_on_commit_callbacks
):
    with time_machine.travel(T0, tick=False):
        # Bots' queued moves are not run here (no worker): as if the worker died.
        game = started_game(alice, bot_seats={0: "heuristic"}, limit=LIMIT)
    game.refresh_from_db()
    bot_position = 0
    if game.to_move[0] != bot_position:
        _expire(game, django_capture_on_commit_callbacks)
        game.refresh_from_db()
    assert game.to_move[0] == bot_position
    version = game.version
    outcome = _expire(game, django_capture_on_commit_callbacks)
    assert outcome["timeouts"] == {"bot": 1}
    event = GameEvent.objects.get(game=game, seq=version + 1)
    assert event.seat == bot_position and not event.by_clock


@pytest.mark.parametrize("hours", [1.99, 2])
def test_a_timeout_waits_for_the_deadline(alice, bob, hours, django_capture_on_commit_callbacks):
    with time_machine.travel(T0, tick=False):
        started_game(alice, bob, limit=LIMIT)
    now = T0 + timedelta(hours=hours)
    with time_machine.travel(now, tick=False):
        outcome = sweep(now, django_capture_on_commit_callbacks)
    assert sum(outcome["timeouts"].values()) == (1 if hours >= 2 else 0)


def test_the_fanned_out_sweep_queues_each_item_and_claims_keep_it_once(
    alice, bob, charlie, eager_celery, mailoutbox, django_capture_on_commit_callbacks
):
    from games.services.turns import turns_sweep_fan_out

    with time_machine.travel(T0, tick=False):
        expiring = started_game(alice, bob, limit=LIMIT)
        reminding = started_game(alice, charlie, limit=LIMIT * 1.5)
    now = T0 + LIMIT
    with time_machine.travel(now, tick=False):
        with django_capture_on_commit_callbacks(execute=True):
            first = turns_sweep_fan_out(now=now)
            # The next minute's sweep (or a redelivered message) queues the same items again.
            turns_sweep_fan_out(now=now)
    assert first["timeouts_queued"] == 1 and first["reminders_queued"] == 1
    assert GameEvent.objects.filter(game=expiring, by_clock=True).count() == 1
    assert reminding.pk not in set(
        GameEvent.objects.filter(by_clock=True).values_list("game", flat=True)
    )
    from games.models import ReminderSent

    assert ReminderSent.objects.filter(game=reminding).count() == 1
