"""``python manage.py league_recompute [--league SLUG] [--ratings]``

Rebuilds stored standings from the games: first records any finished game the ledger is
missing (a lost task), copies every finished league game's result onto its fixture again,
then recomputes each season's standings. With ``--ratings`` it also replays every game
kind's ratings from scratch, in the order the games finished.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from games.models import Fixture, Game, League, Season
from games.services.leagues.ratings import ratings_recompute_all
from games.services.leagues.results import fixture_sync_from_game, unrecorded_games_record
from games.services.leagues.standings import season_standings_recompute


class Command(BaseCommand):
    help = "Recompute league standings (and with --ratings, all ratings) from the games."

    def add_arguments(self, parser):
        parser.add_argument("--league", help="only this league (slug)")
        parser.add_argument(
            "--ratings", action="store_true", help="also replay every rating from scratch"
        )

    def handle(self, *args, **options):
        seasons = Season.objects.select_related("league")
        if options["league"]:
            if not League.objects.filter(slug=options["league"]).exists():
                raise CommandError(f"no league with slug {options['league']!r}")
            seasons = seasons.filter(league__slug=options["league"])
        recorded = unrecorded_games_record()
        if recorded:
            self.stdout.write(f"recorded {recorded} finished game(s) the ledger was missing")
        fixtures = Fixture.objects.filter(
            season__in=seasons, game__status=Game.Status.FINISHED
        ).select_related("game")
        with transaction.atomic():
            for fixture in fixtures.prefetch_related("seats", "game__seats"):
                fixture_sync_from_game(fixture, fixture.game)
        for season in seasons:
            season_standings_recompute(season)
            self.stdout.write(f"standings recomputed: {season.league.slug} / {season}")
        if options["ratings"]:
            for kind, count in ratings_recompute_all().items():
                self.stdout.write(f"ratings replayed: {kind} ({count} results)")
