"""Web Push end to end against a push service on loopback: a member's turn comes, the push
arrives encrypted for their browser (decrypted here as the browser does, RFC 8291) and
signed with the site's VAPID key; the bell's rules hold pushes back (presence, quiet hours,
once per decision, never a burst); a subscription the service says is gone is deleted.

alice opens a two-seat Napad table with bob; whoever must move is "the member".
"""

from __future__ import annotations

import time as clock_time
from datetime import UTC, datetime, time, timedelta

import pytest
import time_machine
from clocks.clockkit import play_first_legal, started_game, user_to_move
from django.conf import settings
from django.utils import timezone
from pushkit import vapid_claims

from games.models import PushDelivery, PushMessage, PushSubscription
from games.services.clocks import deadline_extend
from games.services.presence import presence_leave, presence_touch
from games.services.push.sending import push_message_send
from games.services.turns import turns_sweep


def _table(alice, bob, **options):
    """A started two-seat table: the game, the member to move, the member waiting."""
    game = started_game(alice, bob, **options)
    mover = user_to_move(game, [alice, bob])
    return game, mover, (alice if mover.pk == bob.pk else bob)


def _outcomes(player) -> list[tuple[str, str]]:
    return list(
        PushMessage.objects.filter(player=player).order_by("pk").values_list("kind", "outcome")
    )


def _sweep(capture, now=None):
    with capture(execute=True):
        return turns_sweep(now=now or timezone.now())


def test_it_pushes_your_turn_encrypted_for_the_members_browser(
    alice, bob, device, push_service, eager_celery, django_capture_on_commit_callbacks
):
    game, mover, waiting = _table(alice, bob)
    keys = device(waiting, "waiting-phone")
    device(mover, "mover-phone")

    with django_capture_on_commit_callbacks(execute=True):
        play_first_legal(game)

    [push] = push_service.to("waiting-phone")
    assert keys.payload(push) == {
        "title": "Your turn",
        "body": f"Game #{game.pk} is waiting for your move.",
        "url": f"/games/{game.pk}/",
        "tag": f"game-{game.pk}",
    }
    claims = vapid_claims(push, settings.NAPAD_VAPID_PUBLIC_KEY)
    assert claims["aud"] == push_service.origin
    assert claims["sub"] == settings.NAPAD_VAPID_SUBJECT
    assert clock_time.time() < claims["exp"] <= clock_time.time() + 24 * 3600
    assert 0 < int(push.headers["ttl"]) <= 24 * 3600
    # The mover gets nothing for their own move.
    assert push_service.to("mover-phone") == []
    assert _outcomes(waiting.player) == [("your_turn", "sent")]
    assert PushSubscription.objects.get(player=waiting.player).last_pushed_at is not None


def test_the_push_speaks_the_language_the_member_has_when_it_is_sent(
    alice, bob, device, push_service, django_capture_on_commit_callbacks
):
    game, mover, waiting = _table(alice, bob)
    keys = device(waiting, "phone")
    play_first_legal(game)  # owed now; sent by the sweep below
    waiting.player.language = "pl"
    waiting.player.save()

    _sweep(django_capture_on_commit_callbacks)

    payload = keys.payload(push_service.to("phone")[0])
    assert payload["title"] == "Twoja kolej"
    assert payload["body"] == f"Gra nr {game.pk} czeka na Twój ruch."


