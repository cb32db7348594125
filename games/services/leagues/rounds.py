"""Seasons and rounds: plan a season's rounds, open each on its date and create its games.

Celery beat runs :func:`rounds_sweep` every few minutes. A due round is claimed with a
conditional UPDATE (``scheduled`` -> ``open``, row count checked), so two workers never open
it twice; its fixtures and games are created in the same transaction, so a failure leaves
the round scheduled for the next sweep. Games still running when a round's deadline passes
are left to their turn clocks; the round itself is just marked closed.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import date, datetime, time

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games.engines import get_engine
from games.models import (
    Division,
    Fixture,
    FixtureSeat,
    Game,
    League,
    Membership,
    Player,
    Round,
    Season,
)
from games.selectors.tables import game_seats
from games.services import play
from games.services.clocks.deadlines import clock_policy_set
from games.services.notifications import notification_send

from .fixtures import PlannedTable, SeasonHistory, rng_for_round, round_plan
from .standings import season_standings_ensure

logger = logging.getLogger(__name__)


class LeagueError(Exception):
    """A league rule refuses a request; ``message`` is for people."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def _day_start(day: date) -> datetime:
    return datetime.combine(day, time(0, 0), tzinfo=timezone.get_current_timezone())


def season_create(
    *,
    league: League,
    starts_on: date,
    rounds: int,
    name: str = "",
    divisions: Sequence[Sequence[Player]] | None = None,
    prepared_from: Season | None = None,
) -> Season:
    """A draft season with its rounds planned from ``starts_on`` by the league's spacing.

    ``divisions`` lists each division's members, top first; without it every active member
    plays in one division.
    """
    if rounds < 1:
        raise LeagueError(_("A season needs at least one round."))
    if league.seasons.exclude(status=Season.Status.FINISHED).exists():
        raise LeagueError(_("Finish the current season (or start the draft) first."))
    if divisions is None:
        divisions = [[m.player for m in league.memberships.filter(status=Membership.Status.ACTIVE)]]
    with transaction.atomic():
        last = league.seasons.order_by("-number").first()
        number = (last.number + 1) if last else 1
        first_start = _day_start(starts_on)
        last_deadline = first_start + (rounds - 1) * league.round_interval + league.round_length
        season = Season.objects.create(
            league=league,
            number=number,
            name=name or _("Season %(number)s") % {"number": number},
            starts_on=starts_on,
            ends_on=last_deadline.date(),
            prepared_from=prepared_from,
        )
        Round.objects.bulk_create(
            [
                Round(
                    season=season,
                    number=index + 1,
                    starts_at=first_start + index * league.round_interval,
                    deadline=first_start + index * league.round_interval + league.round_length,
                )
                for index in range(rounds)
            ]
        )
        for level, members in enumerate(divisions, start=1):
            division = Division.objects.create(
                season=season,
                level=level,
                name=_("Division %(level)s") % {"level": level},
            )
            division.members.set(members)
    return season


def season_start(*, season: Season) -> Season:
    """The organiser confirms a draft season: it runs, and its table shows every member."""
    updated = Season.objects.filter(pk=season.pk, status=Season.Status.DRAFT).update(
        status=Season.Status.RUNNING
    )
    if not updated:
        raise LeagueError(_("Only a draft season can be started."))
    season.refresh_from_db()
    season_standings_ensure(season)
    return season


def season_history(season: Season) -> SeasonHistory:
    """What the season's fixtures so far mean for balancing the next round."""
    history = SeasonHistory()
    fixtures = (
        Fixture.objects.filter(season=season)
        .exclude(status=Fixture.Status.VOID)
        .prefetch_related("seats")
        .order_by("pk")
    )
    for fixture in fixtures:
        seats = sorted(fixture.seats.all(), key=lambda s: s.position)
        players = [seat.player_id for seat in seats]
        if fixture.face_to_face:
            # Met at club night, but seats and gangs there were not the scheduler's choice.
            history.add_table(players, seated=False)
            continue
        history.add_table(players, [seat.identity for seat in seats])
    return history


