"""Rounds open on their date, create their games (seat order and gangs as planned), and
finished games are counted once, into standings and ratings."""

from __future__ import annotations

import contextlib
from datetime import datetime, time, timedelta

import pytest
from django.utils import timezone
from league_kit import SEASON_START, game_between, game_finish, league_join_all

from games.models import Fixture, Game, Rating, ResultRecord, Round, Season, Standing
from games.services.leagues import results, rounds


@pytest.fixture
def running_season(league, make_members):
    members = make_members(7)
    league_join_all(league, members)
    season = rounds.season_create(league=league, starts_on=SEASON_START, rounds=3)
    rounds.season_start(season=season)
    return season


def test_it_plans_rounds_by_the_leagues_spacing(running_season):
    season = running_season
    starts = list(season.rounds.values_list("starts_at", "deadline"))
    assert len(starts) == 3
    assert starts[1][0] - starts[0][0] == season.league.round_interval
    assert starts[0][1] - starts[0][0] == season.league.round_length
    assert season.status == Season.Status.RUNNING
    assert Standing.objects.filter(season=season).count() == 7


def test_it_opens_due_rounds_once_and_creates_their_games(running_season):
    season = running_season
    first = season.rounds.get(number=1)
    now = first.starts_at + timedelta(minutes=1)
    assert rounds.rounds_sweep(now) == {"opened": 1, "closed": 0}
    assert rounds.rounds_sweep(now) == {"opened": 0, "closed": 0}
    fixtures = list(Fixture.objects.filter(round=first).prefetch_related("seats"))
    assert sorted(len(f.seats.all()) for f in fixtures) == [3, 4]
    for fixture in fixtures:
        game = fixture.game
        assert game.status == Game.Status.RUNNING
        assert game.turn_time_limit == season.league.turn_time_limit
        seats = {s.position: s for s in game.seats.all()}
        for row in fixture.seats.all():
            assert seats[row.position].player_id == row.player_id
            assert seats[row.position].identity == row.identity
        # Seat 0 moves first: the scheduler rotates who that is.
        assert game.to_move == [0]
    assert Round.objects.get(pk=first.pk).status == Round.Status.OPEN


def test_it_leaves_rounds_of_a_draft_season_alone(league, make_members):
    league_join_all(league, make_members(4))
    season = rounds.season_create(league=league, starts_on=SEASON_START, rounds=1)
    assert rounds.rounds_sweep(timezone.now())["opened"] == 0
    assert season.rounds.get().status == Round.Status.SCHEDULED


def test_it_closes_a_round_past_its_deadline(running_season):
    first = running_season.rounds.get(number=1)
    rounds.round_open(round_id=first.pk)
    assert rounds.rounds_sweep(first.deadline + timedelta(seconds=1))["closed"] == 1
    assert Round.objects.get(pk=first.pk).status == Round.Status.CLOSED


def test_it_counts_a_finished_game_once(running_season):
    first = running_season.rounds.get(number=1)
    fixture = rounds.round_open(round_id=first.pk)[0]
    game = game_finish(fixture.game, [1, 2, 3, 4][: fixture.game.seats_count])
    assert results.game_results_record(game.pk) is True
    points = dict(Standing.objects.filter(season=running_season).values_list("player", "points"))
    mu = dict(Rating.objects.values_list("player", "mu"))
    assert results.game_results_record(game.pk) is False
    assert ResultRecord.objects.filter(game=game).count() == 1
    assert (
        dict(Standing.objects.filter(season=running_season).values_list("player", "points"))
        == points
    )
    assert dict(Rating.objects.values_list("player", "mu")) == mu
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.FINISHED
    assert sorted(s.place for s in fixture.seats.all()) == list(range(1, game.seats_count + 1))


def test_it_ignores_a_game_that_is_not_finished(running_season):
    fixture = rounds.round_open(round_id=running_season.rounds.get(number=1).pk)[0]
    assert results.game_results_record(fixture.game.pk) is False
    assert not ResultRecord.objects.exists()


def _play_to_the_end(game, around_each_move=contextlib.nullcontext) -> None:
    """The members seated at ``game`` play its first legal action each until it ends."""
    from games.engines import get_engine
    from games.services.play import move_submit

    engine = get_engine(game.kind)
    users = {s.position: s.player.user for s in game.seats.select_related("player__user")}
    for _move in range(2000):
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            return
        seat = game.to_move[0]
        action = engine.legal_actions(engine.from_json(game.state), seat)[0]
        with around_each_move():
            result = move_submit(
                game_id=game.pk, user=users[seat], action=action, expected_version=game.version
            )
        assert result.ok, result.message
    raise AssertionError("the game did not end")


def test_a_fixture_game_played_to_the_end_is_recorded_after_commit(
    running_season, django_capture_on_commit_callbacks
):
    from napad_site.celery import app

    fixture = rounds.round_open(round_id=running_season.rounds.get(number=1).pk)[0]
    game = fixture.game
    app.conf.task_always_eager = True
    try:
        _play_to_the_end(game, lambda: django_capture_on_commit_callbacks(execute=True))
    finally:
        app.conf.task_always_eager = False
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert ResultRecord.objects.filter(game=game).exists()
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.FINISHED
    assert Standing.objects.filter(season=running_season, games=1).count() == game.seats_count
    assert Rating.objects.filter(games=1).count() == game.seats_count


