"""The reminder ladder: each step once, through the member's channels, never while they look
at the game, and not in their quiet hours."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

import pytest
import time_machine
from clockkit import play_first_legal, started_game, sweep, user_to_move

from games.models import Notification, ReminderSent, TurnClock
from games.services.clocks.deadlines import clock_policy_set
from games.services.presence import presence_touch

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
LIMIT = timedelta(hours=10)


@pytest.fixture
def game(alice, bob):
    with time_machine.travel(T0, tick=False):
        return started_game(alice, bob, limit=LIMIT)


def _reminders(game):
    return list(
        ReminderSent.objects.filter(game=game).order_by("step").values_list("step", "outcome")
    )


def test_it_sends_each_ladder_step_once(
    game, alice, bob, mailoutbox, django_capture_on_commit_callbacks
):
    member = user_to_move(game, [alice, bob])
    with time_machine.travel(T0, tick=False) as traveller:
        for hours, expected_steps in [
            (4.9, []),
            (5, [0]),
            (5.5, [0]),
            (8, [0, 1]),
            (8, [0, 1]),
            (9.5, [0, 1, 2]),
            (9.9, [0, 1, 2]),
        ]:
            now = T0 + timedelta(hours=hours)
            traveller.move_to(now)
            sweep(now, django_capture_on_commit_callbacks)
            sweep(now, django_capture_on_commit_callbacks)  # a second, overlapping sweep
            assert [step for step, _outcome in _reminders(game)] == expected_steps

    assert {outcome for _step, outcome in _reminders(game)} == {"sent"}
    notes = Notification.objects.filter(player=member.player, kind="turn_reminder")
    assert notes.count() == 3
    assert len(mailoutbox) == 3
    assert {tuple(mail.to) for mail in mailoutbox} == {(member.email,)}
    first = mailoutbox[0]
    assert f"game #{game.pk}" in first.subject
    assert f"/games/{game.pk}/" in first.body
    assert "5 h" in first.body  # half of ten hours left
    assert ReminderSent.objects.filter(game=game, email_sent_at__isnull=True).count() == 0


def test_a_late_sweep_sends_only_the_latest_due_step(
    game, alice, bob, mailoutbox, django_capture_on_commit_callbacks
):
    now = T0 + timedelta(hours=8.5)
    with time_machine.travel(now, tick=False):
        sweep(now, django_capture_on_commit_callbacks)
    assert _reminders(game) == [(1, "sent")]
    assert len(mailoutbox) == 1


def test_a_move_starts_a_fresh_ladder(game, alice, bob, django_capture_on_commit_callbacks):
    with time_machine.travel(T0 + timedelta(hours=6), tick=False):
        sweep(T0 + timedelta(hours=6), django_capture_on_commit_callbacks)
        play_first_legal(game)
    game.refresh_from_db()
    clock = TurnClock.objects.get(game=game)
    assert clock.version == game.version
    assert clock.next_step == 0
    assert clock.next_reminder_at == T0 + timedelta(hours=6) + LIMIT / 2
    assert game.deadline == T0 + timedelta(hours=6) + LIMIT


def test_the_ladder_points_are_configurable_per_game(
    game, alice, bob, django_capture_on_commit_callbacks
):
    clock_policy_set(game=game, reminder_points=[25, 90])
    now = T0 + timedelta(hours=2.5)
    with time_machine.travel(now, tick=False):
        sweep(now, django_capture_on_commit_callbacks)
        sweep(T0 + timedelta(hours=9), django_capture_on_commit_callbacks)
    assert [step for step, _ in _reminders(game)] == [0, 1]


def test_it_sends_nothing_while_the_member_has_the_game_open(
    game, alice, bob, mailoutbox, django_capture_on_commit_callbacks
):
    member = user_to_move(game, [alice, bob])
    with time_machine.travel(T0 + timedelta(hours=5), tick=False) as traveller:
        presence_touch(game.pk, member.pk)
        sweep(T0 + timedelta(hours=5), django_capture_on_commit_callbacks)
        assert _reminders(game) == [(0, "present")]
        assert not Notification.objects.filter(player=member.player).exists()
        assert mailoutbox == []
        # The page closed: its presence ran out long before the next step.
        traveller.move_to(T0 + timedelta(hours=8))
        sweep(T0 + timedelta(hours=8), django_capture_on_commit_callbacks)
    assert _reminders(game) == [(0, "present"), (1, "sent")]
    assert len(mailoutbox) == 1


def test_it_uses_only_the_channels_the_member_chose(
    game, alice, bob, mailoutbox, django_capture_on_commit_callbacks
):
    member = user_to_move(game, [alice, bob])
    member.player.remind_by_email = False
    member.player.save()
    with time_machine.travel(T0 + timedelta(hours=5), tick=False):
        sweep(T0 + timedelta(hours=5), django_capture_on_commit_callbacks)
    assert Notification.objects.filter(player=member.player, kind="turn_reminder").count() == 1
    assert mailoutbox == []

    member.player.remind_on_site = False
    member.player.save()
    with time_machine.travel(T0 + timedelta(hours=8), tick=False):
        sweep(T0 + timedelta(hours=8), django_capture_on_commit_callbacks)
    assert _reminders(game) == [(0, "sent"), (1, "no_channel")]
    assert Notification.objects.filter(player=member.player, kind="turn_reminder").count() == 1


def test_the_bell_is_pushed_live_to_the_members_pages(
    game, alice, bob, bell_listener, django_capture_on_commit_callbacks
):
    member = user_to_move(game, [alice, bob])
    with time_machine.travel(T0 + timedelta(hours=5), tick=False):
        # (Subscribed under the frozen clock: the in-memory layer expires groups by time.)
        channel = bell_listener(member)
        sweep(T0 + timedelta(hours=5), django_capture_on_commit_callbacks)
        pushed = bell_listener.received(channel)
        assert [message["type"] for message in pushed] == ["user.notified"]


# -- quiet hours (the member lives in Warsaw: UTC+1 in December) ------------------------------


def _quiet(user, start=time(22, 0), end=time(7, 0)):
    player = user.player
    player.time_zone = "Europe/Warsaw"
    player.quiet_hours_start, player.quiet_hours_end = start, end
    player.save()


def test_a_reminder_in_quiet_hours_waits_for_their_end(
    alice, bob, mailoutbox, django_capture_on_commit_callbacks
):
    start = datetime(2026, 12, 1, 13, 0, tzinfo=UTC)  # 14:00 in Warsaw
    with time_machine.travel(start, tick=False) as traveller:
        game = started_game(alice, bob, limit=timedelta(hours=24))
        _quiet(user_to_move(game, [alice, bob]))
        half = start + timedelta(hours=12)  # 02:00 in Warsaw: quiet
        traveller.move_to(half)
        sweep(half, django_capture_on_commit_callbacks)
        assert _reminders(game) == []
        quiet_end = datetime(2026, 12, 2, 6, 0, tzinfo=UTC)  # 07:00 in Warsaw
        assert TurnClock.objects.get(game=game).next_reminder_at == quiet_end
        traveller.move_to(quiet_end - timedelta(minutes=1))
        sweep(quiet_end - timedelta(minutes=1), django_capture_on_commit_callbacks)
        assert _reminders(game) == []
        traveller.move_to(quiet_end)
        sweep(quiet_end, django_capture_on_commit_callbacks)
    assert _reminders(game) == [(0, "sent")]
    assert len(mailoutbox) == 1


def test_when_the_deadline_falls_in_quiet_hours_it_reminds_on_the_site_only(
    alice, bob, mailoutbox, django_capture_on_commit_callbacks
):
    start = datetime(2026, 12, 1, 21, 0, tzinfo=UTC)  # 22:00 in Warsaw, quiet until 07:00
    with time_machine.travel(start, tick=False) as traveller:
        game = started_game(alice, bob, limit=timedelta(hours=2))
        member = user_to_move(game, [alice, bob])
        _quiet(member)
        traveller.move_to(start + timedelta(hours=1))
        sweep(start + timedelta(hours=1), django_capture_on_commit_callbacks)
    assert _reminders(game) == [(0, "site_only")]
    assert Notification.objects.filter(player=member.player, kind="turn_reminder").count() == 1
    assert mailoutbox == []


def test_quiet_hours_within_one_day_are_understood(alice, bob, django_capture_on_commit_callbacks):
    from games.services.clocks.reminders import quiet_hours_end

    player = alice.player
    player.time_zone = "UTC"
    player.quiet_hours_start, player.quiet_hours_end = time(13, 0), time(15, 0)
    assert quiet_hours_end(player, datetime(2026, 12, 1, 14, 0, tzinfo=UTC)) == datetime(
        2026, 12, 1, 15, 0, tzinfo=UTC
    )
    assert quiet_hours_end(player, datetime(2026, 12, 1, 15, 0, tzinfo=UTC)) is None
    player.quiet_hours_start = player.quiet_hours_end = None
    assert quiet_hours_end(player, datetime(2026, 12, 1, 14, 0, tzinfo=UTC)) is None


def test_an_email_whose_sender_died_is_sent_by_a_later_sweep(
    game, alice, bob, mailoutbox, django_capture_on_commit_callbacks
):
    # The worker committed the ledger row and died before the email went out.
    now = T0 + timedelta(hours=5)
    with time_machine.travel(now, tick=False) as traveller:
        with django_capture_on_commit_callbacks(execute=False):
            from games.services.turns import turns_sweep

            turns_sweep(now=now)
        assert mailoutbox == []
        traveller.move_to(now + timedelta(minutes=6))
        sweep(now + timedelta(minutes=6), django_capture_on_commit_callbacks)
        sweep(now + timedelta(minutes=7), django_capture_on_commit_callbacks)
    assert len(mailoutbox) == 1
    assert ReminderSent.objects.get(game=game).email_sent_at is not None


def test_an_email_sent_again_after_its_sender_died_is_the_same_message(
    game, alice, bob, mailoutbox, monkeypatch, django_capture_on_commit_callbacks
):
    # The worker sent the email and died before marking it sent: a later sweep sends it
    # again with the same Message-ID: the same message, not a new one.
    from games.services.clocks import reminders
    from games.services.turns import turns_sweep

    def send_then_die(*args, **kwargs):
        sent(*args, **kwargs)
        raise SystemExit("killed")

    sent = reminders.club_email_send
    now = T0 + timedelta(hours=5)
    with time_machine.travel(now, tick=False) as traveller:
        monkeypatch.setattr(reminders, "club_email_send", send_then_die)
        with pytest.raises(SystemExit), django_capture_on_commit_callbacks(execute=True):
            turns_sweep(now=now)
        monkeypatch.undo()
        assert len(mailoutbox) == 1
        assert ReminderSent.objects.get(game=game).email_sent_at is None
        traveller.move_to(now + timedelta(minutes=6))
        sweep(now + timedelta(minutes=6), django_capture_on_commit_callbacks)
        sweep(now + timedelta(minutes=7), django_capture_on_commit_callbacks)
    ledger = ReminderSent.objects.get(game=game)
    assert ledger.email_sent_at is not None
    first, again = (message.message()["Message-ID"] for message in mailoutbox)
    assert first == again == f"<reminder.{ledger.pk}@127.0.0.1>"


@pytest.mark.parametrize(
    ("language", "left", "expected"),
    [
        ("en", timedelta(minutes=90), "90 minutes"),
        ("en", timedelta(hours=5), "5 hours"),
        ("en", timedelta(days=3, hours=4), "3 days 4 hours"),
        ("pl", timedelta(hours=5), "5 godzin"),
        ("pt-br", timedelta(days=2), "2 dias"),
    ],
)
def test_time_left_reads_in_the_members_language(language, left, expected):
    from django.utils import translation

    from games.services.clocks.reminders import time_left_text

    with translation.override(language):
        assert time_left_text(left) == expected
