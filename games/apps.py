"""The ``games`` app: players, rulesets, tables and everything that runs them."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Napad Club")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import limits, signals  # noqa: F401  (the limits' system check, the receivers)

        # Installs the after-move pipeline in the move core (games/services/moves.py) before
        # any process — web, worker, command — makes a move.
        from .services import play  # noqa: F401
