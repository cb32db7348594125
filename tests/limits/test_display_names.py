"""Display names are unique and honest (issue 31, point 6): a name that looks like another
member's — by case, compatibility forms, whitespace or lookalike letters — is refused, and so
is any name holding control, bidi or invisible characters, at sign-up and on the profile; the
database holds the rule too, and names the site chooses itself step aside ("Alice 2")."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.urls import reverse

from games.models import Player
from tests.personakit import PASSWORD

pytestmark = pytest.mark.django_db

User = get_user_model()

LOOKALIKES_OF_ALICE = [
    "Ａlice",  # fullwidth A
    "alice",
    "ALICE",
    "  Al ice ",
    "Аlice",  # Cyrillic A
    "Alice\u200b",  # zero-width space
    "\u202eAlice",  # right-to-left override
]

INVISIBLE_OR_CONTROL = [
    "Zoe\u200b",  # zero-width space
    "Zo\u200de",  # zero-width joiner
    "\u202eZoe",  # right-to-left override
    "Zoe\u2066",  # left-to-right isolate
    "Zoe\u200f",  # right-to-left mark
    "Zoe\u061c",  # Arabic letter mark
    "Zo\u2060e",  # word joiner
    "\ufeffZoe",  # byte order mark
    "Zoe\ufe0f",  # variation selector
    "Zoe\U000e0041",  # tag character
    "Zo\u0007e",  # bell (a control character)
    "Zo\u00ade",  # soft hyphen
    "Zoe\ue000",  # private use
    "Zoe\u3164",  # Hangul filler
]
REFUSED_CHARACTERS = "A display name cannot contain invisible characters"
TAKEN = "Another member already goes by this name, or one that looks like it."


def _sign_up(client, display_name: str):
    return client.post(
        reverse("signup"),
        {
            "username": "zoe",
            "email": "zoe@example.org",
            "display_name": display_name,
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )


def _profile(name: str) -> dict:
    return {"display_name": name, "email": "bob@example.org", "time_zone": "UTC", "language": "en"}


@pytest.mark.parametrize("name", LOOKALIKES_OF_ALICE)
def test_sign_up_refuses_a_name_that_looks_like_a_members(client, alice, name):
    response = _sign_up(client, name)

    assert response.status_code == 200
    html = response.content.decode()
    assert TAKEN in html or REFUSED_CHARACTERS in html
    assert not User.objects.filter(username="zoe").exists()


@pytest.mark.parametrize("name", INVISIBLE_OR_CONTROL)
def test_sign_up_refuses_invisible_bidi_and_control_characters(client, name):
    response = _sign_up(client, name)

    assert response.status_code == 200
    assert REFUSED_CHARACTERS in response.content.decode()
    assert not User.objects.filter(username="zoe").exists()


@pytest.mark.parametrize("name", [*LOOKALIKES_OF_ALICE, *INVISIBLE_OR_CONTROL])
def test_the_profile_refuses_them_too_and_keeps_the_old_name(alice, bob, bob_client, name):
    response = bob_client.post(reverse("profile"), _profile(name))

    assert response.status_code == 200
    html = response.content.decode()
    assert TAKEN in html or REFUSED_CHARACTERS in html
    assert Player.objects.get(user=bob).display_name == "Bob"


def test_a_member_may_rewrite_their_own_name_and_take_a_free_one(alice, bob, bob_client):
    assert bob_client.post(reverse("profile"), _profile("BOB")).status_code == 302
    assert Player.objects.get(user=bob).display_name == "BOB"
    assert bob_client.post(reverse("profile"), _profile("  Łukasz   the  Bold ")).status_code == 302
    assert Player.objects.get(user=bob).display_name == "Łukasz the Bold"


def test_the_database_refuses_a_lookalike_whatever_path_saves_it(alice, bob):
    bob.player.display_name = "ＡＬＩＣＥ"
    with pytest.raises(IntegrityError), transaction.atomic():
        bob.player.save()


def test_an_account_made_outside_sign_up_gets_a_free_clean_name(alice):
    # createsuperuser, the admin's "add user": the Player comes from the post_save signal.
    user = User.objects.create_user(username="ALICE", password=PASSWORD)
    assert user.player.display_name == "ALICE 2"
    other = User.objects.create_user(
        username="carol", first_name="\u202eCarol\u200b", last_name="Smith", password=PASSWORD
    )
    assert other.player.display_name == "Carol Smith"


def test_the_demo_club_still_makes_its_members(db, settings, tmp_path):
    from games.services.demo import DEMO_MEMBERS, demo_club_ensure, demo_organiser_ensure

    settings.VAR_DIR = tmp_path
    assert demo_club_ensure()
    assert demo_organiser_ensure()
    names = set(Player.objects.values_list("display_name", flat=True))
    assert {name for _user, name, *_rest in DEMO_MEMBERS} | {"Olga (organiser)"} <= names


def test_a_name_taken_between_the_check_and_the_save_is_refused_not_a_500(
    client, alice, bob, bob_client, monkeypatch
):
    # As if Alice had signed up between the form's check and the save: only the database's
    # unique key sees it.
    monkeypatch.setattr(Player, "display_name_taken", lambda self: False)

    signup = _sign_up(client, "ALICE")
    profile = bob_client.post(reverse("profile"), _profile("alice"))

    for response in (signup, profile):
        assert response.status_code == 200
        assert TAKEN in response.content.decode()
    assert not User.objects.filter(username="zoe").exists()
    assert Player.objects.get(user=bob).display_name == "Bob"
