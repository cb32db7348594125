"""Accounts: sign-up, log-in/out, login throttling, password reset and change, profile edit."""

from __future__ import annotations

import re
import time

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse

from games.models import Player
from tests.personakit import PASSWORD

pytestmark = pytest.mark.django_db

User = get_user_model()
NEW_PASSWORD = "caboose-lantern-77"  # noqa: S105


def _sign_up(client: Client, **overrides) -> object:
    data = {
        "username": "dora",
        "email": "dora@example.org",
        "display_name": "Dora the Dynamiter",
        "password1": PASSWORD,
        "password2": PASSWORD,
        "time_zone": "Europe/Warsaw",
    }
    data.update(overrides)
    return client.post(reverse("signup"), data)


def _logged_in_user(client: Client):
    return client.get(reverse("home")).context["user"]


# --- Sign-up ---------------------------------------------------------------------------------


def test_it_signs_up_creates_the_player_and_logs_in(client):
    response = _sign_up(client)

    assert response.status_code == 302
    assert response["Location"] == reverse("profile")
    user = User.objects.get(username="dora")
    assert user.email == "dora@example.org"
    assert user.check_password(PASSWORD)
    assert user.player.display_name == "Dora the Dynamiter"
    assert user.player.time_zone == "Europe/Warsaw"
    assert user.player.language == "en"
    assert _logged_in_user(client) == user


def test_it_shows_sign_up_errors_next_to_their_fields(client, alice):
    response = _sign_up(client, username="alice", email="ALICE@example.org", password2="nope")

    assert response.status_code == 200
    form = response.context["form"]
    assert "username" in form.errors
    assert "email" in form.errors
    assert "password2" in form.errors
    html = response.content.decode()
    # Each error sits in the field's own group, tied to its input for screen readers.
    assert re.search(
        r'id="id_username_error".*?A user with that username already exists', html, re.S
    )
    assert 'aria-invalid="true"' in html
    assert User.objects.filter(username__iexact="alice").count() == 1
    assert not _logged_in_user(client).is_authenticated


def test_it_rejects_a_weak_password_at_sign_up(client):
    response = _sign_up(client, password1="12345678", password2="12345678")

    assert response.status_code == 200
    assert "password2" in response.context["form"].errors
    assert not User.objects.filter(username="dora").exists()


def test_it_falls_back_to_utc_for_an_unknown_browser_time_zone(client):
    _sign_up(client, time_zone="Mars/Olympus_Mons")

    assert User.objects.get(username="dora").player.time_zone == "UTC"


def test_it_signs_up_in_the_language_being_browsed(client):
    client.post(reverse("set_language"), {"language": "pl", "next": "/"})

    _sign_up(client)

    assert User.objects.get(username="dora").player.language == "pl"


def test_it_sends_a_logged_in_member_away_from_sign_up(alice_client):
    response = alice_client.get(reverse("signup"))

    assert response.status_code == 302


def test_it_gives_users_made_outside_sign_up_a_player(db):
    admin = User.objects.create_superuser("boss", "boss@example.org", PASSWORD)
    plain = User.objects.create_user("eve", first_name="Eve", last_name="Express")

    assert admin.player.display_name == "boss"
    assert Player.objects.get(user=plain).display_name == "Eve Express"


# --- Log in and out ----------------------------------------------------------------------------


def test_it_logs_in_and_out(client, alice):
    response = client.post(reverse("login"), {"username": "alice", "password": PASSWORD})

    assert response.status_code == 302
    assert response["Location"] == reverse("home")
    assert _logged_in_user(client) == alice

    response = client.post(reverse("logout"))

    assert response.status_code == 302
    assert not _logged_in_user(client).is_authenticated


def test_it_refuses_log_out_by_get(alice_client, alice):
    response = alice_client.get(reverse("logout"))

    assert response.status_code == 405
    assert _logged_in_user(alice_client) == alice


def test_it_says_when_the_password_is_wrong(client, alice):
    response = client.post(reverse("login"), {"username": "alice", "password": "wrong"})

    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()
    assert not _logged_in_user(client).is_authenticated


def test_it_switches_to_the_members_language_at_log_in(client, alice):
    alice.player.language = "pt-br"
    alice.player.save()

    response = client.post(reverse("login"), {"username": "alice", "password": PASSWORD})

    assert response.cookies["django_language"].value == "pt-br"


def test_it_follows_next_after_log_in(client, alice):
    response = client.post(
        reverse("login"),
        {"username": "alice", "password": PASSWORD, "next": reverse("member_list")},
    )

    assert response["Location"] == reverse("member_list")


# --- Throttling ---------------------------------------------------------------------------------


