"""Vacation pauses a member's clocks (and only what they declared); "+24 h" once per seat."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
import time_machine
from clockkit import seat_of, started_game, sweep, user_to_move

from games.models import DeadlineExtension, GameEvent, Leave, ReminderSent, TableNotice
from games.selectors.tables import game_locked_for_move, game_seats
from games.services.clocks import ClockError, deadline_extend, leave_days_used, players_on_leave
from games.services.clocks.leave import LeaveError, leave_cancel, leave_declare
from games.services.clocks.leave_time import seat_leave_intervals
from tests.personakit import client_for

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)  # a Tuesday, noon UTC
LIMIT = timedelta(hours=48)


@pytest.fixture
def game(alice, bob):
    with time_machine.travel(T0, tick=False):
        return started_game(alice, bob, limit=LIMIT)


def test_leave_during_a_turn_pauses_its_clock(game, alice, bob, django_capture_on_commit_callbacks):
    member = user_to_move(game, [alice, bob])
    # After 12 h of the 48, the member leaves for Wed 2 – Fri 4 Dec (UTC): 3 days.
    with time_machine.travel(T0 + timedelta(hours=6), tick=False):
        leave_declare(player=member.player, start=date(2026, 12, 2), end=date(2026, 12, 4))
    game.refresh_from_db()
    leave_start = datetime(2026, 12, 2, tzinfo=UTC)
    leave_end = datetime(2026, 12, 5, tzinfo=UTC)
    # 12 h ran before the leave; the other 36 h run after it.
    assert game.deadline == leave_end + (LIMIT - (leave_start - T0))
    assert TableNotice.objects.filter(game=game, kind="leave").count() == 1

    # At the original deadline nothing happens, nor any reminder during the leave.
    with time_machine.travel(T0 + LIMIT, tick=False):
        outcome = sweep(T0 + LIMIT, django_capture_on_commit_callbacks)
    assert outcome["timeouts"] == {}
    assert not GameEvent.objects.filter(game=game, by_clock=True).exists()
    for step in ReminderSent.objects.filter(game=game):
        assert not leave_start <= step.created_at < leave_end
    with time_machine.travel(game.deadline, tick=False):
        outcome = sweep(game.deadline, django_capture_on_commit_callbacks)
    assert outcome["timeouts"] == {"timeout": 1}


def test_reminders_fall_at_the_same_share_of_running_time(
    game, alice, bob, django_capture_on_commit_callbacks
):
    member = user_to_move(game, [alice, bob])
    with time_machine.travel(T0 + timedelta(hours=1), tick=False):
        leave_declare(player=member.player, start=date(2026, 12, 2), end=date(2026, 12, 2))
    # 50 % of 48 h is 24 h of running time: 12 h before the leave day, 12 h after it.
    half = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)
    with time_machine.travel(half - timedelta(minutes=1), tick=False):
        sweep(half - timedelta(minutes=1), django_capture_on_commit_callbacks)
    assert not ReminderSent.objects.filter(game=game).exists()
    with time_machine.travel(half, tick=False):
        sweep(half, django_capture_on_commit_callbacks)
    assert list(ReminderSent.objects.filter(game=game).values_list("step", flat=True)) == [0]


def test_a_turn_that_starts_during_leave_waits_for_its_end(
    alice, bob, django_capture_on_commit_callbacks
):
    with time_machine.travel(T0, tick=False):
        leave_declare(player=alice.player, start=date(2026, 12, 1), end=date(2026, 12, 3))
        game = started_game(alice, bob, limit=LIMIT)
    game.refresh_from_db()
    mover = user_to_move(game, [alice, bob])
    if mover == alice:
        assert game.deadline == datetime(2026, 12, 4, tzinfo=UTC) + LIMIT
    else:
        assert game.deadline == T0 + LIMIT
    assert [row["player"] for row in players_on_leave(game, T0)] == [alice.player]
    # The game page passes the seats it has loaded: the same answer, without the join.
    seats = game_seats(game_locked_for_move(game.pk))
    with_seats = players_on_leave(game, T0, seats=seats)
    assert [(row["seat"], row["player"], row["leave"].pk) for row in with_seats] == [
        (row["seat"], row["player"], row["leave"].pk) for row in players_on_leave(game, T0)
    ]
    assert players_on_leave(game, T0 + timedelta(days=5), seats=seats) == []
    # The play service's turn clock likewise reads a seat's leave from the seats it holds.
    for seat in seats:
        assert seat_leave_intervals(game, seat.position, T0, seats=seats) == (
            seat_leave_intervals(game, seat.position, T0)
        )
    assert seat_leave_intervals(game, seat_of(game, alice).position, T0, seats=seats)


def test_the_sweep_respects_leave_the_deadline_did_not_know_of(
    game, alice, bob, django_capture_on_commit_callbacks
):
    member = user_to_move(game, [alice, bob])
    # Leave written straight into the table (e.g. by an organiser in the admin).
    Leave.objects.create(player=member.player, start=date(2026, 12, 3), end=date(2026, 12, 3))
    with time_machine.travel(T0 + LIMIT, tick=False):
        outcome = sweep(T0 + LIMIT, django_capture_on_commit_callbacks)
    assert outcome["timeouts"] == {"paused": 1}
    game.refresh_from_db()
    # 36 h ran before the leave day; the last 12 h run after it.
    assert game.deadline == datetime(2026, 12, 4, 12, 0, tzinfo=UTC)


def test_nobody_is_on_leave_unless_they_declared_it(
    game, alice, bob, django_capture_on_commit_callbacks
):
    assert players_on_leave(game, T0) == []
    with time_machine.travel(T0 + LIMIT, tick=False):
        outcome = sweep(T0 + LIMIT, django_capture_on_commit_callbacks)
    assert outcome["timeouts"] == {"timeout": 1}


def test_leave_rules(alice):
    player = alice.player
    with time_machine.travel(T0, tick=False):
        with pytest.raises(LeaveError):
            leave_declare(player=player, start=date(2026, 11, 30), end=date(2026, 12, 2))
        with pytest.raises(LeaveError):
            leave_declare(player=player, start=date(2026, 12, 5), end=date(2026, 12, 4))
        with pytest.raises(LeaveError):
            leave_declare(player=player, start=date(2026, 12, 5), end=date(2027, 2, 4))
        first = leave_declare(player=player, start=date(2026, 12, 5), end=date(2026, 12, 9))
        with pytest.raises(LeaveError):
            leave_declare(player=player, start=date(2026, 12, 9), end=date(2026, 12, 10))
        leave_declare(player=player, start=date(2026, 12, 20), end=date(2026, 12, 21))
    assert leave_days_used(player, date(2026, 12, 1), date(2026, 12, 31)) == 7
    assert leave_days_used(player, date(2026, 12, 8), date(2026, 12, 20)) == 3
    # Planned leave can be cancelled; leave under way ends "today" (days away still count).
    with time_machine.travel(datetime(2026, 12, 7, 9, 0, tzinfo=UTC), tick=False):
        leave_cancel(player=player, leave_id=first.pk)
    first.refresh_from_db()
    assert (first.start, first.end) == (date(2026, 12, 5), date(2026, 12, 6))


def test_the_leave_page_declares_and_cancels(alice, alice_client):
    with time_machine.travel(T0, tick=False):
        assert alice_client.get("/accounts/leave/").status_code == 200
        response = alice_client.post(
            "/accounts/leave/", {"start": "2026-12-10", "end": "2026-12-12", "reason": "Skiing"}
        )
        assert response.status_code == 302
        leave = Leave.objects.get(player=alice.player)
        assert leave.reason == "Skiing" and leave.days == 3
        page = alice_client.get("/accounts/leave/").content.decode()
        assert "Skiing" in page
        bad = alice_client.post("/accounts/leave/", {"start": "2026-12-11", "end": "2026-12-11"})
        assert bad.status_code == 200 and "overlaps" in bad.content.decode()
        alice_client.post(f"/accounts/leave/{leave.pk}/cancel")
    assert not Leave.objects.filter(player=alice.player).exists()


def test_the_game_page_shows_who_is_on_leave(game, alice, bob, bob_client):
    with time_machine.travel(T0, tick=False):
        leave_declare(player=alice.player, start=date(2026, 12, 1), end=date(2026, 12, 8))
        page = bob_client.get(f"/games/{game.pk}/").content.decode()
    assert "Alice is on leave until" in page


# -- "+24 h" -----------------------------------------------------------------------------


def test_a_tablemate_gives_the_slow_player_24_hours_once(
    alice, bob, charlie, django_capture_on_commit_callbacks
):
    with time_machine.travel(T0, tick=False):
        game = started_game(alice, bob, charlie, limit=LIMIT)
    game.refresh_from_db()
    users = [alice, bob, charlie]
    slow = user_to_move(game, users)
    others = [u for u in users if u != slow]
    position = seat_of(game, slow).position
    with pytest.raises(ClockError):
        deadline_extend(game_id=game.pk, user=slow, position=position)
    with time_machine.travel(T0 + timedelta(hours=40), tick=False):
        deadline_extend(game_id=game.pk, user=others[0], position=position)
    game.refresh_from_db()
    assert game.deadline == T0 + LIMIT + timedelta(hours=24)
    with pytest.raises(ClockError, match="already"):
        deadline_extend(game_id=game.pk, user=others[1], position=position)
    assert DeadlineExtension.objects.filter(game=game).count() == 1
    assert TableNotice.objects.filter(game=game, kind="extension").count() == 1
    assert slow.player.notifications.filter(kind="extension").count() == 1
    # The old deadline passes quietly; the new one acts.
    with time_machine.travel(T0 + LIMIT, tick=False):
        assert sweep(T0 + LIMIT, django_capture_on_commit_callbacks)["timeouts"] == {}
    with time_machine.travel(game.deadline, tick=False):
        assert sweep(game.deadline, django_capture_on_commit_callbacks)["timeouts"] == {
            "timeout": 1
        }


def test_the_24_hours_button_on_the_game_page(game, alice, bob):
    slow = user_to_move(game, [alice, bob])
    other = bob if slow == alice else alice
    client = client_for(other)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "24 more hours" in page
    response = client.post(
        f"/games/{game.pk}/extend", {"seat": seat_of(game, slow).position}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert "You gave them 24 more hours." in response.content.decode()
    assert "24 more hours</button>" not in client.get(f"/games/{game.pk}/").content.decode()
    # The slow player sees no button for themselves.
    assert (
        "24 more hours</button>" not in client_for(slow).get(f"/games/{game.pk}/").content.decode()
    )
