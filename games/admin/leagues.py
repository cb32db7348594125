"""Admin for leagues: leagues (rules validated by ``League.clean``), seasons with their
divisions and rounds, memberships, fixtures, and the stored standings and ratings (read-only:
services and ``league_recompute`` write them). Registered through ``games/admin/__init__.py``.
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _

from games.admin.secrets import SecretFieldsAdminMixin
from games.forms.fields import WHOLE_NUMBER_FORMFIELDS
from games.models import (
    Division,
    Fixture,
    FixtureSeat,
    League,
    Membership,
    Rating,
    RatingHistory,
    Round,
    Season,
    Standing,
)
from games.services.leagues import divisions as division_services
from games.services.leagues import rounds as round_services
from games.services.leagues.rounds import LeagueError
from games.services.leagues.standings import season_standings_recompute


class ReadOnly:
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(League)
class LeagueAdmin(SecretFieldsAdminMixin, admin.ModelAdmin):
    formfield_overrides = WHOLE_NUMBER_FORMFIELDS
    list_display = ["name", "kind", "ruleset", "min_table_size", "max_table_size", "drop_rule"]
    list_filter = ["kind"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["organisers"]
    fieldsets = [
        (None, {"fields": ["name", "slug", "description", "kind", "ruleset", "organisers"]}),
        (
            _("Tables and time"),
            {
                "fields": [
                    "min_table_size",
                    "max_table_size",
                    "turn_time_limit",
                    "timeouts_before_bot",
                    "stand_in_level",
                    "leave_days_per_season",
                    "round_length",
                    "round_interval",
                ]
            },
        ),
        (
            _("Scoring"),
            {
                "fields": [
                    "placement_points",
                    "tie_breaks",
                    "drop_rule",
                    "rotate_identities",
                    "promotion_count",
                    "approval_required",
                ]
            },
        ),
    ]


class DivisionInline(SecretFieldsAdminMixin, admin.TabularInline):
    formfield_overrides = WHOLE_NUMBER_FORMFIELDS
    model = Division
    extra = 0
    filter_horizontal = ["members"]


class RoundInline(SecretFieldsAdminMixin, admin.TabularInline):
    formfield_overrides = WHOLE_NUMBER_FORMFIELDS
    model = Round
    extra = 0
    fields = ["number", "starts_at", "deadline", "status"]


@admin.register(Season)
class SeasonAdmin(SecretFieldsAdminMixin, admin.ModelAdmin):
    formfield_overrides = WHOLE_NUMBER_FORMFIELDS
    list_display = ["__str__", "league", "number", "status", "starts_on", "ends_on"]
    list_filter = ["status", "league"]
    inlines = [DivisionInline, RoundInline]
    actions = ["start_seasons", "finish_seasons", "recompute_standings"]

    def _run(self, request, queryset, service, done):
        for season in queryset:
            try:
                service(season=season)
            except LeagueError as error:
                self.message_user(request, f"{season}: {error.message}", messages.ERROR)
            else:
                self.message_user(request, f"{season}: {done}", messages.SUCCESS)

    @admin.action(description=_("Start (confirm) the selected draft seasons"))
    def start_seasons(self, request, queryset):
        self._run(request, queryset, round_services.season_start, _("started"))

    @admin.action(description=_("Finish the selected seasons and prepare the next"))
    def finish_seasons(self, request, queryset):
        self._run(request, queryset, division_services.season_finish, _("finished"))

    @admin.action(description=_("Recompute standings from the games"))
    def recompute_standings(self, request, queryset):
        for season in queryset:
            season_standings_recompute(season)
        self.message_user(request, _("Standings recomputed."), messages.SUCCESS)


@admin.register(Division)
class DivisionAdmin(SecretFieldsAdminMixin, admin.ModelAdmin):
    formfield_overrides = WHOLE_NUMBER_FORMFIELDS
    list_display = ["name", "season", "level"]
    list_filter = ["season__league"]
    filter_horizontal = ["members"]


@admin.register(Membership)
class MembershipAdmin(SecretFieldsAdminMixin, admin.ModelAdmin):
    formfield_overrides = WHOLE_NUMBER_FORMFIELDS
    list_display = ["player", "league", "status", "joined_at", "left_at"]
    list_filter = ["status", "league"]
    search_fields = ["player__display_name", "player__user__username"]


@admin.register(Round)
class RoundAdmin(SecretFieldsAdminMixin, admin.ModelAdmin):
    formfield_overrides = WHOLE_NUMBER_FORMFIELDS
    list_display = ["__str__", "season", "number", "status", "starts_at", "deadline"]
    list_filter = ["status", "season__league"]


class FixtureSeatInline(ReadOnly, SecretFieldsAdminMixin, admin.TabularInline):
    model = FixtureSeat
    extra = 0
    fields = ["position", "player", "identity", "place", "score", "dropped"]
    readonly_fields = fields


@admin.register(Fixture)
class FixtureAdmin(ReadOnly, SecretFieldsAdminMixin, admin.ModelAdmin):
    list_display = ["__str__", "round", "status", "face_to_face", "game", "played_at"]
    list_filter = ["status", "face_to_face", "season__league"]
    inlines = [FixtureSeatInline]


@admin.register(Standing)
class StandingAdmin(ReadOnly, SecretFieldsAdminMixin, admin.ModelAdmin):
    list_display = ["season", "division", "rank", "player", "points", "games", "wins", "drops"]
    list_filter = ["season__league", "season"]
    ordering = ["season", "division", "rank"]


@admin.register(Rating)
class RatingAdmin(ReadOnly, SecretFieldsAdminMixin, admin.ModelAdmin):
    list_display = ["player", "kind", "mu", "sigma", "games", "updated_at"]
    list_filter = ["kind"]
    search_fields = ["player__display_name"]


@admin.register(RatingHistory)
class RatingHistoryAdmin(ReadOnly, SecretFieldsAdminMixin, admin.ModelAdmin):
    list_display = ["player", "kind", "played_at", "place", "table_size", "mu", "sigma"]
    list_filter = ["kind"]
