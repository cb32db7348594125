"""The layout's parts cached per language ({% cache %} in templates/base.html): every page
still marks its own menu entry, speaks the reader's language and presses the reader's
language button, whoever read a page before; nothing of one member's page reaches another's;
and a change of settings (static files, URLs) is rendered anew."""

from __future__ import annotations

import re

import pytest
from django.conf import settings as django_settings
from django.urls import NoReverseMatch, reverse

# The pages the menu links to (partials/nav.html), each marked when it is the one read.
MENU_PAGES = ("home", "lobby", "league_list", "member_list", "rules_index")
PRESSED = r'lang="([a-z-]+)"\s+class="language-switcher__option" aria-pressed="true">([^<]+)<'


def _page(client, url: str, language: str) -> str:
    client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def _nav(html: str) -> str:
    return html[html.index('<nav class="site-nav"') : html.index("</nav>")]


def _marked(html: str) -> list[str]:
    return re.findall(r'<a href="([^"]+)" aria-current="page">', _nav(html))


def _nav_urls() -> list[str]:
    urls = []
    for name in MENU_PAGES:
        try:
            urls.append(reverse(name))
        except NoReverseMatch:
            continue
    return urls


@pytest.mark.django_db
def test_each_page_marks_its_own_menu_entry_in_the_readers_language(alice_client):
    for language, tables in (("pl", "Stoły"), ("en", "Tables"), ("pl", "Stoły")):
        for url in _nav_urls():
            html = _page(alice_client, url, language)
            assert _marked(html) == [url], (language, url)
            assert f">{tables}</a>" in _nav(html), (language, url)
        # A page outside the menu marks none of it.
        assert _marked(_page(alice_client, reverse("profile"), language)) == []


@pytest.mark.django_db
def test_the_readers_language_button_is_the_pressed_one(alice_client, client):
    for reader in (alice_client, client, alice_client):
        for language, name in (
            ("en", "English"),
            ("pl", "Polski"),
            ("pt-br", "Português Brasileiro"),
        ):
            html = _page(reader, reverse("home"), language)
            assert f'<html lang="{language}"' in html
            pressed = re.findall(PRESSED, html)
            assert pressed == [(language, name)], (language, pressed)


@pytest.mark.django_db
def test_the_head_is_in_the_readers_language_with_the_sites_own_files(client):
    english = _page(client, reverse("home"), "en")
    polish = _page(client, reverse("home"), "pl")

    assert 'content="A club for train-robbery card games played turn by turn."' in english
    assert 'content="A club for train-robbery card games played turn by turn."' not in polish
    for html in (english, polish):
        assert '<link rel="stylesheet" href="/static/css/club.css">' in html
        assert f'<link rel="manifest" href="{reverse("web_manifest")}"' in html
        assert f'data-service-worker="{reverse("service_worker")}"' in html


@pytest.mark.django_db
def test_a_change_of_settings_is_rendered_anew(client, settings):
    assert '<link rel="stylesheet" href="/static/css/club.css">' in _page(
        client, reverse("home"), "en"
    )
    settings.STATIC_URL = "/assets/"

    html = _page(client, reverse("home"), "en")
    assert '<link rel="stylesheet" href="/assets/css/club.css">' in html
    assert "/static/" not in html


@pytest.mark.django_db
def test_nothing_of_one_members_page_reaches_anothers(alice_client, bob_client, alice, bob):
    # The cached parts: the head, the menu, the footer with the language buttons.
    for url in [*_nav_urls(), reverse("profile")]:
        _page(alice_client, url, "en")
        html = _page(bob_client, url, "en")
        chrome = html[: html.index("</head>")] + _nav(html) + html[html.index("<footer") :]
        assert alice.player.display_name not in chrome, url
        assert "alice" not in chrome, url
