"""Helpers for the organiser tests: staff members in the organisers' groups, admin clients."""

from __future__ import annotations

from django.contrib.auth.models import Group, User
from django.test import Client

from games.services.organisers import MODERATORS, RULES_EDITORS, organiser_groups_install


def staff_member(username: str, *groups: str) -> User:
    """A staff account (admin access) in the given groups; no player profile needed."""
    organiser_groups_install()
    user = User.objects.create_user(username=username, password="x", is_staff=True)  # noqa: S106
    for name in groups:
        user.groups.add(Group.objects.get(name=name))
    return user


def rules_editor(username: str = "rita") -> User:
    return staff_member(username, RULES_EDITORS)


def moderator(username: str = "max") -> User:
    return staff_member(username, MODERATORS)


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client