def _fixture_game_create(league: League, fixture: Fixture, table: PlannedTable) -> None:
    players = list(Player.objects.filter(pk__in=table.players).select_related("user"))
    by_id = {p.pk: p for p in players}
    ordered = [by_id[pk] for pk in table.players]
    # The first member seated opens the table; nobody can join it (it starts at once).
    creator = ordered[0].user
    game = play.game_create(
        creator=creator,
        ruleset=league.ruleset,
        seats=len(ordered),
        turn_time_limit=league.turn_time_limit,
        invite_only=True,
        seat_players=ordered,
    )
    game = play.game_start(
        game_id=game.pk, user=creator, first_player=0, identities=table.identities
    )
    # The league's patience: consecutive timeouts before a bot takes the seat, and which bot.
    clock_policy_set(
        game=game,
        timeouts_to_bot=league.timeouts_before_bot,
        stand_in_level=league.stand_in_level,
    )
    fixture.game = game
    fixture.save(update_fields=["game"])
    for player in ordered:
        notification_send(
            player=player,
            kind="league_round",
            text=gettext_noop("%(league)s, round %(number)s: your table is ready."),
            args={"league": league.name, "number": fixture.round.number},
            game=game,
            key=f"league-round:{fixture.round_id}:{player.pk}",
        )
    identities = {seat.position: seat.identity for seat in game_seats(game)}
    FixtureSeat.objects.bulk_create(
        [
            FixtureSeat(
                fixture=fixture,
                position=position,
                player_id=player,
                identity=identities.get(position, ""),
            )
            for position, player in enumerate(table.players)
        ]
    )


def _rotating_identities(league: League, table_size: int) -> list[str] | None:
    if not league.rotate_identities:
        return None
    available = get_engine(league.kind).identities(league.ruleset.config)
    return list(available) if len(available) >= table_size else None


def round_open(*, round_id: int) -> list[Fixture]:
    """Open a scheduled round: plan each division's tables and create their games.

    Returns the fixtures created (none if another worker opened the round first).
    """
    with transaction.atomic():
        claimed = Round.objects.filter(pk=round_id, status=Round.Status.SCHEDULED).update(
            status=Round.Status.OPEN, opened_at=timezone.now()
        )
        if not claimed:
            return []
        round_ = Round.objects.select_related("season__league__ruleset").get(pk=round_id)
        season = round_.season
        league = season.league
        active = set(
            league.memberships.filter(status=Membership.Status.ACTIVE).values_list(
                "player_id", flat=True
            )
        )
        history = season_history(season)
        identities = _rotating_identities(league, league.max_table_size)
        created = []
        for division in season.divisions.prefetch_related("members"):
            players = [m.pk for m in division.members.all() if m.pk in active]
            plan = round_plan(
                players,
                low=league.min_table_size,
                high=league.max_table_size,
                history=history,
                rng=rng_for_round(f"{league.slug}:{season.pk}:{division.level}", round_.number),
                identities=identities,
            )
            for number, table in enumerate(plan.tables, start=1):
                fixture = Fixture.objects.create(
                    season=season, round=round_, division=division, table_number=number
                )
                _fixture_game_create(league, fixture, table)
                created.append(fixture)
        logger.info("round %s opened with %s tables", round_id, len(created))
    return created


def rounds_sweep(now: datetime | None = None) -> dict[str, int]:
    """Open the rounds whose date has come and close those past their deadline."""
    now = now or timezone.now()
    due = Round.objects.filter(
        status=Round.Status.SCHEDULED,
        starts_at__lte=now,
        season__status=Season.Status.RUNNING,
    ).values_list("pk", flat=True)
    opened = 0
    for round_id in list(due):
        try:
            opened += bool(round_open(round_id=round_id))
        except play.PlayError as error:
            # Most likely the pinned ruleset was retired: the organiser must act; the round
            # stays scheduled and the next sweep tries again.
            logger.error("round %s could not open: %s", round_id, error.message)
    # A fixture whose game a moderator aborted (or that was cancelled) will never finish.
    Fixture.objects.filter(
        status=Fixture.Status.PLAYING,
        game__status__in=[Game.Status.ABORTED, Game.Status.CANCELLED],
    ).update(status=Fixture.Status.VOID)
    closed = Round.objects.filter(status=Round.Status.OPEN, deadline__lte=now).update(
        status=Round.Status.CLOSED
    )
    return {"opened": opened, "closed": closed}


def round_open_now(*, round_: Round) -> list[Fixture]:
    """The organiser opens a round before its date."""
    if round_.season.status != Season.Status.RUNNING:
        raise LeagueError(_("Start the season first."))
    fixtures = round_open(round_id=round_.pk)
    if not fixtures and Round.objects.get(pk=round_.pk).status == Round.Status.SCHEDULED:
        raise LeagueError(_("This round could not be opened."))
    return fixtures
