"""The members list and member pages."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_it_lists_the_members(alice_client, alice, bob, charlie):
    response = alice_client.get(reverse("member_list"))

    assert response.status_code == 200
    html = response.content.decode()
    for name in ("Alice", "Bob", "Charlie"):
        assert name in html
    assert reverse("member_detail", args=["bob"]) in html
    assert "3 members" in html


def test_it_finds_members_by_name_or_username(alice_client, bob, charlie):
    response = alice_client.get(reverse("member_list"), {"q": "CHAR"})

    members = [player.user.username for player in response.context["page"]]
    assert members == ["charlie"]


def test_it_leaves_deactivated_members_out(alice_client, bob):
    bob.is_active = False
    bob.save()

    response = alice_client.get(reverse("member_list"))

    assert [player.user.username for player in response.context["page"]] == ["alice"]
    assert alice_client.get(reverse("member_detail", args=["bob"])).status_code == 404


def test_it_shows_a_member_page(alice_client, bob):
    bob.player.time_zone = "America/Sao_Paulo"
    bob.player.save()

    response = alice_client.get(reverse("member_detail", args=["bob"]))

    assert response.status_code == 200
    html = response.content.decode()
    assert "Bob" in html
    assert "America/Sao_Paulo" in html
    # Private details stay private.
    assert "bob@example.org" not in html
    assert "Edit your profile" not in html


def test_it_offers_the_profile_link_on_my_own_page(alice_client, alice):
    response = alice_client.get(reverse("member_detail", args=["alice"]))

    assert "Edit your profile" in response.content.decode()


def test_it_answers_404_for_an_unknown_member(alice_client):
    response = alice_client.get(reverse("member_detail", args=["nobody"]))

    assert response.status_code == 404


def test_it_shows_members_only_to_members(client, alice):
    for url in (reverse("member_list"), reverse("member_detail", args=["alice"])):
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))


def test_it_pages_a_long_member_list(alice_client, alice):
    User = get_user_model()
    for number in range(60):
        User.objects.create_user(f"rider{number:02d}")

    first = alice_client.get(reverse("member_list"))
    second = alice_client.get(reverse("member_list"), {"page": 2})

    assert len(first.context["page"].object_list) == 50
    assert len(second.context["page"].object_list) == 11
    assert 'rel="next"' in first.content.decode()
