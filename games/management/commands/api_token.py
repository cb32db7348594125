"""``manage.py api_token <username> [--name NAME]``: create a personal API token and print it.

For organisers setting up a club bot or script from the shell; members make their own on
their profile page. The token is printed once and only its hash is kept.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from games.services.api_tokens import ApiTokenError, api_token_create


class Command(BaseCommand):
    help = "Create a personal API token for a member and print it (it is shown only once)."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--name", default="command line", help="what the token is for")

    def handle(self, *args, username: str, name: str, **options):
        user_model = get_user_model()
        try:
            user = user_model.objects.get(**{user_model.USERNAME_FIELD: username})
        except user_model.DoesNotExist:
            raise CommandError(f"There is no user called {username!r}.") from None
        if not user.is_active:
            raise CommandError(f"The user {username!r} is not active.")
        try:
            _token, raw_token = api_token_create(user=user, name=name)
        except ApiTokenError as error:
            raise CommandError(error.message) from None
        self.stdout.write(raw_token)