@pytest.mark.parametrize("gone", [404, 410])
def test_a_subscription_the_push_service_says_is_gone_is_deleted(
    gone, alice, bob, device, push_service, eager_celery, django_capture_on_commit_callbacks
):
    game, mover, waiting = _table(alice, bob)
    device(waiting, "old-phone")
    keys = device(waiting, "new-phone")
    push_service.answer("old-phone", gone)

    with django_capture_on_commit_callbacks(execute=True):
        play_first_legal(game)

    assert list(PushSubscription.objects.filter(player=waiting.player).values_list("endpoint")) == [
        (push_service.endpoint("new-phone"),)
    ]
    assert keys.payload(push_service.to("new-phone")[0])["url"] == f"/games/{game.pk}/"
    assert _outcomes(waiting.player) == [("your_turn", "sent")]

    # With its last device gone the member owes nothing more: no row, no request.
    push_service.answer("new-phone", gone)
    with django_capture_on_commit_callbacks(execute=True):
        play_first_legal(game)  # the waiting member moves
        play_first_legal(game)  # and it is their turn again
    assert not PushSubscription.objects.filter(player=waiting.player).exists()
    with django_capture_on_commit_callbacks(execute=True):
        play_first_legal(game)
        play_first_legal(game)
    assert len(push_service.to("new-phone")) == 2
    assert len(push_service.to("old-phone")) == 1


def test_no_push_while_the_game_is_open_on_the_members_screen(
    alice, bob, device, push_service, eager_celery, django_capture_on_commit_callbacks
):
    game, mover, waiting = _table(alice, bob)
    keys = device(waiting, "phone")
    presence_touch(game.pk, waiting.pk)

    with django_capture_on_commit_callbacks(execute=True):
        play_first_legal(game)  # the waiting member is looking: held back
    assert _outcomes(waiting.player) == [("your_turn", "present")]
    # The page closed; the next decision passed to them is pushed. Only that one arrives.
    presence_leave(game.pk, waiting.pk)
    with django_capture_on_commit_callbacks(execute=True):
        play_first_legal(game)
        play_first_legal(game)
    game.refresh_from_db()
    assert [keys.payload(p)["url"] for p in push_service.to("phone")] == [f"/games/{game.pk}/"]
    assert _outcomes(waiting.player) == [("your_turn", "present"), ("your_turn", "sent")]
    assert PushMessage.objects.filter(outcome="sent").get().decision_version == game.version


def _quiet(user, start, end, zone="Europe/Warsaw"):
    player = user.player
    player.time_zone = zone
    player.quiet_hours_start, player.quiet_hours_end = start, end
    player.save()


def test_in_quiet_hours_the_push_waits_for_their_end(
    alice, bob, device, push_service, eager_celery, django_capture_on_commit_callbacks
):
    start = datetime(2026, 12, 1, 21, 30, tzinfo=UTC)  # 22:30 in Warsaw
    quiet_end = datetime(2026, 12, 2, 6, 0, tzinfo=UTC)  # 07:00 in Warsaw
    with time_machine.travel(start, tick=False) as traveller:
        game, mover, waiting = _table(alice, bob, limit=timedelta(hours=24))
        keys = device(waiting, "phone")
        _quiet(waiting, time(22, 0), time(7, 0))
        with django_capture_on_commit_callbacks(execute=True):
            play_first_legal(game)
        owed = PushMessage.objects.get(player=waiting.player)
        assert (owed.outcome, owed.not_before) == ("", quiet_end)
        traveller.move_to(quiet_end - timedelta(minutes=1))
        _sweep(django_capture_on_commit_callbacks, quiet_end - timedelta(minutes=1))
        assert push_service.to("phone") == []
        traveller.move_to(quiet_end)
        _sweep(django_capture_on_commit_callbacks, quiet_end)
    [push] = push_service.to("phone")
    assert keys.payload(push)["title"] == "Your turn"
    assert _outcomes(waiting.player) == [("your_turn", "sent")]


def test_a_push_whose_decision_ends_within_the_quiet_hours_never_sounds(
    alice, bob, device, push_service, eager_celery, django_capture_on_commit_callbacks
):
    start = datetime(2026, 12, 1, 21, 30, tzinfo=UTC)  # 22:30 in Warsaw, quiet until 07:00
    with time_machine.travel(start, tick=False) as traveller:
        game, mover, waiting = _table(alice, bob, limit=timedelta(hours=2))
        device(waiting, "phone")
        _quiet(waiting, time(22, 0), time(7, 0))
        with django_capture_on_commit_callbacks(execute=True):
            play_first_legal(game)
        traveller.move_to(start + timedelta(hours=1))
        _sweep(django_capture_on_commit_callbacks, start + timedelta(hours=1))
    assert push_service.to("phone") == []
    assert _outcomes(waiting.player) == [("your_turn", "quiet")]