def test_it_throttles_repeated_failed_logins_for_a_username(client, alice, settings):
    settings.LOGIN_ATTEMPTS_LIMIT = 3
    for _ in range(3):
        client.post(reverse("login"), {"username": "alice", "password": "guess"})

    # Even the right password is refused now, from any address.
    other_client = Client(REMOTE_ADDR="10.9.8.7")
    response = other_client.post(reverse("login"), {"username": "ALICE", "password": PASSWORD})

    assert response.status_code == 200
    assert "Too many failed log-in attempts" in response.content.decode()
    assert not _logged_in_user(other_client).is_authenticated


def test_it_throttles_repeated_failed_logins_from_one_address(client, alice, bob, settings):
    settings.LOGIN_ATTEMPTS_LIMIT = 3
    for name in ("x1", "x2", "x3"):
        client.post(reverse("login"), {"username": name, "password": "guess"})

    response = client.post(reverse("login"), {"username": "bob", "password": PASSWORD})

    assert "Too many failed log-in attempts" in response.content.decode()
    assert not _logged_in_user(client).is_authenticated


def test_it_lets_a_member_in_below_the_limit_and_forgets_the_failures(client, alice, settings):
    settings.LOGIN_ATTEMPTS_LIMIT = 3
    for _ in range(2):
        client.post(reverse("login"), {"username": "alice", "password": "guess"})
    client.post(reverse("login"), {"username": "alice", "password": PASSWORD})
    client.post(reverse("logout"))

    # The success cleared alice's count: two more mistakes still leave her one try.
    other = Client(REMOTE_ADDR="10.1.1.1")
    for _ in range(2):
        other.post(reverse("login"), {"username": "alice", "password": "guess"})
    response = other.post(reverse("login"), {"username": "alice", "password": PASSWORD})

    assert response.status_code == 302


def test_it_lets_attempts_in_again_after_the_window(client, alice, settings):
    settings.LOGIN_ATTEMPTS_LIMIT = 2
    settings.LOGIN_ATTEMPTS_WINDOW = 60
    for _ in range(2):
        client.post(reverse("login"), {"username": "alice", "password": "guess"})
    refused = client.post(reverse("login"), {"username": "alice", "password": PASSWORD})
    assert "Too many failed log-in attempts" in refused.content.decode()

    with time_machine.travel(time.time() + 61, tick=False):
        response = client.post(reverse("login"), {"username": "alice", "password": PASSWORD})

    assert response.status_code == 302


# --- Password reset and change ------------------------------------------------------------------


def test_it_resets_a_forgotten_password_by_email(client, alice):
    response = client.post(reverse("password_reset"), {"email": "alice@example.org"})

    assert response.status_code == 302
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["alice@example.org"]
    assert "Napad Club" in message.subject
    link = re.search(r"https?://[^/\s]+(/accounts/reset/\S+)", message.body).group(1)

    response = client.get(link, follow=True)
    assert response.context["validlink"] is True
    set_password_url = response.redirect_chain[-1][0]
    response = client.post(
        set_password_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    )

    assert response.status_code == 302
    assert response["Location"] == reverse("password_reset_complete")
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)
    assert client.login(username="alice", password=NEW_PASSWORD)


def test_it_refuses_a_used_reset_link(client, alice):
    client.post(reverse("password_reset"), {"email": "alice@example.org"})
    link = re.search(r"https?://[^/\s]+(/accounts/reset/\S+)", mail.outbox[0].body).group(1)
    response = client.get(link, follow=True)
    client.post(
        response.redirect_chain[-1][0],
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )

    response = client.get(link, follow=True)

    assert response.context["validlink"] is False
    assert "This link no longer works" in response.content.decode()


def test_it_sends_no_email_for_an_unknown_address(client, alice):
    response = client.post(reverse("password_reset"), {"email": "nobody@example.org"})

    assert response.status_code == 302
    assert mail.outbox == []


def test_it_changes_the_password(alice_client, alice):
    response = alice_client.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )

    assert response.status_code == 302
    assert response["Location"] == reverse("password_change_done")
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)
    # Changing the password keeps this session logged in.
    assert _logged_in_user(alice_client) == alice


def test_it_refuses_a_password_change_with_the_wrong_old_password(alice_client, alice):
    response = alice_client.post(
        reverse("password_change"),
        {"old_password": "wrong", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )

    assert response.status_code == 200
    assert "old_password" in response.context["form"].errors
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)


# --- Profile -----------------------------------------------------------------------------------


def _profile_data(**overrides) -> dict:
    data = {
        "display_name": "Alice the Bold",
        "email": "alice@example.org",
        "time_zone": "America/Sao_Paulo",
        "language": "en",
        "remind_by_email": "on",
        "daily_digest": "on",
        "quiet_hours_start": "22:00",
        "quiet_hours_end": "07:30",
    }
    data.update(overrides)
    return data


