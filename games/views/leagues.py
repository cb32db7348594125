"""League pages: the list, a league (standings, rounds and fixtures, divisions, join/leave,
organiser actions), club-night results, balance statistics, and members' ratings.

Views stay thin: reads come from ``games.selectors.leagues`` (the same dicts the API serves),
writes go through ``games.services.leagues``.
"""

from __future__ import annotations

from datetime import datetime, time

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseForbidden
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.forms.leagues import ClubNightResultForm, SeasonCreateForm
from games.models import Fixture, League, Membership, Player, Round, Season
from games.models.rulesets import Ruleset
from games.roles import is_league_organiser
from games.selectors import leagues as selectors
from games.services.accounts import player_get_or_create
from games.services.charts import line_chart
from games.services.leagues import club_night, divisions, members, rounds
from games.services.leagues.rounds import LeagueError
from games.text.parsing import strict_int


def _me(request: HttpRequest) -> Player:
    return player_get_or_create(user=request.user)


def _league(slug: str) -> League:
    return get_object_or_404(League.objects.select_related("ruleset"), slug=slug)


@login_required
def league_list(request: HttpRequest) -> HttpResponse:
    mine = set(
        Membership.objects.filter(
            player__user=request.user, status=Membership.Status.ACTIVE
        ).values_list("league__slug", flat=True)
    )
    return render(
        request, "leagues/list.html", {"leagues": selectors.leagues_overview(), "mine": mine}
    )


@login_required
def league_detail(request: HttpRequest, slug: str) -> HttpResponse:
    league = _league(slug)
    season = None
    number = strict_int(request.GET.get("season"), minimum=1)
    if number is not None:
        season = league.seasons.filter(number=number).first()
    season = season or selectors.league_current_season(league)
    me = _me(request)
    membership = Membership.objects.filter(league=league, player=me).first()
    is_organiser = is_league_organiser(league, request.user)
    context = {
        **selectors.league_page_data(league, season),
        "membership": membership,
        "is_organiser": is_organiser,
        "me": me,
        "season_form": SeasonCreateForm() if is_organiser else None,
    }
    return render(request, "leagues/detail.html", context)


def _done(request: HttpRequest, league: League, message: str | None = None) -> HttpResponse:
    if message:
        messages.success(request, message)
    return redirect("league_detail", slug=league.slug)


def _organiser_action(view):
    """A POST only the league's organisers may make; a LeagueError becomes a message."""

    @login_required
    @require_POST
    def wrapped(request: HttpRequest, slug: str, *args, **kwargs) -> HttpResponse:
        league = _league(slug)
        if not is_league_organiser(league, request.user):
            return HttpResponseForbidden(_("Only the league's organisers can do that."))
        try:
            return view(request, league, *args, **kwargs)
        except LeagueError as error:
            messages.error(request, error.message)
            return _done(request, league)

    wrapped.__name__ = view.__name__
    wrapped.__doc__ = view.__doc__
    return wrapped


@login_required
@require_POST
def league_join(request: HttpRequest, slug: str) -> HttpResponse:
    league = _league(slug)
    try:
        membership = members.membership_join(league=league, player=_me(request))
    except LeagueError as error:
        messages.error(request, error.message)
        return _done(request, league)
    if membership.status == Membership.Status.PENDING:
        return _done(request, league, _("Asked to join: an organiser will approve it."))
    return _done(request, league, _("Welcome to the league!"))


@login_required
@require_POST
def league_leave(request: HttpRequest, slug: str) -> HttpResponse:
    league = _league(slug)
    try:
        members.membership_leave(league=league, player=_me(request))
    except LeagueError as error:
        messages.error(request, error.message)
        return _done(request, league)
    return _done(request, league, _("You left the league. Your results so far still count."))


@_organiser_action
def league_member_decide(request: HttpRequest, league: League, membership_id: int):
    membership = get_object_or_404(Membership, pk=membership_id, league=league)
    approve = request.POST.get("decision") == "approve"
    members.membership_decide(membership=membership, approve=approve)
    return _done(request, league, _("Approved.") if approve else _("Turned down."))


@_organiser_action
def league_season_create(request: HttpRequest, league: League):
    form = SeasonCreateForm(request.POST)
    if not form.is_valid():
        raise LeagueError(_("Give the first round's date and the number of rounds."))
    season = rounds.season_create(
        league=league, starts_on=form.cleaned_data["starts_on"], rounds=form.cleaned_data["rounds"]
    )
    return _done(request, league, _("%(season)s is ready as a draft.") % {"season": season})


