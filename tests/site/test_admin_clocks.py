"""The clocks in the admin: staff can read the ledgers but never edit them, and standing
orders (which may name a face-down card) are not shown at all."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import NoReverseMatch, reverse

pytestmark = pytest.mark.django_db


@pytest.fixture
def superuser_client(client):
    admin_user = get_user_model().objects.create_superuser("root", "root@example.org", "pw-root-42")
    client.force_login(admin_user)
    return client


@pytest.mark.parametrize("model", ["turnclock", "remindersent", "deadlineextension", "tablenotice"])
def test_it_lists_clock_ledgers_read_only(superuser_client, model):
    response = superuser_client.get(reverse(f"admin:games_{model}_changelist"))
    assert response.status_code == 200
    assert superuser_client.get(reverse(f"admin:games_{model}_add")).status_code == 403


def test_it_lets_staff_correct_a_members_leave(superuser_client):
    assert superuser_client.get(reverse("admin:games_leave_add")).status_code == 200


def test_it_never_shows_standing_orders(superuser_client):
    with pytest.raises(NoReverseMatch):
        reverse("admin:games_standingorder_changelist")
