"""Promotion and relegation at season end (the next season a draft to confirm), joining and
leaving, and club-night results entered face to face and confirmed by another player."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from league_kit import SEASON_START, league_join_all

from games.models import (
    Fixture,
    League,
    Membership,
    Rating,
    ResultRecord,
    Round,
    Season,
    Standing,
)
from games.services.leagues import club_night, divisions, members, rounds
from games.services.leagues.club_night import ClubNightSeat
from games.services.leagues.divisions import divisions_reshuffle
from games.services.leagues.rounds import LeagueError


def test_promotion_and_relegation_swap_the_edges_of_neighbouring_divisions():
    ranked = [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [11, 12, 13, 14, 15]]
    assert divisions_reshuffle(ranked, 2) == [
        [1, 2, 3, 6, 7],
        [4, 5, 8, 11, 12],
        [9, 10, 13, 14, 15],
    ]


def test_promotion_never_empties_a_small_division_and_drops_leavers():
    assert divisions_reshuffle([[1, 2, 3], [4, 5]], 3) == [[1, 2, 4], [3, 5]]
    assert divisions_reshuffle([[1, 2, 3, 4], [5, 6, 7, 8]], 1, leavers={4}) == [
        [1, 2, 5],
        [3, 6, 7, 8],
    ]


@pytest.fixture
def two_divisions(league, make_members):
    league.promotion_count = 1
    league.save()
    top, bottom = make_members(4), make_members(4)
    league_join_all(league, top + bottom)
    season = rounds.season_create(
        league=league, starts_on=SEASON_START, rounds=2, divisions=[top, bottom]
    )
    rounds.season_start(season=season)
    return season, top, bottom


def _result(season, entered_by, players, places, *, organiser=True):
    return club_night.club_night_result_enter(
        season=season,
        entered_by=entered_by,
        is_organiser=organiser,
        seats=[
            ClubNightSeat(player=p, place=pl, score=50 - 10 * pl) for p, pl in zip(players, places)
        ],
        played_at=timezone.now() - timedelta(hours=1),
    )


def test_season_end_promotes_relegates_and_prepares_a_draft(two_divisions, make_members):
    season, top, bottom = two_divisions
    league = season.league
    _result(season, top[0], top, [1, 2, 3, 4])  # top[3] finishes last up there
    _result(season, bottom[0], bottom, [4, 3, 2, 1])  # bottom[3] wins down there
    newcomer = make_members(1)[0]
    members.membership_join(league=league, player=newcomer)
    members.membership_leave(league=league, player=top[1])

    draft = divisions.season_finish(season=season)

    season.refresh_from_db()
    assert season.status == Season.Status.FINISHED
    assert draft.status == Season.Status.DRAFT and draft.prepared_from == season
    assert draft.number == season.number + 1
    first, second = draft.divisions.order_by("level")
    assert set(first.members.all()) == {top[0], top[2], bottom[3]}
    assert set(second.members.all()) == {top[3], bottom[0], bottom[1], bottom[2], newcomer}
    assert draft.rounds.count() == 2
    assert not season.rounds.filter(status=Round.Status.SCHEDULED).exists()
    # Nothing runs until the organiser confirms the draft.
    assert rounds.rounds_sweep(timezone.now() + timedelta(days=400))["opened"] == 0
    rounds.season_start(season=draft)
    assert Standing.objects.filter(season=draft).count() == 8


def test_joining_needs_approval_when_the_league_asks(league, make_members):
    league.approval_required = True
    league.save()
    (player,) = make_members(1)
    membership = members.membership_join(league=league, player=player)
    assert membership.status == Membership.Status.PENDING
    with pytest.raises(LeagueError):
        members.membership_join(league=league, player=player)
    members.membership_decide(membership=membership, approve=True)
    assert Membership.objects.get(pk=membership.pk).status == Membership.Status.ACTIVE


def test_a_member_who_leaves_is_not_seated_again(two_divisions):
    season, top, bottom = two_divisions
    members.membership_leave(league=season.league, player=top[0])
    fixtures = rounds.round_open(round_id=season.rounds.get(number=1).pk)
    seated = {s.player_id for f in fixtures for s in f.seats.all()}
    assert top[0].pk not in seated
    assert len(seated) == 7


def test_an_organisers_club_night_result_counts_at_once(two_divisions):
    season, top, _bottom = two_divisions
    fixture = _result(season, top[0], top[:3], [1, 2, 2])
    assert fixture.face_to_face and fixture.status == Fixture.Status.FINISHED
    assert ResultRecord.objects.filter(fixture=fixture).exists()
    points = dict(Standing.objects.filter(season=season).values_list("player", "points"))
    assert [points[p.pk] for p in top[:3]] == [4.0, 1.0, 1.0]
    assert Rating.objects.filter(player__in=top[:3]).count() == 3


def test_a_players_result_counts_only_once_another_player_confirms(two_divisions):
    season, top, bottom = two_divisions
    fixture = _result(season, top[0], top[:3], [1, 2, 3], organiser=False)
    assert fixture.status == Fixture.Status.PENDING
    assert not ResultRecord.objects.exists()
    # Not the member who entered it, nor someone from another table.
    for player in (top[0], bottom[0]):
        with pytest.raises(LeagueError):
            club_night.club_night_result_confirm(fixture=fixture, player=player, is_organiser=False)
    club_night.club_night_result_confirm(fixture=fixture, player=top[2], is_organiser=False)
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.FINISHED and fixture.confirmed_by == top[2]
    assert ResultRecord.objects.filter(fixture=fixture).count() == 1
    with pytest.raises(LeagueError):
        club_night.club_night_result_confirm(fixture=fixture, player=top[1], is_organiser=False)
    assert Standing.objects.get(season=season, player=top[0]).points == 4.0


def test_a_rejected_result_never_counts(two_divisions):
    season, top, _bottom = two_divisions
    fixture = _result(season, top[0], top[:3], [1, 2, 3], organiser=False)
    club_night.club_night_result_reject(fixture=fixture, player=top[1], is_organiser=False)
    assert Fixture.objects.get(pk=fixture.pk).status == Fixture.Status.VOID
    assert not ResultRecord.objects.exists()


@pytest.mark.parametrize(
    "places,message",
    [([1, 3, 3], "Places"), ([2, 3, 4], "Places"), ([1, 1, 2], "Places")],
)
def test_a_club_night_result_needs_a_real_finishing_order(two_divisions, places, message):
    season, top, _bottom = two_divisions
    with pytest.raises(LeagueError, match=message):
        _result(season, top[0], top[:3], places)


def test_only_members_at_the_table_or_organisers_enter_results(two_divisions, make_members):
    season, top, bottom = two_divisions
    with pytest.raises(LeagueError):
        _result(season, bottom[0], top[:3], [1, 2, 3], organiser=False)
    outsider = make_members(1)[0]
    with pytest.raises(LeagueError, match="Not in this league"):
        _result(season, top[0], [top[0], top[1], outsider], [1, 2, 3])


def test_club_night_meetings_count_for_balancing_the_next_round(two_divisions):
    season, top, _bottom = two_divisions
    history = rounds.season_history(season)
    assert not history.meetings
    _result(season, top[0], top[:3], [1, 2, 3])
    history = rounds.season_history(season)
    assert history.meetings[(top[0].pk, top[1].pk)] == 1


def test_league_rules_are_validated(napad_ruleset):
    league = League(
        name="Bad",
        slug="bad",
        kind="napad",
        ruleset=napad_ruleset,
        min_table_size=3,
        max_table_size=7,
        placement_points={"3": [4, 2]},
        tie_breaks=["points", "charisma"],
    )
    with pytest.raises(Exception) as error:
        league.full_clean()
    assert set(error.value.message_dict) >= {"max_table_size", "placement_points", "tie_breaks"}


def test_the_other_players_are_asked_to_confirm_a_players_result(two_divisions):
    from games.models import Notification

    season, top, _bottom = two_divisions
    _result(season, top[0], top[:3], [1, 2, 3], organiser=False)
    asked = set(Notification.objects.filter(kind="league_result").values_list("player", flat=True))
    assert asked == {top[1].pk, top[2].pk}