def test_fixture_games_follow_the_leagues_timeout_limit(league, make_members):
    from games.services.clocks.policy import clock_policy

    league.timeouts_before_bot = 5
    league.save()
    league_join_all(league, make_members(3))
    season = rounds.season_create(league=league, starts_on=SEASON_START, rounds=1)
    rounds.season_start(season=season)
    (fixture,) = rounds.round_open(round_id=season.rounds.get().pk)
    assert clock_policy(fixture.game).timeouts_to_bot == 5


def test_fixture_games_hand_seats_to_the_leagues_stand_in_level(league, make_members):
    from games.services.clocks.timeouts import seat_hand_to_bot, stand_in_bot_kind

    league.stand_in_level = "hard"
    league.save()
    league_join_all(league, make_members(3))
    season = rounds.season_create(league=league, starts_on=SEASON_START, rounds=1)
    rounds.season_start(season=season)
    (fixture,) = rounds.round_open(round_id=season.rounds.get().pk)
    game = fixture.game
    assert stand_in_bot_kind(game) == "search"
    seat = game.seats.get(position=1)
    seat_hand_to_bot(game=game, seat=seat, reason="moderation")
    seat.refresh_from_db()
    assert seat.bot_kind == "search" and seat.replaced_by_bot


def test_leave_beyond_the_leagues_cap_is_refused(running_season):
    from datetime import date

    from games.models import Leave
    from games.services.leagues.members import league_leave_problem

    league = running_season.league
    league.leave_days_per_season = 10
    league.save()
    player = running_season.divisions.get().members.first()
    start = running_season.starts_on
    Leave.objects.create(player=player, start=start, end=start + timedelta(days=5))
    later = start + timedelta(days=10)
    assert league_leave_problem(player=player, start=later, end=later + timedelta(days=3)) is None
    problem = league_leave_problem(player=player, start=later, end=later + timedelta(days=4))
    assert "4 left" in problem
    assert league_leave_problem(player=player, start=date(2030, 1, 1), end=date(2030, 1, 9)) is None


def test_declaring_leave_beyond_the_leagues_cap_is_refused(running_season):
    from games.models import Leave
    from games.services.clocks.leave import LeaveError, leave_declare

    league = running_season.league
    league.leave_days_per_season = 3
    league.save()
    player = running_season.divisions.get().members.first()
    first_day = running_season.starts_on + timedelta(days=1)
    now = timezone.make_aware(datetime.combine(running_season.starts_on, time(9)))
    with pytest.raises(LeaveError, match="3 left"):
        leave_declare(player=player, start=first_day, end=first_day + timedelta(days=3), now=now)
    assert not Leave.objects.filter(player=player).exists()
    leave_declare(player=player, start=first_day, end=first_day + timedelta(days=2), now=now)
    assert Leave.objects.filter(player=player).count() == 1


def test_a_colt_league_round_seats_five_with_distinct_characters(make_members):
    from games.models import League, Ruleset
    from games.services.rulesets import rulesets_install_defaults

    rulesets_install_defaults()
    ruleset = Ruleset.objects.filter(kind="colt", status="published").first()
    league = League.objects.create(
        name="Colt", slug="colt", kind="colt", ruleset=ruleset, min_table_size=3, max_table_size=6
    )
    league_join_all(league, make_members(5))
    season = rounds.season_create(league=league, starts_on=SEASON_START, rounds=2)
    rounds.season_start(season=season)
    (fixture,) = rounds.round_open(round_id=season.rounds.get(number=1).pk)
    identities = [seat.identity for seat in fixture.seats.all()]
    assert len(identities) == 5 and len(set(identities)) == 5 and all(identities)
    assert fixture.game.status == Game.Status.RUNNING


def test_a_round_closes_once_all_its_tables_have_finished(running_season):
    round_ = running_season.rounds.get(number=1)
    first, second = rounds.round_open(round_id=round_.pk)
    results.game_results_record(
        game_finish(first.game, list(range(1, first.game.seats_count + 1))).pk
    )
    assert Round.objects.get(pk=round_.pk).status == Round.Status.OPEN
    results.game_results_record(
        game_finish(second.game, list(range(1, second.game.seats_count + 1))).pk
    )
    assert Round.objects.get(pk=round_.pk).status == Round.Status.CLOSED


def test_an_aborted_fixture_game_voids_its_fixture(running_season):
    fixture = rounds.round_open(round_id=running_season.rounds.get(number=1).pk)[0]
    Game.objects.filter(pk=fixture.game_id).update(status=Game.Status.ABORTED)
    rounds.rounds_sweep(timezone.now())
    assert Fixture.objects.get(pk=fixture.pk).status == Fixture.Status.VOID