def test_each_decision_is_pushed_once_whoever_sends_it(
    alice, bob, device, push_service, eager_celery, django_capture_on_commit_callbacks
):
    game, mover, waiting = _table(alice, bob)
    device(waiting, "phone")
    with django_capture_on_commit_callbacks(execute=True):
        play_first_legal(game)
    owed = PushMessage.objects.get(player=waiting.player)
    # The task delivered twice, a sweep, the lease long past: still one push.
    assert push_message_send(owed.pk) == "taken"
    _sweep(django_capture_on_commit_callbacks)
    _sweep(django_capture_on_commit_callbacks, timezone.now() + timedelta(minutes=10))
    assert len(push_service.to("phone")) == 1
    assert PushDelivery.objects.filter(message=owed).count() == 1


def test_what_falls_due_together_for_one_game_goes_out_as_one_push(
    alice, bob, device, push_service, django_capture_on_commit_callbacks
):
    game, mover, waiting = _table(alice, bob)
    keys = device(waiting, "phone")
    with django_capture_on_commit_callbacks(execute=True):
        play_first_legal(game)  # "your turn", owed
        game.refresh_from_db()
        deadline_extend(game_id=game.pk, user=mover, position=game.to_move[0])  # a notice

    _sweep(django_capture_on_commit_callbacks)

    [push] = push_service.to("phone")
    assert keys.payload(push)["body"] == (
        f"{mover.player.display_name} gave you 24 more hours in game #{game.pk}."
    )
    assert _outcomes(waiting.player) == [("your_turn", "superseded"), ("extension", "sent")]


def test_a_decision_made_before_its_push_went_out_is_not_pushed(
    alice, bob, device, push_service, django_capture_on_commit_callbacks
):
    game, mover, waiting = _table(alice, bob)
    device(waiting, "phone")
    with django_capture_on_commit_callbacks(execute=True):
        play_first_legal(game)  # owed to the waiting member...
        play_first_legal(game)  # ...who moved (through the API, say) before it was sent
    _sweep(django_capture_on_commit_callbacks)
    assert push_service.to("phone") == []
    assert _outcomes(waiting.player) == [("your_turn", "stale")]


def test_a_push_service_that_is_away_is_tried_again_and_reaches_each_device_once(
    alice, bob, device, push_service, eager_celery, django_capture_on_commit_callbacks
):
    game, mover, waiting = _table(alice, bob)
    device(waiting, "phone")
    device(waiting, "laptop")
    push_service.answer("laptop", 503, 201)
    with django_capture_on_commit_callbacks(execute=True):
        play_first_legal(game)
    owed = PushMessage.objects.get(player=waiting.player)
    assert (owed.outcome, owed.attempts) == ("", 1)
    # The next sweep after the claim's lease tries again: the laptop only.
    _sweep(django_capture_on_commit_callbacks, timezone.now() + timedelta(minutes=6))
    assert len(push_service.to("phone")) == 1
    assert len(push_service.to("laptop")) == 2
    owed.refresh_from_db()
    assert (owed.outcome, owed.attempts) == ("sent", 2)


def test_the_reminder_ladder_goes_by_push_even_with_email_and_bell_off(
    alice, bob, device, push_service, django_capture_on_commit_callbacks, mailoutbox
):
    start = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
    with time_machine.travel(start, tick=False) as traveller:
        game = started_game(alice, bob, limit=timedelta(hours=10))
        member = user_to_move(game, [alice, bob])
        keys = device(member, "phone")
        member.player.remind_by_email = member.player.remind_on_site = False
        member.player.save()
        half = start + timedelta(hours=5)
        traveller.move_to(half)
        _sweep(django_capture_on_commit_callbacks, half)
    [push] = push_service.to("phone")
    assert keys.payload(push) == {
        "title": "Your turn",
        "body": f"Your turn in game #{game.pk}: 5 hours left.",
        "url": f"/games/{game.pk}/",
        "tag": f"game-{game.pk}",
    }
    assert mailoutbox == []
    assert _outcomes(member.player) == [("turn_reminder", "sent")]


