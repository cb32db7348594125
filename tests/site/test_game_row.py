"""The game's row and its seats read as SQL (games/selectors/game_row.py) answer what the ORM
answers: every field of the game, the clock panel's hints, the ruleset, the visitor's visit and
unread count, the league round; each seat with its member, their username and rating, and
whether they turned Web Push on — on SQLite and on PostgreSQL, whatever is or is not there."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.db.models import Exists, OuterRef
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from leaguekit import napad_league
from playkit import napad_game

from games.models import (
    DeadlineExtension,
    Fixture,
    Game,
    Leave,
    Notification,
    PushSubscription,
    Rating,
    Seat,
    StandingOrder,
    TableNotice,
    TableVisit,
)
from games.selectors.game_row import CLOCK_HINTS, HINTS, LOCKED, PAGE, TABLE, game_row, seats_row

pytestmark = pytest.mark.django_db(transaction=True)

LEAVE_FROM = timezone.now().date() - timedelta(days=2)


def _fields(game: Game) -> dict:
    return {f.attname: getattr(game, f.attname) for f in Game._meta.concrete_fields}


def _hints_by_orm(game: Game) -> dict[str, bool]:
    """The four hints as the ORM asks them (what the SQL replaced)."""
    hints = {
        "hint_leave": Exists(
            Leave.objects.filter(player__seats__game=OuterRef("pk"), end__gte=LEAVE_FROM)
        ),
        "hint_notices": Exists(TableNotice.objects.filter(game=OuterRef("pk"))),
        "hint_extensions": Exists(DeadlineExtension.objects.filter(game=OuterRef("pk"))),
        "hint_orders": Exists(StandingOrder.objects.filter(game=OuterRef("pk"))),
    }
    return Game.objects.filter(pk=game.pk).annotate(**hints).values(*hints).get()


def _hints_read(game: Game) -> dict[str, bool]:
    return {name: bool(getattr(game, name)) for name in CLOCK_HINTS}


@pytest.mark.parametrize("shape", [TABLE, PAGE, LOCKED], ids=["table", "page", "locked"])
def test_the_row_is_the_games_own_with_no_hint_on_a_quiet_table(alice, bob, shape):
    game = napad_game(alice, bob)
    with transaction.atomic():
        read, fixture = game_row(game.pk, LEAVE_FROM, shape, visit_of=alice.player)
    stored = Game.objects.get(pk=game.pk)
    assert _fields(read) == _fields(stored)
    assert _hints_read(read) == {name: False for name in CLOCK_HINTS} == _hints_by_orm(stored)
    assert fixture is None
    if shape.ruleset:
        ruleset = stored.ruleset
        assert (read.ruleset.pk, read.ruleset.name, read.ruleset.version) == (
            ruleset.pk,
            ruleset.name,
            ruleset.version,
        )
        assert read.ruleset.display_name == ruleset.display_name
        if shape.page:
            assert read.ruleset.config == ruleset.config


@pytest.mark.parametrize(
    "make",
    ["leave", "old_leave", "notice", "extension", "order"],
)
def test_each_hint_says_what_the_orm_says(alice, bob, make):
    game = napad_game(alice, bob)
    today = timezone.now().date()
    if make == "leave":
        Leave.objects.create(player=bob.player, start=today, end=today + timedelta(days=3))
    elif make == "old_leave":
        # Ended before the day the hint looks from: not a hint.
        Leave.objects.create(
            player=bob.player, start=today - timedelta(days=9), end=today - timedelta(days=3)
        )
    elif make == "notice":
        TableNotice.objects.create(game=game, kind="leave", text="away")
    elif make == "extension":
        DeadlineExtension.objects.create(game=game, seat=1, version=0, granted_by=alice.player)
    else:
        StandingOrder.objects.create(game=game, seat=0, round=1, pile_index=0, card="fire")
    read, _fixture = game_row(game.pk, LEAVE_FROM, TABLE)
    expected = _hints_by_orm(game)
    assert _hints_read(read) == expected
    assert any(expected.values()) == (make != "old_leave")


def test_the_small_row_says_the_version_status_and_hints_in_one_query(alice, bob):
    game = napad_game(alice, bob)
    TableNotice.objects.create(game=game, kind="leave", text="away")
    with CaptureQueriesContext(connection) as queries:
        read, _fixture = game_row(game.pk, LEAVE_FROM, HINTS)
        version, status = read.version, read.status
        hints = _hints_read(read)
    assert len(queries) == 1
    assert (version, status) == (game.version, game.status)
    assert hints == _hints_by_orm(game)


def test_the_page_row_carries_the_visitors_own_visit_and_unread_count(alice, bob):
    game = napad_game(alice, bob)
    TableVisit.objects.create(
        game=game, player=alice.player, seen_version=3, since_version=2, seen_at=timezone.now()
    )
    TableVisit.objects.create(
        game=game, player=bob.player, seen_version=5, since_version=4, seen_at=timezone.now()
    )
    for text in ("one", "two"):
        Notification.objects.create(player=alice.player, kind="turn", text=text)
    Notification.objects.create(player=bob.player, kind="turn", text="bob's")
    Notification.objects.create(
        player=alice.player, kind="turn", text="read", read_at=timezone.now()
    )
    read, _fixture = game_row(game.pk, LEAVE_FROM, PAGE, visit_of=alice.player)
    assert (read.visit_seen, read.visit_since, read.visitor_unread) == (3, 2, 2)
    read, _fixture = game_row(game.pk, LEAVE_FROM, PAGE, visit_of=bob.player)
    assert (read.visit_seen, read.visit_since, read.visitor_unread) == (5, 4, 1)
    nobody, _fixture = game_row(game.pk, LEAVE_FROM, PAGE)
    assert (nobody.visit_seen, nobody.visit_since) == (None, None)


def test_the_page_row_brings_the_league_round_the_game_is_played_for(alice, bob):
    league = napad_league(members=(alice, bob), season_rounds=1)
    season = league.seasons.get()
    game = napad_game(alice, bob)
    Fixture.objects.create(season=season, round=season.rounds.get(), game=game, table_number=1)
    read, fixture = game_row(game.pk, LEAVE_FROM, PAGE, visit_of=alice.player)
    assert fixture.game is read
    assert (fixture.season.league.name, fixture.season.league.slug) == (league.name, league.slug)
    assert fixture.round.number == 1


@pytest.mark.parametrize("game_id", [0, 2**31, 2**63, -(2**63) - 1, 10**30])
def test_a_key_that_names_no_game_finds_none(alice, game_id):
    assert game_row(game_id, LEAVE_FROM, PAGE, visit_of=alice.player) == (None, None)


@pytest.mark.parametrize("shape", [TABLE, PAGE, LOCKED], ids=["table", "page", "locked"])
def test_the_seats_row_is_each_seats_own_with_its_member(alice, bob, charlie, shape):
    game = napad_game(alice, bob, charlie)
    other = napad_game(charlie, bob)
    Rating.objects.create(player=bob.player, kind="napad", mu=31.5, sigma=4.25)
    Rating.objects.create(player=bob.player, kind="colt", mu=12.0, sigma=2.0)
    PushSubscription.objects.create(
        player=charlie.player, endpoint="https://push.example/c", p256dh="k", auth="a"
    )
    with CaptureQueriesContext(connection) as queries:
        seats = seats_row(game, shape)
        read = [
            (s.pk, s.position, s.identity, s.game is game, s.player.display_name, s.player.user_id)
            for s in seats
        ]
    assert len(queries) == 1
    stored = Seat.objects.filter(game=game).select_related("player").order_by("position")
    assert read == [
        (s.pk, s.position, s.identity, True, s.player.display_name, s.player.user_id)
        for s in stored
    ]
    assert [s.breakdown for s in seats] == [s.breakdown for s in stored]
    if shape.page:
        assert [s.player.user.username for s in seats] == ["alice", "bob", "charlie"]
        assert [(s.rating_mu, s.rating_sigma) for s in seats] == [
            (None, None),
            (31.5, 4.25),
            (None, None),
        ]
    if shape.locked:
        assert [bool(s.push_devices) for s in seats] == [False, False, True]
    assert [s.position for s in seats_row(other, shape)] == [0, 1]


def test_a_bots_seat_has_no_member(alice):
    game = napad_game(alice, bot_seats={1: "heuristic"})
    bot = seats_row(game, PAGE)[1]
    assert (bot.player_id, bot.player, bot.bot_kind) == (None, None, "heuristic")