def test_the_sweep_finishes_a_played_out_season_and_prepares_the_next(league, make_members):
    from games.services.leagues.sweep import leagues_sweep

    league_join_all(league, make_members(4))
    season = rounds.season_create(league=league, starts_on=SEASON_START, rounds=1)
    rounds.season_start(season=season)
    (fixture,) = rounds.round_open(round_id=season.rounds.get().pk)
    assert leagues_sweep(timezone.now())["seasons_finished"] == 0  # its table still plays
    results.game_results_record(game_finish(fixture.game, [1, 2, 3, 4]).pk)
    assert leagues_sweep(timezone.now())["seasons_finished"] == 1
    assert Season.objects.get(pk=season.pk).status == Season.Status.FINISHED
    draft = league.seasons.get(status=Season.Status.DRAFT)
    assert draft.prepared_from_id == season.pk
    assert leagues_sweep(timezone.now())["seasons_finished"] == 0


def test_a_league_runs_one_season_at_a_time(running_season):
    with pytest.raises(rounds.LeagueError):
        rounds.season_create(league=running_season.league, starts_on=SEASON_START, rounds=2)


def test_members_hear_when_their_round_table_is_ready(running_season):
    from games.models import Notification

    fixtures = rounds.round_open(round_id=running_season.rounds.get(number=1).pk)
    seated = {s.player_id for f in fixtures for s in f.seats.all()}
    notified = Notification.objects.filter(kind="league_round")
    assert set(notified.values_list("player", flat=True)) == seated
    assert all(n.url for n in notified)


def test_a_finished_game_whose_results_message_was_lost_is_counted_by_the_followups_sweep(
    running_season,
):
    from games.services.followups import SWEEP_GRACE, followups_sweep
    from games.tasks import game_results_record_task

    fixture = rounds.round_open(round_id=running_season.rounds.get(number=1).pk)[0]
    game = fixture.game
    # Played to the end with no after-commit callback run: the results message is lost.
    _play_to_the_end(game)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.results_due_at == game.finished_at
    assert not ResultRecord.objects.filter(game=game).exists()

    queued = []
    sweep_at = game.finished_at + SWEEP_GRACE + timedelta(seconds=1)
    followups_sweep(now=sweep_at, queue=lambda name, args: queued.append((name, args)))
    assert queued == [("games.game_results_record", (game.pk,))]
    game_results_record_task(game.pk)
    game_results_record_task(game.pk)  # delivered twice: counted once
    assert ResultRecord.objects.filter(game=game).count() == 1
    assert Standing.objects.filter(season=running_season, games=1).count() == game.seats_count
    game.refresh_from_db()
    assert game.results_due_at is None
    again = []
    followups_sweep(now=sweep_at + timedelta(minutes=5), queue=lambda *a: again.append(a))
    assert again == []


def test_a_round_whose_opening_died_half_way_is_opened_whole_by_the_next_sweep(
    running_season, monkeypatch
):
    first = running_season.rounds.get(number=1)
    now = first.starts_at + timedelta(minutes=1)
    real_create = rounds._fixture_game_create
    calls = []

    def dies_on_the_second_table(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            # What a worker killed mid-round leaves: its transaction never commits.
            raise RuntimeError("worker killed")
        return real_create(*args, **kwargs)

    monkeypatch.setattr(rounds, "_fixture_game_create", dies_on_the_second_table)
    with pytest.raises(RuntimeError):
        rounds.rounds_sweep(now)
    assert Round.objects.get(pk=first.pk).status == Round.Status.SCHEDULED
    assert not Fixture.objects.filter(round=first).exists()
    assert not Game.objects.exists()

    monkeypatch.setattr(rounds, "_fixture_game_create", real_create)
    # The league sweep (beat, every five minutes) finds the round still due and opens it.
    assert rounds.rounds_sweep(now + timedelta(minutes=5))["opened"] == 1
    fixtures = list(Fixture.objects.filter(round=first))
    assert sorted(f.game.seats_count for f in fixtures) == [3, 4]
    assert Game.objects.count() == 2


def test_a_league_games_page_names_its_league_and_round_in_no_more_queries(running_season):
    """The page joins the fixture, its round and league into the game's own query, reading
    only the columns the league line shows (games/selectors/tables.py): a league table's page costs
    the queries of a table outside any league, and says which league and round it belongs to."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    first = running_season.rounds.get(number=1)
    fixture = rounds.round_open(round_id=first.pk)[0]
    seats = list(fixture.game.seats.order_by("position"))
    friendly = game_between(running_season.league.ruleset, [seat.player for seat in seats])
    client = Client()
    client.force_login(seats[0].player.user)

    def page_queries(game_id: int) -> tuple[str, int]:
        url = reverse("game_detail", args=[game_id])
        client.get(url)  # the first visit writes the member's visit
        with CaptureQueriesContext(connection) as read:
            page = client.get(url).content.decode()
        return page, len(read.captured_queries)

    page, league_queries = page_queries(fixture.game_id)
    _friendly_page, friendly_queries = page_queries(friendly.pk)
    assert league_queries <= friendly_queries
    league_link = reverse("league_detail", args=[running_season.league.slug])
    assert f'<a href="{league_link}">Tuesday Napad</a> · round 1' in page
