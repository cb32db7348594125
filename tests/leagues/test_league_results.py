"""Results into standings and ratings: counted once, recompute equals incremental, and
out-of-order completion gives the same ratings as an in-order recompute."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone
from league_kit import SEASON_START, game_between, game_finish, league_join_all

from games.models import Game, League, Rating, RatingHistory, ResultRecord, Standing
from games.services.leagues import results, rounds
from games.services.leagues.ratings import (
    Skill,
    expected_places,
    players_expected_places,
    ratings_replay,
)
from games.services.leagues.standings import season_standings_recompute

# Places per table for successive games: ties, and a seat handed to a bot (True).
PATTERNS = [
    ([1, 2, 3, 4], ()),
    ([2, 1, 1, 4], ()),
    ([4, 3, 2, 1], (0,)),
    ([1, 1, 3, 3], ()),
    ([3, 1, 2, 4], (3,)),
]


def _standings(season):
    return {
        row.player_id: (
            row.rank,
            round(row.points, 6),
            row.games,
            row.wins,
            round(row.winner_pct_total, 6),
            row.score_total,
            row.drops,
            row.division_id,
        )
        for row in Standing.objects.filter(season=season)
    }


def _ratings():
    return {
        (r.player_id, r.kind): (round(r.mu, 9), round(r.sigma, 9), r.games)
        for r in Rating.objects.all()
    }


def _history():
    return sorted(
        (h.player_id, h.record.source, round(h.mu, 9), h.place, round(h.expected_place, 9))
        for h in RatingHistory.objects.select_related("record")
    )


def _finish(game, index, at):
    places, dropped = PATTERNS[index % len(PATTERNS)]
    size = game.seats_count
    places = places[:size]
    if size < 4:
        places = sorted(range(1, size + 1), key=lambda p: (index * 7 + p) % size)
    return game_finish(game, places, dropped=[d for d in dropped if d < size], at=at)


@pytest.fixture
def season_with_games(league, make_members):
    league.tie_breaks = ["points", "winner_pct", "head_to_head", "wins"]
    league.drop_rule = League.DropRule.LAST
    league.save()
    members = make_members(9)
    league_join_all(league, members)
    season = rounds.season_create(league=league, starts_on=SEASON_START, rounds=3)
    rounds.season_start(season=season)
    games = []
    for round_ in season.rounds.order_by("number")[:2]:
        games += [f.game for f in rounds.round_open(round_id=round_.pk)]
    start = timezone.now() - timedelta(days=3)
    for index, game in enumerate(games):
        _finish(game, index, start + timedelta(hours=index))
    return season, games


def test_recompute_equals_incremental_standings(season_with_games):
    season, games = season_with_games
    for game in games:
        assert results.game_results_record(game.pk)
    incremental = _standings(season)
    assert sum(row[2] for row in incremental.values()) == sum(g.seats_count for g in games)
    Standing.objects.filter(season=season).update(points=0, games=0, rank=0, wins=0)
    season_standings_recompute(season)
    assert _standings(season) == incremental
    call_command("league_recompute", "--ratings", stdout=io.StringIO())
    assert _standings(season) == incremental


def test_out_of_order_completion_gives_the_in_order_ratings(season_with_games):
    season, games = season_with_games
    # The tasks run in a shuffled order: latest-finishing first, then the rest.
    order = [games[-1], games[0], games[2], games[1], *games[3:-1]]
    for game in order:
        assert results.game_results_record(game.pk)
    shuffled_ratings, shuffled_history = _ratings(), _history()
    standings = _standings(season)
    ratings_replay("napad")
    assert _ratings() == shuffled_ratings
    assert _history() == shuffled_history
    # And the standings do not care about the order either.
    season_standings_recompute(season)
    assert {
        p: row[:1] + (pytest.approx(row[1]),) + row[2:4] for p, row in _standings(season).items()
    } == {p: row[:1] + (row[1],) + row[2:4] for p, row in standings.items()}


def test_a_game_recorded_twice_counts_once_in_ratings(league, make_members, napad_ruleset):
    players = make_members(3)
    game = game_finish(game_between(napad_ruleset, players), [1, 2, 3])
    assert results.game_results_record(game.pk)
    before = (_ratings(), _history())
    assert not results.game_results_record(game.pk)
    assert (_ratings(), _history()) == before
    assert ResultRecord.objects.count() == 1
    assert RatingHistory.objects.count() == 3
    assert all(r.games == 1 for r in Rating.objects.all())


def test_it_rates_the_winner_up_and_leaves_bots_out(napad_ruleset, make_members):
    a, b = make_members(2)
    game = game_finish(game_between(napad_ruleset, [a, b], bots={2: "random"}), [2, 3, 1])
    results.game_results_record(game.pk)
    ratings = {r.player_id: r for r in Rating.objects.all()}
    assert set(ratings) == {a.pk, b.pk}
    assert ratings[a.pk].mu > ratings[b.pk].mu
    # Among the members a was first: the bot's win does not make a second.
    assert RatingHistory.objects.get(player=a).place == 1


def test_a_member_replaced_by_a_bot_is_rated_last(napad_ruleset, make_members):
    a, b, c = make_members(3)
    game = game_finish(game_between(napad_ruleset, [a, b, c]), [1, 2, 3], dropped=[0])
    results.game_results_record(game.pk)
    places = dict(RatingHistory.objects.values_list("player", "place"))
    assert places == {b.pk: 1, c.pk: 2, a.pk: 3}


def test_the_provisional_flag_clears_after_enough_games(napad_ruleset, make_members, settings):
    settings.NAPAD_RATING_PROVISIONAL_GAMES = 2
    a, b, c = make_members(3)
    for number in range(2):
        game = game_finish(game_between(napad_ruleset, [a, b, c]), [1, 2, 3])
        results.game_results_record(game.pk)
        rating = Rating.objects.get(player=a, kind="napad")
        assert rating.provisional is (number == 0)
        assert rating.games == number + 1


def test_expected_places_favour_the_stronger_player():
    strong, weak, new = Skill(32, 2), Skill(18, 2), Skill()
    expected = expected_places([strong, weak, new])
    assert expected[0] < expected[2] < expected[1]
    assert sum(expected) == pytest.approx(6)
    assert expected_places([Skill(), Skill()]) == [1.5, 1.5]


def test_expected_places_before_a_game_use_stored_ratings(napad_ruleset, make_members):
    a, b, c = make_members(3)
    for _ in range(3):
        results.game_results_record(
            game_finish(game_between(napad_ruleset, [a, b, c]), [1, 2, 3]).pk
        )
    expected = players_expected_places("napad", [c.pk, a.pk, b.pk])
    assert expected[a.pk] < expected[b.pk] < expected[c.pk]


def test_an_aborted_league_game_is_not_counted(season_with_games):
    season, games = season_with_games
    game = games[0]
    Game.objects.filter(pk=game.pk).update(status=Game.Status.ABORTED)
    assert not results.game_results_record(game.pk)
    assert not Standing.objects.filter(season=season, games__gt=0).exists()


def test_league_recompute_counts_a_game_whose_task_was_lost(season_with_games):
    season, games = season_with_games
    for game in games[1:]:
        results.game_results_record(game.pk)
    out = io.StringIO()
    call_command("league_recompute", "--league", season.league.slug, "--ratings", stdout=out)
    assert "recorded 1 finished game" in out.getvalue()
    assert ResultRecord.objects.count() == len(games)
    played = sum(Standing.objects.filter(season=season).values_list("games", flat=True))
    assert played == sum(g.seats_count for g in games)
    assert RatingHistory.objects.count() == sum(g.seats_count for g in games)


def test_league_recompute_refuses_an_unknown_league(db):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError):
        call_command("league_recompute", "--league", "nope")
