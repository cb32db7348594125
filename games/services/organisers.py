"""The organisers' groups and what each may do in the admin.

- **Rules editors** manage rulesets (clone, edit drafts, publish, retire), their rules texts
  and balance simulation runs. They see no games.
- **Moderators** see games and seats and use the moderation actions (the custom
  ``games.moderate_game`` permission); they cannot touch rulesets.

Installed by a data migration (``games/migrations/0004_organiser_groups.py``), so every
database has them; :func:`organiser_groups_install` is idempotent and adds any permission a
later version of this list names, so it can be called again safely (tests, a shell).
"""

from __future__ import annotations

from django.apps import apps as django_apps
from django.contrib.auth.management import create_permissions

RULES_EDITORS = "Rules editors"
MODERATORS = "Moderators"

# group name -> permission codenames of the games app.
ORGANISER_GROUPS: dict[str, tuple[str, ...]] = {
    RULES_EDITORS: (
        "view_ruleset",
        "add_ruleset",
        "change_ruleset",
        "view_rulestext",
        "add_rulestext",
        "change_rulestext",
        "delete_rulestext",
        "view_simulationrun",
        "add_simulationrun",
    ),
    MODERATORS: (
        "view_game",
        "view_seat",
        "view_moderationaction",
        "moderate_game",
    ),
}


def organiser_groups_install(apps=django_apps) -> None:
    """Create the groups (if missing) and give each its permissions (adding, never removing:
    an organiser may have widened a group by hand)."""
    games_config = apps.get_app_config("games")
    # Permissions are normally created after ``migrate`` finishes; a data migration runs
    # before that, so create this app's now (idempotent). ``create_permissions`` skips an app
    # without a models module, which a migration's historical app config never has.
    models_module = getattr(games_config, "models_module", None)
    games_config.models_module = models_module or True
    try:
        create_permissions(games_config, apps=apps, verbosity=0)
    finally:
        games_config.models_module = models_module
    group_model = apps.get_model("auth", "Group")
    permission_model = apps.get_model("auth", "Permission")
    for name, codenames in ORGANISER_GROUPS.items():
        group, _created = group_model.objects.get_or_create(name=name)
        permissions = permission_model.objects.filter(
            content_type__app_label="games", codename__in=codenames
        )
        group.permissions.add(*permissions)