def test_a_reminder_sent_to_the_bell_only_in_quiet_hours_is_not_pushed(
    alice, bob, device, push_service, django_capture_on_commit_callbacks
):
    start = datetime(2026, 12, 1, 21, 0, tzinfo=UTC)  # 22:00 in Warsaw, quiet until 07:00
    with time_machine.travel(start, tick=False) as traveller:
        game = started_game(alice, bob, limit=timedelta(hours=2))
        member = user_to_move(game, [alice, bob])
        device(member, "phone")
        _quiet(member, time(22, 0), time(7, 0))
        traveller.move_to(start + timedelta(hours=1))
        _sweep(django_capture_on_commit_callbacks, start + timedelta(hours=1))
        # A later marker: the member's next decision, after the quiet hours, arrives alone.
        traveller.move_to(datetime(2026, 12, 2, 7, 0, tzinfo=UTC))
        _quiet(member, None, None)
        with django_capture_on_commit_callbacks(execute=True):
            play_first_legal(game)
            play_first_legal(game)
        _sweep(django_capture_on_commit_callbacks, datetime(2026, 12, 2, 7, 0, tzinfo=UTC))
    assert len(push_service.to("phone")) == 1
    assert _outcomes(member.player) == [("your_turn", "sent")]


def test_table_notices_on_the_bell_go_by_push(
    alice, bob, device, push_service, eager_celery, django_capture_on_commit_callbacks
):
    game, mover, waiting = _table(alice, bob)
    keys = device(mover, "phone")
    with django_capture_on_commit_callbacks(execute=True):
        deadline_extend(game_id=game.pk, user=waiting, position=game.to_move[0])
    assert keys.payload(push_service.to("phone")[0]) == {
        "title": "Napad Club",
        "body": f"{waiting.player.display_name} gave you 24 more hours in game #{game.pk}.",
        "url": f"/games/{game.pk}/",
        "tag": f"game-{game.pk}",
    }


def test_a_move_that_leaves_its_member_to_move_again_owes_them_nothing(
    alice, bob, device, push_service
):
    # (Colt Express: a double turn, or the next Stealin' choice.) The member is acting.
    from games.selectors.tables import game_locked_for_move, game_seats
    from games.services.push.outbox import turn_push_owe

    game = started_game(alice, bob)
    member = user_to_move(game, [alice, bob])
    device(member, "phone")
    seats = game_seats(game_locked_for_move(game.pk))
    own = next(s for s in seats if s.player.user_id == member.pk)
    other = next(s for s in seats if s.pk != own.pk)
    assert own.push_devices and not other.push_devices
    turn_push_owe(game, seats, mover=own)
    assert _outcomes(member.player) == []
    turn_push_owe(game, seats, mover=other)
    assert _outcomes(member.player) == [("your_turn", "")]


def test_a_notice_with_a_count_is_pushed_in_the_plural_it_needs(
    alice, bob, device, push_service, eager_celery, django_capture_on_commit_callbacks
):
    from games.models import Seat
    from games.services.clocks.timeouts import seat_hand_to_bot

    game, mover, waiting = _table(alice, bob)
    keys = device(waiting, "phone")
    seat = Seat.objects.get(game=game, player=mover.player)
    Seat.objects.filter(pk=seat.pk).update(consecutive_timeouts=3)
    seat.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        seat_hand_to_bot(game=game, seat=seat)
    bodies = [keys.payload(push)["body"] for push in push_service.to("phone")]
    assert any(f"{mover.player.display_name} missed 3 turns in a row" in b for b in bodies), bodies
