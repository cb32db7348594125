"""The play services: tables, a whole game, refused moves, bots, verify."""

from __future__ import annotations

import hashlib
import json
from datetime import timedelta

import pytest
from playkit import first_legal, napad_game, napad_ruleset, napad_table, play_one, play_to_end

from games.engines import get_engine
from games.models import Game, GameEvent, Ruleset, Seat
from games.selectors.tables import game_events
from games.services import play, turns
from games.services.replay import game_verify
from games.services.rulesets import DEFAULT_RULESETS, rulesets_install_defaults

pytestmark = pytest.mark.django_db


def test_it_installs_default_rulesets_once(db):
    first = rulesets_install_defaults()
    assert {r.slug for r in first} >= {
        "napad-designed-default",
        "napad-variant-a",
        "napad-variant-b",
        "colt-express",
        "colt-express-time-machine",
        "colt-express-5-of-7",
    }
    assert rulesets_install_defaults() == []
    napad = Ruleset.objects.get(slug="napad-designed-default")
    assert napad.is_published
    assert "designed default" in napad.name.lower()
    assert "Designed default card data" in napad.rules_text
    assert Ruleset.objects.get(slug="napad-variant-a").config["variant_a_bullets"] is True
    assert Ruleset.objects.get(slug="napad-variant-b").config["variant_b_twos"] is True
    assert Ruleset.objects.get(slug="colt-express").config["time_machine"] is False
    assert Ruleset.objects.get(slug="colt-express-time-machine").config["time_machine"] is True
    assert Ruleset.objects.get(slug="colt-express-5-of-7").config["round_deck"] == "guide"
    assert len({d.slug for d in DEFAULT_RULESETS}) == len(DEFAULT_RULESETS)


def test_it_plays_a_whole_game_and_scores_the_seats(alice, bob):
    game = napad_game(alice, bob)
    assert game.status == Game.Status.RUNNING
    assert game.seed_hash == hashlib.sha256(game.seed.encode()).hexdigest()
    assert {s.identity for s in game.seats.all()} <= {"cowboys", "mexicans", "deserters", "indians"}
    game = play_to_end(game, [alice, bob])
    assert game.status == Game.Status.FINISHED
    assert game.deadline is None and game.to_move == []
    seats = list(game.seats.order_by("place"))
    assert seats[0].place == 1 and seats[0].score is not None
    assert all(seat.breakdown["total"] == seat.score for seat in seats)
    assert GameEvent.objects.filter(game=game).count() == game.version
    assert game_verify(game, game_events(game)).ok


def test_it_refuses_a_stale_version_and_changes_nothing(alice, bob):
    game = napad_game(alice, bob)
    assert play_one(game, [alice, bob]).ok
    game.refresh_from_db()
    state, version = game.state, game.version
    user = alice if game.seats.get(player__user=alice).position in game.to_move else bob
    result = play.move_submit(
        game_id=game.pk, user=user, action=first_legal(game), expected_version=version - 1
    )
    assert not result.ok and "moved on" in result.message
    game.refresh_from_db()
    assert (game.state, game.version) == (state, version)


def test_it_refuses_a_move_out_of_turn(alice, bob):
    game = napad_game(alice, bob)
    waiting = alice if game.seats.get(player__user=alice).position not in game.to_move else bob
    result = play.move_submit(
        game_id=game.pk, user=waiting, action={"type": "pass"}, expected_version=game.version
    )
    assert not result.ok and result.message == "It is not your turn."
    assert Game.objects.get(pk=game.pk).version == 0


@pytest.mark.parametrize(
    "action",
    [
        "not json",
        "[1, 2]",
        json.dumps({"type": "play", "card": 999, "colour": "yellow"}),
        json.dumps({"type": "teleport"}),
        json.dumps({"type": "play", "card": 0, "colour": "purple"}),
        json.dumps({"type": "play", "card": [1], "colour": {"x": 1}}),
        json.dumps({"type": None, "card": 1.5}),
        json.dumps({}),
        "x" * 5000,
    ],
)
def test_it_refuses_forged_or_malformed_actions(alice, bob, action):
    game = napad_game(alice, bob)
    state = game.state
    users = [alice, bob]
    mover = next(u for u in users if game.seats.get(player__user=u).position in game.to_move)
    result = play.move_submit(
        game_id=game.pk, user=mover, action=action, expected_version=game.version
    )
    assert not result.ok and result.message
    game.refresh_from_db()
    assert game.version == 0 and game.state == state


def test_it_refuses_a_member_without_a_seat(alice, bob, charlie):
    game = napad_game(alice, bob)
    result = play.move_submit(
        game_id=game.pk, user=charlie, action=first_legal(game), expected_version=0
    )
    assert not result.ok and "no seat" in result.message


