"""A league's organisers are the members named on it (docs/roles.md): staff status — with no
group, as a moderator, as a rules editor, even as a superuser — makes nobody an organiser.
The issue's finding: a staff member with no group posted a club-night result to a league he
did not belong to, and it counted at once."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Fixture, League, Round, Season, Standing
from tests.leaguekit import napad_league
from tests.personakit import STAFF_ROLES, client_for, member, staff_member


@pytest.fixture
def league(db):
    """A running season of a league organised by olga; three members play."""
    olga = member("olga")
    players = [member(name) for name in ("pia", "quin", "ray")]
    league = napad_league(
        organisers=[olga], members=players, season_rounds=3, min_table_size=3, max_table_size=4
    )
    season = league.seasons.get()
    return {"league": league, "olga": olga, "players": players, "season": season}


def _result_post(client: Client, league: League, players) -> None:
    data = {"played_on": timezone.localdate().isoformat()}
    for index, user in enumerate(players, start=1):
        data.update(
            {
                f"player_{index}": user.player.pk,
                f"place_{index}": index,
                f"score_{index}": 40 - index,
            }
        )
    client.post(reverse("league_result_new", args=[league.slug]), data)


@pytest.mark.parametrize("role", STAFF_ROLES)
def test_staff_not_named_on_the_league_cannot_enter_a_club_night_result(league, role):
    staff = staff_member("stan", role, signed_up=True)
    _result_post(client_for(staff), league["league"], league["players"])
    assert not Fixture.objects.filter(face_to_face=True).exists()
    assert not Standing.objects.filter(games__gt=0).exists()


@pytest.mark.parametrize("role", STAFF_ROLES)
def test_staff_not_named_on_the_league_cannot_confirm_a_pending_result(league, role):
    pia, quin, ray = league["players"]
    _result_post(client_for(pia), league["league"], [pia, quin, ray])
    fixture = Fixture.objects.get(face_to_face=True)
    assert fixture.status == Fixture.Status.PENDING
    staff = staff_member("stan", role, signed_up=True)
    confirm = reverse("league_result_confirm", args=[league["league"].slug, fixture.pk])
    client_for(staff).post(confirm)
    assert Fixture.objects.get(pk=fixture.pk).status == Fixture.Status.PENDING
    assert not Standing.objects.filter(games__gt=0).exists()


@pytest.mark.parametrize("role", STAFF_ROLES)
def test_staff_not_named_on_the_league_cannot_act_as_its_organiser(league, role):
    staff = staff_member("stan", role, signed_up=True)
    client = client_for(staff)
    slug = league["league"].slug
    round_ = Round.objects.filter(season=league["season"], status="scheduled").first()
    answers = [
        client.post(reverse("league_round_open", args=[slug, round_.pk])),
        client.post(reverse("league_season_finish", args=[slug, league["season"].number])),
        client.post(reverse("league_season_create", args=[slug]), {"starts_on": "2026-06-01"}),
    ]
    assert [answer.status_code for answer in answers] == [403, 403, 403]
    assert Round.objects.get(pk=round_.pk).status == "scheduled"
    assert Season.objects.filter(league=league["league"]).count() == 1
    page = client.get(reverse("league_detail", args=[slug])).content.decode()
    assert 'id="organiser-heading"' not in page


@pytest.mark.parametrize("role", [None, *STAFF_ROLES])
def test_a_member_named_on_the_league_organises_it_whatever_their_staff_role(league, role):
    named = member("nina") if role is None else staff_member("nina", role, signed_up=True)
    league["league"].organisers.add(named.player)
    _result_post(client_for(named), league["league"], league["players"])
    # An organiser's entry counts at once.
    assert Fixture.objects.get(face_to_face=True).status == Fixture.Status.FINISHED
    round_ = Round.objects.filter(season=league["season"], status="scheduled").first()
    client = client_for(named)
    client.post(reverse("league_round_open", args=[league["league"].slug, round_.pk]))
    assert Round.objects.get(pk=round_.pk).status != "scheduled"
    page = client.get(reverse("league_detail", args=[league["league"].slug])).content.decode()
    assert 'id="organiser-heading"' in page
