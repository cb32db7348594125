"""Languages: the switcher, the translated pages, and the committed translation catalogues."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

pytestmark = pytest.mark.django_db

LOCALE_DIR = Path(settings.BASE_DIR) / "games" / "locale"


def test_it_offers_every_language_in_the_switcher(client):
    html = client.get(reverse("home")).content.decode()

    assert f'action="{reverse("set_language")}"' in html
    for code, name in (("en", "English"), ("pl", "Polski"), ("pt-br", "Português Brasileiro")):
        assert f'name="language" value="{code}"' in html
        assert name in html


def test_it_switches_a_visitor_to_polish(client):
    response = client.post(reverse("set_language"), {"language": "pl", "next": "/"}, follow=True)

    html = response.content.decode()
    assert '<html lang="pl"' in html
    assert "Dołącz do klubu" in html
    assert "Zaloguj się" in html
    assert "Join the club" not in html


def test_it_switches_a_visitor_to_portuguese(client):
    client.post(reverse("set_language"), {"language": "pt-br", "next": "/"})

    html = client.get(reverse("login")).content.decode()
    assert '<html lang="pt-br"' in html
    assert "Entrar" in html
    assert "Esqueceu sua senha?" in html


def test_it_follows_the_browsers_language(client):
    html = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="pl-PL,pl;q=0.9").content.decode()

    assert '<html lang="pl"' in html


def test_it_returns_to_the_page_the_switch_was_made_on(alice_client):
    response = alice_client.post(
        reverse("set_language"), {"language": "pt-br", "next": reverse("member_list")}
    )

    assert response.status_code == 302
    assert response["Location"] == reverse("member_list")


def test_it_translates_form_errors_and_messages(client, alice, settings):
    settings.LOGIN_ATTEMPTS_LIMIT = 1
    client.post(reverse("set_language"), {"language": "pl", "next": "/"})
    client.post(reverse("login"), {"username": "alice", "password": "guess"})

    html = client.post(reverse("login"), {"username": "alice", "password": "guess"}).content
    assert "Zbyt wiele nieudanych prób logowania" in html.decode()


def test_it_sends_the_password_reset_email_in_the_pages_language(client, alice, mailoutbox):
    client.post(reverse("set_language"), {"language": "pt-br", "next": "/"})

    client.post(reverse("password_reset"), {"email": "alice@example.org"})

    assert mailoutbox[0].subject == "Redefinir a senha do Clube Napad"


@pytest.mark.parametrize("language", ["pl", "pt-br"])
def test_it_ships_compiled_catalogues_with_real_translations(language):
    assert (LOCALE_DIR / translation.to_locale(language) / "LC_MESSAGES" / "django.mo").is_file()
    with translation.override(language):
        assert translation.gettext("Skip to main content") != "Skip to main content"
        assert translation.gettext("Your profile") != "Your profile"


def test_it_keeps_a_members_language_choice_in_the_profile(alice_client, alice):
    alice_client.post(reverse("set_language"), {"language": "pt-br", "next": "/"})

    alice.player.refresh_from_db()
    assert alice.player.language == "pt-br"


def test_a_switch_to_the_old_portuguese_code_is_kept_as_brazilian(alice_client, alice):
    # A page kept from before the language code became "pt-br" still offers "pt".
    alice_client.post(reverse("set_language"), {"language": "pt", "next": "/"})

    alice.player.refresh_from_db()
    assert alice.player.language == "pt-br"
    html = alice_client.get(reverse("profile")).content.decode()
    assert '<html lang="pt-br"' in html
    assert "Seu perfil" in html


def test_it_ignores_an_unknown_language(alice_client, alice):
    alice_client.post(reverse("set_language"), {"language": "xx", "next": "/"})

    alice.player.refresh_from_db()
    assert alice.player.language == "en"
