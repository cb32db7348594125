"""Leagues: seasons of rounds of fixtures, members and divisions, standings and ratings.

A *fixture* is one table of a league round (played online as a ``Game``) or one result
entered from a club night (played face to face, no ``Game``). Standings and ratings read
fixtures and finished games only through the ``ResultRecord`` ledger, which holds one row per
counted result, so a result is counted exactly once whatever retries happen.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.text.parsing import strict_int

from .games import Game
from .players import Player
from .rulesets import Ruleset

# Placement points per table size when a league does not say otherwise (first place first).
DEFAULT_PLACEMENT_POINTS = {
    "2": [3, 0],
    "3": [4, 2, 0],
    "4": [5, 3, 1, 0],
    "5": [6, 4, 2, 1, 0],
    "6": [7, 5, 3, 2, 1, 0],
}
TIE_BREAKS = {
    "points": _("total points"),
    "average_points": _("average points per game"),
    "winner_pct": _("average % of the winner's score"),
    "head_to_head": _("head-to-head"),
    "wins": _("wins"),
    "score": _("total game score"),
    "fewest_drops": _("fewest dropped games"),
}
DEFAULT_TIE_BREAKS = ["points", "winner_pct", "head_to_head", "wins"]


def default_placement_points() -> dict[str, list[int]]:
    return {size: list(points) for size, points in DEFAULT_PLACEMENT_POINTS.items()}


def default_tie_breaks() -> list[str]:
    return list(DEFAULT_TIE_BREAKS)


class League(models.Model):
    class DropRule(models.TextChoices):
        LAST = "last", _("a dropped player scores as last place")
        ZERO = "zero", _("a dropped player scores no points")
        KEEP = "keep", _("the bot's result counts for the dropped player")

    name = models.CharField(_("name"), max_length=100)
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    description = models.TextField(_("description"), blank=True)
    kind = models.CharField(_("game"), max_length=16, choices=Ruleset.Kind.choices)
    # A league pins one ruleset version: every fixture of every season plays exactly it.
    ruleset = models.ForeignKey(
        Ruleset, on_delete=models.PROTECT, related_name="leagues", verbose_name=_("ruleset")
    )
    min_table_size = models.PositiveSmallIntegerField(_("smallest table"), default=3)
    max_table_size = models.PositiveSmallIntegerField(_("largest table"), default=4)
    turn_time_limit = models.DurationField(_("turn time limit"), default=timedelta(hours=48))
    timeouts_before_bot = models.PositiveSmallIntegerField(
        _("timeouts in a row before a bot takes the seat"), default=3
    )
    stand_in_level = models.CharField(
        _("level of the bot that takes a seat"),
        max_length=8,
        choices=[("easy", _("easy")), ("medium", _("medium")), ("hard", _("hard"))],
        default="medium",
        help_text=_(
            "Plays for a member after their timeouts, or when a moderator hands their seat to "
            "a bot."
        ),
    )
    leave_days_per_season = models.PositiveSmallIntegerField(
        _("vacation days per season"), default=14
    )
    placement_points = models.JSONField(
        _("placement points per table size"), default=default_placement_points
    )
    tie_breaks = models.JSONField(_("ranking order"), default=default_tie_breaks)
    drop_rule = models.CharField(
        _("dropped or bot-replaced players"),
        max_length=8,
        choices=DropRule.choices,
        default=DropRule.LAST,
    )
    rotate_identities = models.BooleanField(_("rotate gangs / characters"), default=True)
    approval_required = models.BooleanField(_("organiser approves new members"), default=False)
    round_length = models.DurationField(_("time to play a round"), default=timedelta(days=14))
    round_interval = models.DurationField(_("time between rounds"), default=timedelta(days=7))
    promotion_count = models.PositiveSmallIntegerField(
        _("members promoted and relegated between divisions"), default=2
    )
    organisers = models.ManyToManyField(
        Player, blank=True, related_name="organised_leagues", verbose_name=_("organisers")
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("league")
        verbose_name_plural = _("leagues")

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        from games.engines import get_engine

        problems: dict[str, list[str]] = {}
        if self.ruleset_id and self.ruleset.kind != self.kind:
            problems.setdefault("ruleset", []).append(_("The ruleset is for another game."))
        if self.kind:
            engine = get_engine(self.kind)
            if not (
                engine.min_players
                <= self.min_table_size
                <= self.max_table_size
                <= engine.max_players
            ):
                problems.setdefault("max_table_size", []).append(
                    _("Tables must seat %(low)s to %(high)s players, smallest first.")
                    % {"low": engine.min_players, "high": engine.max_players}
                )
        for message in placement_points_problems(self.placement_points):
            problems.setdefault("placement_points", []).append(message)
        tie_breaks = self.tie_breaks if isinstance(self.tie_breaks, list) else None
        if not tie_breaks or any(name not in TIE_BREAKS for name in tie_breaks):
            problems.setdefault("tie_breaks", []).append(
                _("List one or more of: %(names)s.") % {"names": ", ".join(TIE_BREAKS)}
            )
        if problems:
            raise ValidationError(problems)

    def points_for_table(self, size: int) -> list[float]:
        """Points for places 1..size at a table of ``size`` players."""
        table = self.placement_points or {}
        points = table.get(str(size)) or DEFAULT_PLACEMENT_POINTS.get(str(size))
        if points is None:
            points = list(range(size - 1, -1, -1))
        points = [float(p) for p in points][:size]
        return points + [0.0] * (size - len(points))

    def is_organiser(self, user) -> bool:
        """Named on the league as an organiser; staff status is not enough (docs/roles.md,
        ``games.roles.is_league_organiser``)."""
        if not getattr(user, "is_authenticated", False):
            return False
        return self.organisers.filter(user_id=user.pk).exists()


def placement_points_problems(table) -> list[str]:
    if not isinstance(table, dict):
        return [_("Give an object mapping a table size to its list of points.")]
    problems = []
    for size, points in table.items():
        if strict_int(str(size), minimum=1) is None or not isinstance(points, list):
            problems.append(_("“%(size)s” must map a table size to a list.") % {"size": size})
        elif len(points) != int(size) or not all(isinstance(p, int | float) for p in points):
            problems.append(_("Table size %(size)s needs %(size)s numbers.") % {"size": size})
        elif any(a < b for a, b in zip(points, points[1:])):
            problems.append(
                _("Points for table size %(size)s must not rise for worse places.") % {"size": size}
            )
    return problems


class Season(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("draft (waiting for the organiser)")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    number = models.PositiveSmallIntegerField(_("number"))
    name = models.CharField(_("name"), max_length=100, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.DRAFT
    )
    starts_on = models.DateField(_("starts on"))
    ends_on = models.DateField(_("ends on"), null=True, blank=True)
    prepared_from = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["league_id", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["league", "number"], name="season_league_number"),
        ]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")

    def __str__(self) -> str:
        return self.name or f"{self.league} · {self.number}"


class Division(models.Model):
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="divisions")
    # 1 is the top division; promotion moves a member to level - 1.
    level = models.PositiveSmallIntegerField(_("level"), default=1)
    name = models.CharField(_("name"), max_length=60)
    members = models.ManyToManyField(
        Player, blank=True, related_name="league_divisions", verbose_name=_("members")
    )

    class Meta:
        ordering = ["season_id", "level"]
        constraints = [
            models.UniqueConstraint(fields=["season", "level"], name="division_season_level"),
        ]
        verbose_name = _("division")
        verbose_name_plural = _("divisions")

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for approval")
        ACTIVE = "active", _("active")
        LEFT = "left", _("left")
        REJECTED = "rejected", _("not approved")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="memberships")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="memberships")
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.ACTIVE
    )
    joined_at = models.DateTimeField(auto_now_add=True)
    left_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["league_id", "joined_at"]
        constraints = [
            models.UniqueConstraint(fields=["league", "player"], name="membership_league_player"),
        ]
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")

    def __str__(self) -> str:
        return f"{self.player} in {self.league}"


class Round(models.Model):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("scheduled")
        OPEN = "open", _("open")
        CLOSED = "closed", _("closed")

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("number"))
    starts_at = models.DateTimeField(_("opens at"))
    deadline = models.DateTimeField(_("deadline"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.SCHEDULED
    )
    opened_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["season_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["season", "number"], name="round_season_number"),
        ]
        # The beat sweep looks for due rounds by status and date.
        indexes = [models.Index(fields=["status", "starts_at"], name="round_status_starts")]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")

    def __str__(self) -> str:
        return f"{self.season} · {_('round')} {self.number}"


class Fixture(models.Model):
    """One table of a season: a league game played online, or a club-night result."""

    class Status(models.TextChoices):
        PLAYING = "playing", _("being played")
        PENDING = "pending", _("waiting for confirmation")
        FINISHED = "finished", _("finished")
        VOID = "void", _("void")

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="fixtures")
    round = models.ForeignKey(
        Round, null=True, blank=True, on_delete=models.CASCADE, related_name="fixtures"
    )
    division = models.ForeignKey(
        Division, null=True, blank=True, on_delete=models.SET_NULL, related_name="fixtures"
    )
    table_number = models.PositiveSmallIntegerField(_("table"), default=1)
    game = models.OneToOneField(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="fixture"
    )
    face_to_face = models.BooleanField(_("played face to face"), default=False)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PLAYING
    )
    played_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    entered_by = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed_by = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["season_id", "round_id", "table_number", "pk"]
        indexes = [models.Index(fields=["season", "status"], name="fixture_season_status")]
        verbose_name = _("fixture")
        verbose_name_plural = _("fixtures")

    def __str__(self) -> str:
        return f"{self.season} · {_('table')} {self.table_number}"


class FixtureSeat(models.Model):
    fixture = models.ForeignKey(Fixture, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField(_("seat"))
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="fixture_seats")
    identity = models.CharField(_("gang or character"), max_length=32, blank=True)
    place = models.PositiveSmallIntegerField(_("place"), null=True, blank=True)
    score = models.IntegerField(_("score"), null=True, blank=True)
    # Dropped out or handed to a bot: the league's drop rule decides what it scores.
    dropped = models.BooleanField(_("dropped"), default=False)

    class Meta:
        ordering = ["fixture_id", "position"]
        constraints = [
            models.UniqueConstraint(fields=["fixture", "position"], name="fixtureseat_position"),
            models.UniqueConstraint(fields=["fixture", "player"], name="fixtureseat_player"),
        ]
        verbose_name = _("fixture seat")
        verbose_name_plural = _("fixture seats")

    def __str__(self) -> str:
        return f"{self.fixture_id}/{self.position}"


class ResultRecord(models.Model):
    """The ledger: one row per counted result (a finished game or a confirmed club-night
    fixture). Inserting it is what makes counting happen exactly once."""

    kind = models.CharField(max_length=16, choices=Ruleset.Kind.choices)
    # "game:<id>" or "fixture:<id>": unique, and a stable tie-break between equal times.
    source = models.CharField(max_length=32, unique=True)
    game = models.OneToOneField(
        Game, null=True, blank=True, on_delete=models.CASCADE, related_name="result_record"
    )
    fixture = models.OneToOneField(
        Fixture, null=True, blank=True, on_delete=models.CASCADE, related_name="result_record"
    )
    finished_at = models.DateTimeField()
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["finished_at", "source"]
        indexes = [models.Index(fields=["kind", "finished_at"], name="result_kind_finished")]
        verbose_name = _("recorded result")
        verbose_name_plural = _("recorded results")

    def __str__(self) -> str:
        return self.source


class Standing(models.Model):
    """A member's line in a season's table: stored, and recomputable from the fixtures."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="standings")
    division = models.ForeignKey(
        Division, null=True, blank=True, on_delete=models.SET_NULL, related_name="standings"
    )
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="standings")
    rank = models.PositiveSmallIntegerField(_("rank"), default=0)
    points = models.FloatField(_("points"), default=0)
    games = models.PositiveSmallIntegerField(_("games"), default=0)
    wins = models.PositiveSmallIntegerField(_("wins"), default=0)
    winner_pct_total = models.FloatField(default=0)
    score_total = models.IntegerField(_("total score"), default=0)
    drops = models.PositiveSmallIntegerField(_("drops"), default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["season_id", "division_id", "rank", "player_id"]
        constraints = [
            models.UniqueConstraint(fields=["season", "player"], name="standing_season_player"),
        ]
        verbose_name = _("standing")
        verbose_name_plural = _("standings")

    def __str__(self) -> str:
        return f"{self.season}: {self.rank}. {self.player}"

    @property
    def winner_pct(self) -> float:
        return self.winner_pct_total / self.games if self.games else 0.0

    @property
    def average_points(self) -> float:
        return self.points / self.games if self.games else 0.0


class Rating(models.Model):
    """A member's club-wide skill for one game (OpenSkill Plackett–Luce)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    kind = models.CharField(_("game"), max_length=16, choices=Ruleset.Kind.choices)
    mu = models.FloatField(default=25.0)
    sigma = models.FloatField(default=25.0 / 3)
    games = models.PositiveIntegerField(_("rated games"), default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["kind", "-mu"]
        constraints = [
            models.UniqueConstraint(fields=["player", "kind"], name="rating_player_kind"),
        ]
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")

    def __str__(self) -> str:
        return f"{self.player} {self.kind} {self.display:.0f}"

    @property
    def ordinal(self) -> float:
        """A conservative skill estimate: what the member is very likely at least worth."""
        return self.mu - 3 * self.sigma

    @property
    def display(self) -> float:
        return rating_display(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return self.games < provisional_games()


def provisional_games() -> int:
    """How many rated games a member plays before their rating stops being provisional."""
    return getattr(settings, "NAPAD_RATING_PROVISIONAL_GAMES", 5)


def rating_display(mu: float, sigma: float) -> float:
    # Scaled so a new member starts near 0 and strong members reach four digits, which
    # reads more like the ratings people know than OpenSkill's raw 25 ± 8.
    return max(0.0, (mu - 3 * sigma) * 40)


class RatingHistory(models.Model):
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_history")
    kind = models.CharField(max_length=16, choices=Ruleset.Kind.choices)
    record = models.ForeignKey(ResultRecord, on_delete=models.CASCADE, related_name="ratings")
    mu = models.FloatField()
    sigma = models.FloatField()
    place = models.PositiveSmallIntegerField()
    table_size = models.PositiveSmallIntegerField()
    # The place the ratings expected before this game (1 = first), for "played above form".
    expected_place = models.FloatField()
    played_at = models.DateTimeField()

    class Meta:
        ordering = ["player_id", "kind", "played_at", "record_id"]
        constraints = [
            models.UniqueConstraint(fields=["record", "player"], name="ratinghistory_record"),
        ]
        indexes = [
            models.Index(fields=["player", "kind", "played_at"], name="ratinghistory_player"),
        ]
        verbose_name = _("rating history")
        verbose_name_plural = _("rating history")

    def __str__(self) -> str:
        return f"{self.player} {self.kind} @ {self.record_id}"

    @property
    def display(self) -> float:
        return rating_display(self.mu, self.sigma)
