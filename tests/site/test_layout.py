"""The base layout and the error pages, rendered as in production (DEBUG off, hashed statics)."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from django.db import OperationalError
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.urls import NoReverseMatch, reverse
from django.views import defaults

ANONYMOUS_PAGES = ["home", "login", "signup", "password_reset"]
MEMBER_PAGES = ["home", "profile", "member_list", "password_change"]


@pytest.fixture
def collected_static(settings, tmp_path):
    """Production's static set-up: collectstatic into a folder, hashed names from its manifest."""
    settings.STATIC_ROOT = tmp_path / "static"
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"},
    }
    call_command(
        "collectstatic", interactive=False, verbosity=0, ignore_patterns=["admin", "ninja"]
    )
    return settings.STATIC_ROOT


@pytest.mark.django_db
def test_it_renders_every_page_with_debug_off_and_hashed_static_files(
    settings, collected_static, client, alice_client
):
    settings.DEBUG = False
    for name in ANONYMOUS_PAGES:
        response = client.get(reverse(name))
        assert response.status_code == 200, name
    for name in MEMBER_PAGES:
        response = alice_client.get(reverse(name))
        assert response.status_code == 200, name
    response = alice_client.get(reverse("member_detail", args=["alice"]))
    assert response.status_code == 200

    html = client.get(reverse("home")).content.decode()
    assets = re.findall(r'(?:href|src)="(/static/[^"]+)"', html)
    # Favicon, style sheet, htmx and its extension, forms.js, the home-screen icon, the service
    # worker's registration (games/views/pwa.py).
    assert len(assets) == 7
    for asset in assets:
        # e.g. /static/css/club.0123abcd4567.css, and the file is really there.
        assert re.search(r"\.[0-9a-f]{12}\.(css|js|svg|png)$", asset), asset
        assert (collected_static / asset.removeprefix("/static/")).is_file()


@pytest.mark.django_db
def test_it_serves_htmx_and_its_websocket_extension_from_the_site(client):
    html = client.get(reverse("home")).content.decode()

    assert '<script src="/static/vendor/htmx/htmx.min.js" defer></script>' in html
    assert '<script src="/static/vendor/htmx/ext-ws.min.js" defer></script>' in html
    assert "https://" not in html
    assert "http://" not in html


@pytest.mark.django_db
def test_it_gives_every_page_a_skip_link_landmarks_and_a_live_region(alice_client):
    html = alice_client.get(reverse("member_list")).content.decode()

    assert '<a class="skip-link" href="#main">' in html
    assert '<main id="main"' in html
    assert "<header" in html and "<footer" in html
    assert '<nav class="site-nav" aria-label="Main">' in html
    assert 'id="live-region"' in html and 'aria-live="polite"' in html
    assert 'aria-current="page"' in html


@pytest.mark.django_db
def test_it_sends_the_csrf_token_with_every_htmx_request(alice_client):
    response = alice_client.get(reverse("home"))

    token = response.context["csrf_token"]
    assert f'<body hx-headers=\'{{"X-CSRFToken": "{token}"}}\'' in response.content.decode()


@pytest.mark.django_db
def test_it_links_only_the_sections_that_exist(alice_client):
    html = alice_client.get(reverse("home")).content.decode()
    nav = html[html.index('<nav class="site-nav"') : html.index("</nav>")]

    assert f'href="{reverse("member_list")}"' in nav
    for name in ("lobby", "league_list", "rules_index"):
        try:
            url = reverse(name)
        except NoReverseMatch:
            continue
        assert f'href="{url}"' in nav


@pytest.mark.django_db
def test_it_logs_out_with_a_post_form(alice_client):
    html = alice_client.get(reverse("home")).content.decode()

    logout_form = f'<form class="inline-form" method="post" action="{reverse("logout")}">'
    assert logout_form in html


@pytest.mark.django_db
def test_it_shows_messages_once(alice_client):
    data = {"display_name": "Alice", "email": "alice@example.org", "time_zone": "UTC"}

    response = alice_client.post(reverse("profile"), {**data, "language": "en"}, follow=True)

    html = response.content.decode()
    assert '<ul class="messages" role="status">' in html
    assert "Your profile is saved." in html
    assert "Your profile is saved." not in alice_client.get(reverse("home")).content.decode()


@pytest.mark.django_db
def test_it_answers_an_unknown_address_with_the_404_page(client, settings):
    settings.DEBUG = False

    response = client.get("/no/such/page/")

    assert response.status_code == 404
    assert "This train has left the station" in response.content.decode()


def test_it_renders_the_500_page_without_the_database():
    # No django_db mark: any query here would fail the test.
    response = defaults.server_error(RequestFactory().get("/"))

    assert response.status_code == 500
    assert "Something went wrong" in response.content.decode()


def test_it_renders_the_403_page_without_the_database():
    response = defaults.permission_denied(RequestFactory().get("/"), PermissionError())

    assert response.status_code == 403
    assert "You can’t go in there" in response.content.decode()


def test_it_renders_the_503_page_with_its_message():
    html = render_to_string("503.html", {"message": "The database is taking a nap."})

    assert "The database is taking a nap." in html
    assert "Temporarily unavailable" in html


@pytest.mark.django_db
def test_it_answers_503_with_the_page_when_the_database_is_away(alice_client, monkeypatch):
    from games.views import members

    def unavailable(*args, **kwargs):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(members.Paginator, "get_page", unavailable)

    response = alice_client.get(reverse("member_list"))

    assert response.status_code == 503
    assert "database is not answering" in response.content.decode()
