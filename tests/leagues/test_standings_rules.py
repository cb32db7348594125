"""Standings rules: placement points with shared places, each tie-break in the league's
order, and the drop rule. Pure functions, no database."""

from __future__ import annotations

import pytest

from games.services.leagues.standings import (
    SeatResult,
    TableResult,
    head_to_head,
    lines_build,
    lines_rank,
    split_points,
    table_contributions,
)

POINTS = {2: [3, 0], 3: [4, 2, 0], 4: [5, 3, 1, 0]}


def points_for(size):
    return POINTS[size]


def table(key, *seats):
    return TableResult(key=key, seats=tuple(SeatResult(*seat) for seat in seats))


def ranking(tables, order, drop_rule="last", names=None):
    lines = lines_build(tables, points_for, drop_rule)
    ranked = lines_rank(lines, order, tables, points_for, drop_rule, names)
    return [(item.rank, item.line.player) for item in ranked]


def test_placement_points_follow_the_table_size():
    assert split_points([5, 3, 1, 0], [1, 2, 3, 4]) == [5, 3, 1, 0]
    assert split_points([4, 2, 0], [3, 1, 2]) == [0, 4, 2]


def test_shared_places_split_the_points_they_cover():
    assert split_points([5, 3, 1, 0], [1, 2, 2, 4]) == [5, 2, 2, 0]
    assert split_points([5, 3, 1, 0], [1, 1, 1, 4]) == [3, 3, 3, 0]
    assert split_points([5, 3, 1, 0], [1, 1, 3, 3]) == [4, 4, 0.5, 0.5]


def test_points_rank_first():
    tables = [table("a", (1, 1, 30), (2, 2, 20), (3, 3, 10))]
    assert ranking(tables, ["points"]) == [(1, 1), (2, 2), (3, 3)]


def test_winner_pct_breaks_a_tie_on_points():
    # 1 and 2 each win once (3 points each); 2 came closer to the winner when losing.
    tables = [table("a", (1, 1, 50), (2, 2, 40)), table("b", (2, 1, 50), (1, 2, 10))]
    assert ranking(tables, ["points"]) == [(1, 1), (1, 2)]
    assert ranking(tables, ["points", "winner_pct"]) == [(1, 2), (2, 1)]


def test_head_to_head_ranks_players_level_on_points():
    tables = [
        table("a", (3, 1, 30), (2, 2, 20), (1, 3, 10)),  # 2 ahead of 1 here
        table("b", (1, 1, 30), (4, 2, 20), (5, 3, 10)),  # 1: 0 + 4 = 4
        table("c", (6, 1, 30), (2, 2, 20), (7, 3, 10)),  # 2: 2 + 2 = 4
    ]
    ranks = {player: rank for rank, player in ranking(tables, ["points"])}
    assert ranks[1] == ranks[2]
    ranks = {player: rank for rank, player in ranking(tables, ["points", "head_to_head"])}
    assert ranks[2] < ranks[1]
    # Only the tied players count: 2 lost to 3 at table a, which does not matter here.
    assert head_to_head([1, 2], tables, points_for, "last") == {1: -1, 2: 1}


def test_wins_break_a_tie():
    tables = [
        table("a", (1, 1, 50), (9, 2, 40), (8, 3, 30), (7, 4, 20)),  # 1: 5, one win
        table("b", (9, 1, 50), (2, 2, 40), (8, 3, 30), (7, 4, 20)),  # 2: 3
        table("c", (9, 1, 50), (8, 2, 40), (2, 3, 30), (1, 4, 20)),  # 2: 1, 1: 0
        table("d", (9, 1, 50), (8, 2, 40), (2, 3, 30), (7, 4, 20)),  # 2: 1 -> 5, no win
    ]
    ranks = {player: rank for rank, player in ranking(tables, ["points"])}
    assert ranks[1] == ranks[2]
    ranks = {player: rank for rank, player in ranking(tables, ["points", "wins"])}
    assert ranks[1] < ranks[2]


def test_total_score_and_average_points_break_ties():
    tables = [
        table("a", (1, 1, 90), (2, 2, 10)),
        table("b", (2, 1, 20), (1, 2, 5)),
    ]
    assert ranking(tables, ["points", "score"])[0] == (1, 1)
    tables.append(table("c", (3, 1, 10), (4, 2, 0)))
    # 3 has 3 points from one game: best average.
    assert ranking(tables, ["average_points"])[0] == (1, 3)


def test_fewest_drops_breaks_a_tie():
    tables = [
        table("a", (1, 2, 10), (3, 1, 20)),
        table("b", (2, 2, 10, True), (4, 1, 20)),
    ]
    order = ranking(tables, ["points", "fewest_drops"], drop_rule="keep")
    ranks = dict((player, rank) for rank, player in order)
    assert ranks[1] < ranks[2]


def test_players_level_on_everything_share_a_rank_listed_by_name():
    tables = [table("a", (1, 1, 10), (2, 1, 10), (3, 3, 0))]
    assert ranking(tables, ["points", "wins"], names={1: "Zed", 2: "Ann"}) == [
        (1, 2),
        (1, 1),
        (3, 3),
    ]


@pytest.mark.parametrize(
    "rule,points,win",
    [("last", 0.0, False), ("zero", 0.0, False), ("keep", 5.0, True)],
)
def test_drop_rule_decides_what_a_bot_replaced_seat_scores(rule, points, win):
    # Seat 1's member was replaced by a bot, which went on to win.
    result = table("a", (1, 1, 50, True), (2, 2, 40), (3, 3, 30), (4, 4, 20))
    contributions = table_contributions(result, points_for, rule)
    assert contributions[1].points == points
    assert contributions[1].win is win
    assert contributions[1].dropped is True
    # The others keep the points of the places they finished in.
    assert [contributions[p].points for p in (2, 3, 4)] == [3.0, 1.0, 0.0]


def test_drop_rule_last_gives_the_last_places_points():
    three = {3: [4, 2, 1]}
    result = table("a", (1, 1, 50, True), (2, 2, 40), (3, 3, 30))
    assert table_contributions(result, three.get, "last")[1].points == 1.0
    assert table_contributions(result, three.get, "zero")[1].points == 0.0


def test_a_dropped_player_loses_head_to_head_unless_the_rule_keeps_the_result():
    tables = [
        table("a", (1, 1, 50, True), (2, 2, 40), (3, 3, 30)),  # a bot won 1's seat
        table("b", (1, 1, 50), (4, 2, 30), (2, 3, 10)),
    ]
    assert head_to_head([1, 2], tables, points_for, "keep") == {1: 2, 2: -2}
    assert head_to_head([1, 2], tables, points_for, "last") == {1: 0, 2: 0}


def test_club_night_results_without_scores_use_places_for_winner_pct():
    result = table("a", (1, 1, None), (2, 2, None), (3, 3, None))
    contributions = table_contributions(result, points_for, "last")
    assert [contributions[p].winner_pct for p in (1, 2, 3)] == [100.0, 50.0, 0.0]
