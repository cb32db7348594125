"""Moderation: abort, extend the deadline, hand a seat to a bot or to a substitute member;
each with its audit record, through the services and through the admin."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.contrib.admin.models import LogEntry
from django.urls import reverse
from django.utils import timezone
from playkit import napad_game, napad_table, play_one

from games.engines import get_engine
from games.models import Game, ModerationAction, Notification, Seat, TurnClock
from games.selectors.tables import table_access
from games.services import moderation
from games.services.moderation import ModerationError
from games.services.play import move_submit
from tests.personakit import client_for, moderator

pytestmark = pytest.mark.django_db


def _seat_of(game: Game, user) -> Seat:
    return game.seats.get(player__user=user)


def test_abort_stops_the_game_with_a_reason_the_players_see(
    alice, bob, django_capture_on_commit_callbacks
):
    game = napad_game(alice, bob)
    max_ = moderator()
    with (
        mock.patch("games.broadcast.send_now") as send,
        django_capture_on_commit_callbacks(execute=True),
    ):
        record = moderation.game_abort(game_id=game.pk, actor=max_, reason="Cheating was reported.")
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    assert game.abort_reason == "Cheating was reported."
    assert game.deadline is None and game.to_move == []
    assert not TurnClock.objects.filter(game=game).exists()
    assert (record.action, record.actor, record.reason) == ("abort", max_, game.abort_reason)
    assert record.details["previous_status"] == "running"
    sent = [call.args for call in send.call_args_list]
    assert (f"game-{game.pk}", {"type": "game.updated", "version": game.version}) in sent
    # Both players are told, once each, and the game page shows the reason.
    assert Notification.objects.filter(game=game, kind="game_aborted").count() == 2
    response = client_for(alice).get(reverse("game_detail", args=[game.pk]))
    assert "Cheating was reported." in response.content.decode()
    # A move on an aborted game is refused.
    result = move_submit(
        game_id=game.pk, user=alice, action={"type": "pass"}, expected_version=game.version
    )
    assert not result.ok and game.version == Game.objects.get(pk=game.pk).version


def test_abort_needs_a_reason_and_a_live_game(alice, bob):
    game = napad_game(alice, bob)
    with pytest.raises(ModerationError):
        moderation.game_abort(game_id=game.pk, actor=moderator(), reason="  ")
    assert not ModerationAction.objects.exists()
    moderation.game_abort(game_id=game.pk, actor=moderator("max2"), reason="Test")
    with pytest.raises(ModerationError):
        moderation.game_abort(game_id=game.pk, actor=moderator("max3"), reason="Again")
    assert ModerationAction.objects.count() == 1


def test_an_open_table_can_be_aborted_too(alice):
    game = napad_table(alice, seats=2)
    moderation.game_abort(game_id=game.pk, actor=moderator(), reason="Spam table")
    assert Game.objects.get(pk=game.pk).status == Game.Status.ABORTED


def test_extend_deadline_moves_it_and_is_audited(alice, bob):
    game = napad_game(alice, bob)
    old = game.deadline
    record = moderation.deadline_extend(
        game_id=game.pk, actor=moderator(), by=timedelta(hours=12), reason="Holiday"
    )
    game.refresh_from_db()
    assert game.deadline == old + timedelta(hours=12)
    assert record.action == "extend_deadline" and record.details["by_seconds"] == 12 * 3600
    assert record.details["old_deadline"] == old.isoformat()


def test_the_extension_survives_the_clock_recomputing_the_deadline(alice, bob):
    from games.models import TurnClock
    from games.services.clocks.deadlines import turn_clock_refresh

    game = napad_game(alice, bob)
    old = game.deadline
    reminder = TurnClock.objects.get(game=game).next_reminder_at
    moderation.deadline_extend(game_id=game.pk, actor=moderator(), by=timedelta(hours=10))
    game.refresh_from_db()
    # Leave or a tablemate's "+24 h" makes the clock recompute: the moderator's hours stay.
    turn_clock_refresh(game)
    game.refresh_from_db()
    assert game.deadline == old + timedelta(hours=10)
    clock = TurnClock.objects.get(game=game)
    assert reminder is None or clock.next_reminder_at == reminder + timedelta(hours=10)


def test_extending_an_overdue_deadline_counts_from_now(alice, bob):
    game = napad_game(alice, bob)
    # The decision started three days ago with a 24 h limit: two days overdue (the sweep
    # has not acted yet).
    back = timedelta(days=3)
    Game.objects.filter(pk=game.pk).update(deadline=game.deadline - back)
    clock = TurnClock.objects.get(game=game)
    TurnClock.objects.filter(pk=clock.pk).update(started_at=clock.started_at - back)
    moderation.deadline_extend(game_id=game.pk, actor=moderator(), by=timedelta(hours=1))
    game.refresh_from_db()
    expected = timezone.now() + timedelta(hours=1)
    assert abs(game.deadline - expected) < timedelta(minutes=1)


def test_extend_refuses_nonsense(alice, bob):
    game = napad_game(alice, bob)
    max_ = moderator()
    for by in (timedelta(0), timedelta(days=31)):
        with pytest.raises(ModerationError):
            moderation.deadline_extend(game_id=game.pk, actor=max_, by=by)
    assert not ModerationAction.objects.exists()


def test_seat_to_bot_queues_the_bot_when_the_seat_is_to_move(
    alice, bob, django_capture_on_commit_callbacks
):
    game = napad_game(alice, bob)
    position = game.to_move[0]
    with (
        mock.patch("games.tasks.bot_move_play_task.apply_async") as queued,
        django_capture_on_commit_callbacks(execute=True),
    ):
        record = moderation.seat_to_bot(
            game_id=game.pk, position=position, actor=moderator(), bot_kind="heuristic"
        )
    seat = game.seats.get(position=position)
    assert seat.bot_kind == "heuristic" and seat.replaced_by_bot
    assert seat.player is not None  # the league still knows whose seat it was
    queued.assert_called_once()
    assert queued.call_args.args[0] == (game.pk, game.version)
    assert record.action == "seat_to_bot" and record.seat_position == position
    assert record.details["player"] == seat.player.display_name


def test_the_bot_actually_plays_the_handed_seat(alice, bob, django_capture_on_commit_callbacks):
    from napad_site.celery import app

    game = napad_game(alice, bob)
    position = game.to_move[0]
    app.conf.task_always_eager = True
    try:
        with django_capture_on_commit_callbacks(execute=True):
            moderation.seat_to_bot(
                game_id=game.pk, position=position, actor=moderator(), bot_kind="random"
            )
    finally:
        app.conf.task_always_eager = False
    game.refresh_from_db()
    assert game.version >= 1
    assert game.events.filter(seat=position).exists()


def test_seat_to_bot_does_not_queue_when_the_seat_waits(
    alice, bob, django_capture_on_commit_callbacks
):
    game = napad_game(alice, bob)
    waiting = next(s.position for s in game.seats.all() if s.position not in game.to_move)
    with (
        mock.patch("games.tasks.bot_move_play_task.apply_async") as queued,
        django_capture_on_commit_callbacks(execute=True),
    ):
        moderation.seat_to_bot(
            game_id=game.pk, position=waiting, actor=moderator(), bot_kind="random"
        )
    queued.assert_not_called()
    with pytest.raises(ModerationError):
        moderation.seat_to_bot(
            game_id=game.pk, position=waiting, actor=moderator("max2"), bot_kind="random"
        )
    with pytest.raises(ModerationError):
        moderation.seat_to_bot(
            game_id=game.pk, position=game.to_move[0], actor=moderator("max3"), bot_kind="nope"
        )


def test_a_substitute_sees_only_the_seat_they_took(alice, bob, charlie):
    game = napad_game(alice, bob)
    bob_seat = _seat_of(game, bob).position
    alice_seat = _seat_of(game, alice).position
    record = moderation.seat_to_substitute(
        game_id=game.pk,
        position=bob_seat,
        actor=moderator(),
        substitute=charlie.player,
        reason="Bob left the club",
    )
    assert record.details["previous_player"] == "Bob"
    assert record.details["substitute"] == "Charlie"
    game.refresh_from_db()
    engine = get_engine(game.kind)
    state = engine.from_json(game.state)

    assert table_access(game, charlie).position == bob_seat
    assert table_access(game, bob).seat is None  # bob is a spectator now

    def hand(view) -> list[int]:
        return [card["id"] for card in view.get("hand") or []]

    page = client_for(charlie).get(reverse("game_detail", args=[game.pk]))
    assert page.context["position"] == bob_seat
    assert hand(page.context["view"]) == hand(engine.view(state, bob_seat)) != []
    assert hand(page.context["view"]) != hand(engine.view(state, alice_seat))
    bob_page = client_for(bob).get(reverse("game_detail", args=[game.pk]))
    assert bob_page.context["position"] is None
    assert hand(bob_page.context["view"]) == []
    assert Notification.objects.filter(player=charlie.player, kind="seat_substitute").exists()

    # The substitute plays the seat; the member replaced cannot any more.
    if bob_seat in game.to_move:
        assert play_one(game, [alice, charlie]).ok
    else:
        assert play_one(game, [alice]).ok
        assert play_one(game, [charlie]).ok


def test_substitute_refusals(alice, bob, charlie):
    game = napad_game(alice, bob)
    max_ = moderator()
    with pytest.raises(ModerationError):
        moderation.seat_to_substitute(
            game_id=game.pk,
            position=_seat_of(game, bob).position,
            actor=max_,
            substitute=alice.player,
        )
    with pytest.raises(ModerationError):
        moderation.seat_to_substitute(
            game_id=game.pk, position=9, actor=max_, substitute=charlie.player
        )
    assert not ModerationAction.objects.exists()


def test_a_bot_seat_can_be_given_to_a_member(alice, charlie):
    game = napad_game(alice, bot_seats={1: "random"})
    moderation.seat_to_substitute(
        game_id=game.pk, position=1, actor=moderator(), substitute=charlie.player
    )
    seat = game.seats.get(position=1)
    assert seat.player == charlie.player and seat.bot_kind == ""


def test_a_substitute_for_a_botted_seat_can_be_handed_to_a_bot_again(alice, bob, charlie):
    from games.services.clocks.timeouts import seat_hand_to_bot

    game = napad_game(alice, bob)
    position = game.seats.get(player=bob.player).position
    actor = moderator()
    moderation.seat_to_bot(game_id=game.pk, position=position, actor=actor, bot_kind="random")
    moderation.seat_to_substitute(
        game_id=game.pk, position=position, actor=actor, substitute=charlie.player
    )
    seat = game.seats.get(position=position)
    assert seat.player == charlie.player and seat.bot_kind == ""
    # The substitute runs out of time too often: the clock's stand-in takes the seat again.
    seat_hand_to_bot(game=game, seat=seat)
    seat.refresh_from_db()
    assert seat.bot_kind != "" and seat.replaced_by_bot


def test_moderation_through_the_admin_buttons(alice, bob, charlie):
    game = napad_game(alice, bob)
    max_ = moderator()
    client = client_for(max_)
    page = client.get(reverse("admin:games_game_change", args=[game.pk]))
    assert page.status_code == 200
    for slug in ("abort", "extend", "seat-bot", "seat-substitute"):
        assert reverse("admin:games_game_moderate", args=[game.pk, slug]) in page.content.decode()

    url = reverse("admin:games_game_moderate", args=[game.pk, "extend"])
    assert client.get(url).status_code == 200
    old = game.deadline
    response = client.post(url, {"hours": "48", "reason": "Club trip"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.deadline == old + timedelta(hours=48)

    url = reverse("admin:games_game_moderate", args=[game.pk, "seat-substitute"])
    bob_seat = _seat_of(game, bob).position
    response = client.post(url, {"seat": str(bob_seat), "substitute": str(charlie.player.pk)})
    assert response.status_code == 302
    assert game.seats.get(position=bob_seat).player == charlie.player

    url = reverse("admin:games_game_moderate", args=[game.pk, "seat-bot"])
    response = client.post(url, {"seat": str(bob_seat), "bot_kind": "heuristic"})
    assert response.status_code == 302
    assert game.seats.get(position=bob_seat).bot_kind == "heuristic"

    url = reverse("admin:games_game_moderate", args=[game.pk, "abort"])
    response = client.post(url, {"reason": ""})
    assert response.status_code == 200  # the reason is required: the form says so
    assert Game.objects.get(pk=game.pk).status == Game.Status.RUNNING
    response = client.post(url, {"reason": "Season over"})
    assert response.status_code == 302
    assert Game.objects.get(pk=game.pk).status == Game.Status.ABORTED
    # A refused action (already aborted) is a message on the form, not a 500.
    response = client.post(url, {"reason": "Twice"})
    assert response.status_code == 200 and "already" in response.content.decode()

    actions = list(ModerationAction.objects.filter(game=game).values_list("action", flat=True))
    assert sorted(actions) == sorted(
        ["extend_deadline", "seat_to_substitute", "seat_to_bot", "abort"]
    )
    assert all(a.actor == max_ for a in ModerationAction.objects.filter(game=game))
    assert LogEntry.objects.filter(user=max_, object_id=str(game.pk)).count() == 4


def test_the_audit_trail_is_shown_read_only(alice, bob):
    game = napad_game(alice, bob)
    max_ = moderator()
    record = moderation.deadline_extend(game_id=game.pk, actor=max_, by=timedelta(hours=1))
    client = client_for(max_)
    listing = client.get(reverse("admin:games_moderationaction_changelist"))
    assert listing.status_code == 200 and str(game) in listing.content.decode()
    detail = client.get(reverse("admin:games_moderationaction_change", args=[record.pk]))
    assert detail.status_code == 200
    assert not detail.context["has_change_permission"]
    assert client.get(reverse("admin:games_moderationaction_add")).status_code == 403
    response = client.post(reverse("admin:games_moderationaction_delete", args=[record.pk]))
    assert response.status_code == 403
    assert ModerationAction.objects.filter(pk=record.pk).exists()
    game_page = client.get(reverse("admin:games_game_change", args=[game.pk]))
    assert "moderation history" in game_page.content.decode().lower()


def test_the_list_action_extends_deadlines(alice, bob):
    game = napad_game(alice, bob)
    old = game.deadline
    client = client_for(moderator())
    response = client.post(
        reverse("admin:games_game_changelist"),
        {"action": "extend_deadline_24h", "_selected_action": [str(game.pk)]},
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.deadline == old + timedelta(hours=24)