def test_it_asks_to_log_in_before_the_profile(client):
    response = client.get(reverse("profile"))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_it_edits_the_profile(alice_client, alice):
    response = alice_client.post(reverse("profile"), _profile_data())

    assert response.status_code == 302
    player = Player.objects.get(user=alice)
    assert player.display_name == "Alice the Bold"
    assert player.time_zone == "America/Sao_Paulo"
    assert player.remind_by_email is True
    assert player.remind_on_site is False
    assert player.daily_digest is True
    assert player.quiet_hours_start.strftime("%H:%M") == "22:00"
    assert player.quiet_hours_end.strftime("%H:%M") == "07:30"
    assert "Your profile is saved." in alice_client.get(reverse("profile")).content.decode()


def test_it_rejects_an_unknown_time_zone(alice_client, alice):
    response = alice_client.post(reverse("profile"), _profile_data(time_zone="Mars/Olympus_Mons"))

    assert response.status_code == 200
    assert "time_zone" in response.context["form"].errors
    assert "is not a known time zone" in response.content.decode()
    assert Player.objects.get(user=alice).time_zone == "UTC"


def test_it_wants_both_ends_of_quiet_hours(alice_client, alice):
    response = alice_client.post(reverse("profile"), _profile_data(quiet_hours_end=""))

    assert response.status_code == 200
    assert "Give both ends of your quiet hours, or neither." in response.content.decode()


def test_it_refuses_an_email_another_member_uses(alice_client, bob):
    response = alice_client.post(reverse("profile"), _profile_data(email="BOB@example.org"))

    assert "email" in response.context["form"].errors


def test_it_changes_the_email_from_the_profile(alice_client, alice):
    alice_client.post(reverse("profile"), _profile_data(email="alice@club.example"))

    alice.refresh_from_db()
    assert alice.email == "alice@club.example"


def test_it_switches_the_site_language_when_the_profile_language_changes(alice_client, alice):
    response = alice_client.post(reverse("profile"), _profile_data(language="pl"), follow=True)

    assert Player.objects.get(user=alice).language == "pl"
    assert alice_client.cookies["django_language"].value == "pl"
    html = response.content.decode()
    assert '<html lang="pl"' in html
    assert "Twój profil" in html


def test_it_throttles_the_admin_log_in_too(client, alice, settings):
    alice.is_staff = True
    alice.save()
    settings.LOGIN_ATTEMPTS_LIMIT = 2
    for _ in range(2):
        client.post(reverse("admin:login"), {"username": "alice", "password": "guess"})

    response = client.post(reverse("admin:login"), {"username": "alice", "password": PASSWORD})

    assert response.status_code == 200
    assert "Too many failed log-in attempts" in response.content.decode()
    assert not _logged_in_user(client).is_authenticated


def test_a_forged_forwarded_for_does_not_defeat_the_address_throttle(client, alice, bob, settings):
    # Reached directly (no trusted proxy, the default): the header is the client's own words,
    # even on a site set up for HTTPS behind a proxy.
    settings.LOGIN_ATTEMPTS_LIMIT = 3
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    for number, name in enumerate(("x1", "x2", "x3")):
        client.post(
            reverse("login"),
            {"username": name, "password": "guess"},
            headers={"X-Forwarded-For": f"10.0.0.{number}"},
        )
    response = client.post(
        reverse("login"),
        {"username": "bob", "password": PASSWORD},
        headers={"X-Forwarded-For": "10.0.0.99"},
    )
    assert "Too many failed log-in attempts" in response.content.decode()


def test_behind_trusted_proxies_the_address_is_the_one_they_appended(alice, bob, settings):
    from games.forms.accounts import client_ip

    settings.NAPAD_TRUSTED_PROXIES = 1
    settings.LOGIN_ATTEMPTS_LIMIT = 3
    proxy = Client(REMOTE_ADDR="127.0.0.1")
    # One client guesses, rotating what it writes in the header; nginx appends its address.
    for number, name in enumerate(("x1", "x2", "x3")):
        proxy.post(
            reverse("login"),
            {"username": name, "password": "guess"},
            headers={"X-Forwarded-For": f"10.0.0.{number}, 203.0.113.7"},
        )
    refused = proxy.post(
        reverse("login"),
        {"username": "bob", "password": PASSWORD},
        headers={"X-Forwarded-For": "203.0.113.7"},
    )
    assert "Too many failed log-in attempts" in refused.content.decode()
    # Another member behind the same proxy is another address.
    other = Client(REMOTE_ADDR="127.0.0.1")
    welcome = other.post(
        reverse("login"),
        {"username": "bob", "password": PASSWORD},
        headers={"X-Forwarded-For": "198.51.100.4"},
    )
    assert welcome.status_code == 302

    class Request:
        META = {"REMOTE_ADDR": "10.1.1.1", "HTTP_X_FORWARDED_FOR": "6.6.6.6, 1.2.3.4, 10.0.0.2"}

    settings.NAPAD_TRUSTED_PROXIES = 2
    assert client_ip(Request) == "1.2.3.4"
    settings.NAPAD_TRUSTED_PROXIES = 0
    assert client_ip(Request) == "10.1.1.1"