def test_it_applies_a_duplicated_submission_once(alice, bob):
    game = napad_game(alice, bob)
    mover = alice if game.seats.get(player__user=alice).position in game.to_move else bob
    action = first_legal(game)
    first = play.move_submit(game_id=game.pk, user=mover, action=action, expected_version=0)
    second = play.move_submit(game_id=game.pk, user=mover, action=action, expected_version=0)
    assert first.ok and not second.ok
    assert GameEvent.objects.filter(game=game).count() == 1


def test_it_joins_leaves_and_refuses_a_full_table(alice, bob, charlie):
    game = napad_table(alice, seats=2)
    play.seat_join(game_id=game.pk, user=bob)
    with pytest.raises(play.PlayError, match="full"):
        play.seat_join(game_id=game.pk, user=charlie)
    with pytest.raises(play.PlayError, match="already"):
        play.seat_join(game_id=game.pk, user=bob)
    play.seat_leave(game_id=game.pk, user=bob)
    play.seat_join(game_id=game.pk, user=charlie)
    with pytest.raises(play.PlayError):
        play.game_start(game_id=game.pk, user=charlie)
    assert play.game_start(game_id=game.pk, user=alice).status == Game.Status.RUNNING
    with pytest.raises(play.PlayError):
        play.seat_leave(game_id=game.pk, user=charlie)


def test_it_starts_only_a_full_table_and_cancels_an_open_one(alice, bob):
    game = napad_table(alice, seats=3)
    play.seat_join(game_id=game.pk, user=bob)
    with pytest.raises(play.PlayError, match="every seat"):
        play.game_start(game_id=game.pk, user=alice)
    with pytest.raises(play.PlayError):
        play.game_cancel(game_id=game.pk, user=bob)
    play.game_cancel(game_id=game.pk, user=alice)
    assert Game.objects.get(pk=game.pk).status == Game.Status.CANCELLED


def test_it_keeps_invite_only_tables_to_invitees(alice, bob, charlie):
    game = napad_table(alice, seats=2, invite_only=True, invitees=[bob.player])
    with pytest.raises(play.PlayError, match="invitation"):
        play.seat_join(game_id=game.pk, user=charlie)
    play.seat_join(game_id=game.pk, user=bob)


def test_it_validates_a_new_table(alice):
    ruleset = napad_ruleset()
    with pytest.raises(play.PlayError) as error:
        play.game_create(
            creator=alice,
            ruleset=ruleset,
            seats=7,
            options={"no_such_option": True},
            turn_time_limit=timedelta(seconds=5),
            bot_seats={1: "nobody"},
        )
    assert set(error.value.problems) == {"seats", "turn_time_limit", "bot_seats", "options"}


def test_it_folds_options_into_the_config_snapshot(alice):
    game = play.game_create(
        creator=alice,
        ruleset=napad_ruleset(),
        seats=2,
        options={"variant_b_twos": True},
        turn_time_limit=timedelta(hours=1),
    )
    assert game.config["variant_b_twos"] is True
    assert game.ruleset.config["variant_b_twos"] is False


def test_bots_play_their_turns_after_commit(alice, django_capture_on_commit_callbacks, settings):
    from napad_site.celery import app

    app.conf.task_always_eager = True
    try:
        with django_capture_on_commit_callbacks(execute=True):
            game = napad_game(alice, bot_seats={1: "heuristic", 2: "random"})
        game.refresh_from_db()
        # The bots moved until it was the member's turn.
        alice_seat = game.seats.get(player__user=alice).position
        assert game.to_move == [alice_seat]
        while game.status == Game.Status.RUNNING:
            # Each move commits on its own; the bots answer after it, as on the site.
            with django_capture_on_commit_callbacks(execute=True):
                assert play_one(game, [alice]).ok
            game.refresh_from_db()
            assert game.status != Game.Status.RUNNING or game.to_move == [alice_seat]
        assert game.status == Game.Status.FINISHED
        assert game_verify(game, game_events(game)).ok
    finally:
        app.conf.task_always_eager = False


def test_a_duplicated_bot_task_does_nothing(alice):
    game = napad_game(alice, bot_seats={1: "random"})
    game.refresh_from_db()
    bot_seat = 1
    if bot_seat not in game.to_move:
        assert play_one(game, [alice]).ok
        game.refresh_from_db()
    version = game.version
    assert turns.bot_move_play(game.pk, version).ok
    assert turns.bot_move_play(game.pk, version) is None
    assert Game.objects.get(pk=game.pk).version == version + 1


