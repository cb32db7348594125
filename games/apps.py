"""The ``games`` app: players, rulesets, tables and everything that runs them."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Napad Club")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # converters: registers <id:…> before any URL configuration loads.
        # limits: the limits' system check. signals: connects the receivers.
        # tasks: registers the Celery tasks in every process: the services send them by name,
        # and a registered task sent by name runs in place under an eager configuration.
        from games.web import converters  # noqa: F401

        from . import limits, signals, tasks  # noqa: F401
