"""The daily digest: every game waiting for the member, most urgent first, with what happened
since their last move; once a day, at their morning hour, only for those who want it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import time_machine
from clockkit import play_first_legal, started_game, user_to_move

from games.models import DigestSent, GameEvent
from games.selectors.gamelog import event_text
from games.selectors.naming import seat_names
from games.services.clocks import digests_send

T0 = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)


def _alice_to_move(game, alice, bob):
    """Bob moves until it is Alice's turn (so something happened since her last move)."""
    for _step in range(10):
        if (
            user_to_move(game, [alice, bob]) == alice
            and GameEvent.objects.filter(game=game).exists()
        ):
            return
        play_first_legal(game)
    raise AssertionError("it never became Alice's turn")


def test_the_digest_lists_waiting_games_most_urgent_first(alice, bob, charlie, mailoutbox):
    alice.player.time_zone = "Europe/Warsaw"
    alice.player.save()
    with time_machine.travel(T0, tick=False):
        relaxed = started_game(alice, bob, limit=timedelta(hours=72))
        urgent = started_game(alice, charlie, limit=timedelta(hours=20))
        _alice_to_move(relaxed, alice, bob)
        _alice_to_move(urgent, alice, charlie)
    with time_machine.travel(T0 + timedelta(hours=1), tick=False):
        idle = started_game(bob, charlie, limit=timedelta(hours=20))

    morning = datetime(2026, 12, 2, 6, 30, tzinfo=UTC)  # 07:30 in Warsaw: too early
    with time_machine.travel(morning, tick=False):
        assert digests_send(morning) == 0
    eight = datetime(2026, 12, 2, 7, 5, tzinfo=UTC)  # 08:05 in Warsaw
    with time_machine.travel(eight, tick=False):
        sent = digests_send(eight)
    digests = [mail for mail in mailoutbox if alice.email in mail.to]
    assert len(digests) == 1
    body = digests[0].body
    assert "2 games wait for you" in digests[0].subject
    assert body.index(f"Game #{urgent.pk} ") < body.index(f"Game #{relaxed.pk} ")
    assert f"/games/{urgent.pk}/" in body and f"/games/{relaxed.pk}/" in body
    assert f"Game #{idle.pk} " not in body
    # What happened since her last move: the public texts of the tablemates' moves.
    assert "Since your last move:" in body
    last = GameEvent.objects.filter(game=urgent).order_by("-seq").first()
    event = last.public_events[-1]
    # The log's own line: the member beside their gang ("Charlie (deserters) sends ...").
    assert event_text(event, seat_names(urgent), kind=urgent.kind) in body
    assert sent >= 1

    # Once a day: a later sweep the same day sends nothing more to her.
    with time_machine.travel(eight + timedelta(hours=3), tick=False):
        digests_send(eight + timedelta(hours=3))
    assert len([mail for mail in mailoutbox if alice.email in mail.to]) == 1
    assert DigestSent.objects.filter(player=alice.player).count() == 1
    # The next morning, again.
    with time_machine.travel(eight + timedelta(days=1), tick=False):
        digests_send(eight + timedelta(days=1))
    assert len([mail for mail in mailoutbox if alice.email in mail.to]) == 2


def test_no_digest_for_members_who_turned_it_off_or_have_no_game_waiting(alice, bob, mailoutbox):
    alice.player.daily_digest = False
    alice.player.save()
    with time_machine.travel(T0, tick=False):
        game = started_game(alice, bob, limit=timedelta(hours=48))
    noon = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
    with time_machine.travel(noon, tick=False):
        digests_send(noon)
    assert all(alice.email not in mail.to for mail in mailoutbox)
    # Bob gets one only if the game waits for him.
    waiting_for_bob = user_to_move(game, [alice, bob]) == bob
    assert [mail.to for mail in mailoutbox] == ([[bob.email]] if waiting_for_bob else [])


def test_no_digest_while_on_leave(alice, bob, mailoutbox):
    from datetime import date

    from games.services.clocks.leave import leave_declare

    with time_machine.travel(T0, tick=False):
        game = started_game(alice, bob, limit=timedelta(hours=48))
        for user in (alice, bob):
            leave_declare(player=user.player, start=date(2026, 12, 2), end=date(2026, 12, 3))
    assert user_to_move(game, [alice, bob]) is not None
    noon = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
    with time_machine.travel(noon, tick=False):
        assert digests_send(noon) == 0
    assert mailoutbox == []