def test_a_member_cannot_move_for_a_seat_handed_to_a_bot(alice, bob):
    game = napad_game(alice, bob)
    game.refresh_from_db()
    seat = game.seats.get(position=game.to_move[0])
    member = seat.player.user
    Seat.objects.filter(pk=seat.pk).update(bot_kind="heuristic", replaced_by_bot=True)
    version = game.version
    result = play.move_submit(
        game_id=game.pk,
        user=member,
        action=first_legal(game),
        expected_version=version,
    )
    assert not result.ok and "bot" in result.message
    assert Game.objects.get(pk=game.pk).version == version
    # The bot itself still plays the seat.
    assert turns.bot_move_play(game.pk, version).ok


def test_a_finished_game_refuses_more_moves(alice, bob):
    game = play_to_end(napad_game(alice, bob), [alice, bob])
    result = play.move_submit(
        game_id=game.pk, user=alice, action={"type": "pass"}, expected_version=game.version
    )
    assert not result.ok and "not running" in result.message
    assert Seat.objects.filter(game=game, place__isnull=True).count() == 0


def test_a_bot_move_is_queued_after_commit_with_the_delay(
    alice, django_capture_on_commit_callbacks, monkeypatch, settings
):
    from games import tasks

    settings.NAPAD_BOT_MOVE_DELAY = 2.5
    queued = []
    monkeypatch.setattr(
        tasks.bot_move_play_task,
        "apply_async",
        lambda args, kwargs=None, countdown=None, **options: queued.append((args, countdown)),
    )
    game = napad_table(alice, bot_seats={1: "random"})
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        game = play.game_start(game_id=game.pk, user=alice)
    assert queued == []  # nothing leaves before the transaction commits
    for callback in callbacks:
        callback()
    game.refresh_from_db()
    if 1 in game.to_move:
        assert queued == [((game.pk, 0), 2.5)]
    else:
        assert queued == []
        with django_capture_on_commit_callbacks(execute=True):
            assert play_one(game, [alice]).ok
        assert queued == [((game.pk, 1), 2.5)]


def test_a_game_dealt_with_chosen_seats_and_gangs_replays_and_verifies(alice, bob):
    game = napad_table(alice, bob)
    game = play.game_start(
        game_id=game.pk, user=alice, first_player=1, identities=["indians", "cowboys"]
    )
    assert game.setup_args == {"first_player": 1, "identities": ["indians", "cowboys"]}
    assert game.to_move == [1]
    assert [s.identity for s in game.seats.order_by("position")] == ["indians", "cowboys"]
    game = play_to_end(game, [alice, bob])
    assert game_verify(game, game_events(game)).ok


def test_an_engine_failure_on_odd_input_is_a_refusal_not_a_crash(alice, bob, monkeypatch):
    game = napad_game(alice, bob)
    engine = get_engine("napad")

    def broken_apply(state, seat, action):
        raise KeyError("card")

    monkeypatch.setattr(engine, "apply", broken_apply)
    mover = alice if game.seats.get(player__user=alice).position in game.to_move else bob
    result = play.move_submit(
        game_id=game.pk, user=mover, action={"type": "pass"}, expected_version=0
    )
    assert not result.ok and result.message == "That action could not be applied."
    assert Game.objects.get(pk=game.pk).version == 0


def test_rulesets_of_an_engine_not_yet_importable_wait_for_a_later_start(db, monkeypatch):
    from games.services import rulesets

    real_get_engine = rulesets.get_engine

    def napad_only(kind):
        if kind == "colt":
            raise ImportError("games.engines.colt.engine")
        return real_get_engine(kind)

    monkeypatch.setattr(rulesets, "get_engine", napad_only)
    first = rulesets_install_defaults()
    assert {r.kind for r in first} == {"napad"}
    monkeypatch.setattr(rulesets, "get_engine", real_get_engine)
    later = rulesets_install_defaults()
    assert {r.slug for r in later} == {
        "colt-express",
        "colt-express-time-machine",
        "colt-express-5-of-7",
    }


def test_the_version_guard_refuses_a_move_when_another_writer_saved_first(alice, bob, monkeypatch):
    # SQLite ignores select_for_update: simulate a second writer that saves between our read
    # and our write, and check the guarded UPDATE refuses instead of overwriting it.
    game = napad_game(alice, bob)
    engine = get_engine("napad")
    real_apply = engine.apply

    def racing_apply(state, seat, action):
        Game.objects.filter(pk=game.pk).update(version=1)
        return real_apply(state, seat, action)

    monkeypatch.setattr(engine, "apply", racing_apply)
    mover = alice if game.seats.get(player__user=alice).position in game.to_move else bob
    result = play.move_submit(
        game_id=game.pk, user=mover, action=first_legal(game), expected_version=0
    )
    assert not result.ok and "moved on" in result.message
    assert not GameEvent.objects.filter(game=game).exists()
