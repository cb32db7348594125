"""Results of games played face to face at club night, entered into the same league.

An organiser's entry counts at once. A member who played may enter the table's result too,
but it counts only once another player from that table (or an organiser) confirms it, so
nobody can put a result on others alone. Confirmed results go through the same ledger as
online games: standings and ratings, counted once, flagged as played face to face.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games.engines import get_engine
from games.models import Fixture, FixtureSeat, Membership, Player, Season
from games.services.notifications import notification_send

from .results import fixture_results_record
from .rounds import LeagueError


@dataclass(frozen=True)
class ClubNightSeat:
    player: Player
    place: int
    score: int | None = None
    identity: str = ""


def places_problem(places: Sequence[int]) -> str | None:
    """Why these places are not a finishing order (competition ranking: 1, 2, 2, 4), or None."""
    expected = 1
    for place, count in sorted(Counter(places).items()):
        if place != expected:
            return _("Places must run 1, 2, 3… with tied players sharing a place (1, 2, 2, 4).")
        expected += count
    return None


def club_night_result_enter(
    *,
    season: Season,
    entered_by: Player,
    is_organiser: bool,
    seats: Sequence[ClubNightSeat],
    played_at: datetime | None = None,
) -> Fixture:
    league = season.league
    if season.status != Season.Status.RUNNING:
        raise LeagueError(_("Results can be entered only while the season runs."))
    engine = get_engine(league.kind)
    players = [seat.player for seat in seats]
    if not engine.min_players <= len(seats) <= engine.max_players:
        raise LeagueError(
            _("%(game)s takes %(low)s to %(high)s players.")
            % {"game": engine.name, "low": engine.min_players, "high": engine.max_players}
        )
    if len({p.pk for p in players}) != len(players):
        raise LeagueError(_("Each member can sit at the table only once."))
    active = set(
        Membership.objects.filter(
            league=league, status=Membership.Status.ACTIVE, player__in=players
        ).values_list("player_id", flat=True)
    )
    outsiders = [p.display_name for p in players if p.pk not in active]
    if outsiders:
        raise LeagueError(
            _("Not in this league: %(names)s.") % {"names": ", ".join(sorted(outsiders))}
        )
    if not is_organiser and entered_by.pk not in {p.pk for p in players}:
        raise LeagueError(_("Only an organiser or a player at the table can enter its result."))
    problem = places_problem([seat.place for seat in seats])
    if problem:
        raise LeagueError(problem)
    played_at = played_at or timezone.now()
    if played_at > timezone.now():
        raise LeagueError(_("A result cannot be from the future."))
    divisions = {
        d.pk
        for d in season.divisions.filter(members__in=players).distinct()
        if set(d.members.values_list("pk", flat=True)) >= {p.pk for p in players}
    }
    with transaction.atomic():
        fixture = Fixture.objects.create(
            season=season,
            division_id=next(iter(divisions)) if len(divisions) == 1 else None,
            face_to_face=True,
            status=Fixture.Status.FINISHED if is_organiser else Fixture.Status.PENDING,
            played_at=played_at,
            entered_by=entered_by,
            confirmed_by=entered_by if is_organiser else None,
            table_number=season.fixtures.filter(face_to_face=True).count() + 1,
        )
        FixtureSeat.objects.bulk_create(
            [
                FixtureSeat(
                    fixture=fixture,
                    position=position,
                    player=seat.player,
                    place=seat.place,
                    score=seat.score,
                    identity=seat.identity,
                )
                for position, seat in enumerate(seats)
            ]
        )
        if is_organiser:
            fixture_results_record(fixture)
        else:
            url = reverse("league_detail", args=[league.slug])
            for seat in seats:
                if seat.player.pk == entered_by.pk:
                    continue
                notification_send(
                    player=seat.player,
                    kind="league_result",
                    text=gettext_noop(
                        "%(name)s entered a club-night result in %(league)s: confirm it."
                    ),
                    args={"name": entered_by.display_name, "league": league.name},
                    url=url,
                    key=f"league-result:{fixture.pk}",
                )
    return fixture


def _pending(fixture: Fixture, player: Player, is_organiser: bool) -> None:
    if fixture.status != Fixture.Status.PENDING or not fixture.face_to_face:
        raise LeagueError(_("This result is not waiting for confirmation."))
    at_table = fixture.seats.filter(player=player).exists()
    if not is_organiser and (not at_table or fixture.entered_by_id == player.pk):
        raise LeagueError(
            _("Another player from the table (or an organiser) must confirm this result.")
        )


def club_night_result_confirm(*, fixture: Fixture, player: Player, is_organiser: bool) -> Fixture:
    _pending(fixture, player, is_organiser)
    with transaction.atomic():
        updated = Fixture.objects.filter(pk=fixture.pk, status=Fixture.Status.PENDING).update(
            status=Fixture.Status.FINISHED, confirmed_by=player
        )
        if not updated:
            raise LeagueError(_("This result is not waiting for confirmation."))
        fixture.refresh_from_db()
        fixture_results_record(fixture)
    return fixture


def club_night_result_reject(*, fixture: Fixture, player: Player, is_organiser: bool) -> Fixture:
    """Another player (or an organiser) says the entered result is wrong: it never counts."""
    _pending(fixture, player, is_organiser)
    Fixture.objects.filter(pk=fixture.pk, status=Fixture.Status.PENDING).update(
        status=Fixture.Status.VOID, confirmed_by=player
    )
    fixture.refresh_from_db()
    return fixture
