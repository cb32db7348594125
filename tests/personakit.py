"""The club's personas, made one way for every test (docs/roles.md): members who signed up,
staff accounts in each staff role — no group, a moderator, a rules editor, a superuser — and a
test client logged in as any of them."""

from __future__ import annotations

from django.contrib.auth.models import Group, User
from django.test import Client

from games.services.accounts import user_sign_up
from games.services.organisers import MODERATORS, RULES_EDITORS, organiser_groups_install

PASSWORD = "train-robbery-42"  # noqa: S105 (a test password)

# Staff status alone, each organisers' group, and a superuser: what a staff member can be.
STAFF_ROLES = ("staff_without_group", "moderator", "rules_editor", "superuser")
_GROUPS = {"moderator": MODERATORS, "rules_editor": RULES_EDITORS}


def member(username: str, display_name: str | None = None, *, language: str = "en") -> User:
    """A member who signed up (a user with a Player), logging in with ``PASSWORD``; shown as
    ``display_name``, by default the username capitalised."""
    return user_sign_up(
        username=username,
        email=f"{username}@example.org",
        password=PASSWORD,
        display_name=display_name or username.title(),
        language=language,
    )


def staff_member(
    username: str, role: str = "staff_without_group", *, signed_up: bool = False
) -> User:
    """A staff account (admin access) in one of ``STAFF_ROLES``: in that role's organisers'
    group, or a superuser. ``signed_up``: a club member as well (see ``member``); otherwise an
    account with no Player."""
    assert role in STAFF_ROLES, role
    organiser_groups_install()
    if signed_up:
        user = member(username)
    else:
        user = User.objects.create_user(username=username, password="x")  # noqa: S106
    user.is_staff = True
    user.is_superuser = role == "superuser"
    user.save()
    if role in _GROUPS:
        user.groups.add(Group.objects.get(name=_GROUPS[role]))
    return user


def rules_editor(username: str = "rita") -> User:
    return staff_member(username, "rules_editor")


def moderator(username: str = "max") -> User:
    return staff_member(username, "moderator")


def client_for(user, **options) -> Client:
    """A test client (made with ``options``) logged in as ``user``."""
    client = Client(**options)
    client.force_login(user)
    return client