@_organiser_action
def league_season_start(request: HttpRequest, league: League, number: int):
    season = get_object_or_404(Season, league=league, number=number)
    rounds.season_start(season=season)
    return _done(request, league, _("%(season)s has started.") % {"season": season})


@_organiser_action
def league_season_finish(request: HttpRequest, league: League, number: int):
    season = get_object_or_404(Season, league=league, number=number)
    draft = divisions.season_finish(season=season)
    return _done(
        request,
        league,
        _("%(season)s is over. %(next)s is prepared: check the divisions and start it.")
        % {"season": season, "next": draft},
    )


@_organiser_action
def league_round_open(request: HttpRequest, league: League, round_id: int):
    round_ = get_object_or_404(Round.objects.select_related("season"), pk=round_id)
    if round_.season.league_id != league.pk:
        raise Http404
    fixtures = rounds.round_open_now(round_=round_)
    return _done(request, league, _("Round opened: %(count)s tables.") % {"count": len(fixtures)})


@login_required
def league_result_new(request: HttpRequest, slug: str) -> HttpResponse:
    """Enter a club-night result (an organiser, or one of the table's players)."""
    league = _league(slug)
    season = league.seasons.filter(status=Season.Status.RUNNING).order_by("-number").first()
    if season is None:
        messages.error(request, _("Results can be entered only while the season runs."))
        return _done(request, league)
    is_organiser = is_league_organiser(league, request.user)
    form = ClubNightResultForm(request.POST or None, league=league)
    if request.method == "POST" and form.is_valid():
        played_on = form.cleaned_data["played_on"]
        played_at = timezone.make_aware(datetime.combine(played_on, time(20, 0)))
        played_at = min(played_at, timezone.now())
        try:
            club_night.club_night_result_enter(
                season=season,
                entered_by=_me(request),
                is_organiser=is_organiser,
                seats=[club_night.ClubNightSeat(**seat) for seat in form.cleaned_data["seats"]],
                played_at=played_at,
            )
        except LeagueError as error:
            form.add_error(None, error.message)
        else:
            return _done(
                request,
                league,
                _("Result recorded.")
                if is_organiser
                else _("Result entered: it counts once another player confirms it."),
            )
    return render(
        request,
        "leagues/result_form.html",
        {"league": league, "season": season, "form": form, "is_organiser": is_organiser},
    )


def _result_decide(request: HttpRequest, slug: str, fixture_id: int, confirm: bool):
    league = _league(slug)
    fixture = get_object_or_404(Fixture, pk=fixture_id, season__league=league)
    decide = (
        club_night.club_night_result_confirm if confirm else club_night.club_night_result_reject
    )
    try:
        decide(
            fixture=fixture,
            player=_me(request),
            is_organiser=is_league_organiser(league, request.user),
        )
    except LeagueError as error:
        messages.error(request, error.message)
        return _done(request, league)
    return _done(request, league, _("Result confirmed.") if confirm else _("Result rejected."))


@login_required
@require_POST
def league_result_confirm(request: HttpRequest, slug: str, fixture_id: int) -> HttpResponse:
    return _result_decide(request, slug, fixture_id, confirm=True)


@login_required
@require_POST
def league_result_reject(request: HttpRequest, slug: str, fixture_id: int) -> HttpResponse:
    return _result_decide(request, slug, fixture_id, confirm=False)


@login_required
def league_balance(request: HttpRequest, slug: str) -> HttpResponse:
    league = _league(slug)
    return render(
        request,
        "leagues/balance.html",
        {"league": league, "stats": selectors.league_balance_data(league)},
    )


@login_required
def player_ratings(request: HttpRequest, username: str) -> HttpResponse:
    if "\x00" in username:  # no username has one, and PostgreSQL cannot compare it (a 500)
        raise Http404
    user = get_object_or_404(
        get_user_model().objects.select_related("player"), username=username, is_active=True
    )
    player = player_get_or_create(user=user)
    data = selectors.player_ratings_data(player)
    for rating in data["ratings"]:
        # Drawn here, from what the selector read: the chart's coordinates are the page's.
        rating["chart"] = line_chart(rating["chart_values"])
    return render(request, "leagues/ratings.html", data)


@login_required
def rating_list(request: HttpRequest) -> HttpResponse:
    kind = request.GET.get("kind", Ruleset.Kind.NAPAD)
    if kind not in Ruleset.Kind.values:
        raise Http404
    return render(
        request,
        "leagues/leaderboard.html",
        {
            "kind": kind,
            "kinds": Ruleset.Kind.choices,
            "rows": selectors.ratings_leaderboard_data(kind),
        },
    )
