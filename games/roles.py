"""Who may do what: the club's roles, checked here and only here (docs/roles.md).

- A **member** plays at their own tables, watches open ones, and sees an invitation-only
  table only when seated at it, invited to it, or its creator.
- A **league organiser** is a member named on the league (``League.organisers``): staff status
  alone makes nobody an organiser, not even a superuser.
- A **moderator** (the "Moderators" group: ``games.moderate_game``) acts on games from the
  admin; an invitation-only table opens to them only after they opened it there, which is
  written in the audit trail, and for ``NAPAD_MODERATOR_VIEW_HOURS`` after their last action
  on it. They see what a spectator sees, never a hand, the state or the seed.
- A **rules editor** (the "Rules editors" group) edits rulesets and previews drafts.
- A **superuser** has every permission (so is a moderator and a rules editor) but is named
  on a league like anyone else to organise it.

Views, the API, the admin and the sockets call these functions instead of reading
``is_staff``, which only says whether an account may log in to the admin at all.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from games.models import Game, League, ModerationAction

MODERATE_PERMISSION = "games.moderate_game"
# Rules editors may look at rulesets that are not published yet.
PREVIEW_DRAFTS_PERMISSION = "games.view_ruleset"


def _active(user: AbstractBaseUser | None) -> bool:
    return bool(user is not None and user.is_authenticated and user.is_active)


def is_moderator(user: AbstractBaseUser | None) -> bool:
    """May use the moderation actions on games."""
    return _active(user) and user.has_perm(MODERATE_PERMISSION)


def may_preview_drafts(user: AbstractBaseUser | None) -> bool:
    """May read rulesets still in draft (the rules pages list them for them)."""
    return _active(user) and user.has_perm(PREVIEW_DRAFTS_PERMISSION)


def is_league_organiser(league: League, user: AbstractBaseUser | None) -> bool:
    """Named on the league as one of its organisers."""
    return _active(user) and league.is_organiser(user)


def moderator_view_window() -> timedelta:
    return timedelta(hours=settings.NAPAD_MODERATOR_VIEW_HOURS)


def moderator_acting_on(game: Game, user: AbstractBaseUser | None) -> bool:
    """A moderator who acted on this table in the admin (each action is in the audit trail)
    within the last ``NAPAD_MODERATOR_VIEW_HOURS``."""
    if not is_moderator(user):
        return False
    since = timezone.now() - moderator_view_window()
    return ModerationAction.objects.filter(game=game, actor=user, created_at__gte=since).exists()


def may_view_table(
    game: Game, user: AbstractBaseUser | None, *, member: bool, seated: bool, invited: bool
) -> bool:
    """Whether ``user`` may watch ``game`` (the page, its fragments, the API, the socket).

    ``member``: the user has a member's profile; ``seated``/``invited``: at this table."""
    if member and (seated or not game.invite_only or invited):
        return True
    if member and user is not None and game.created_by_id == user.pk:
        return True
    return moderator_acting_on(game, user)
