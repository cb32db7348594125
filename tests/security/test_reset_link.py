"""The password reset email's link goes to the site's configured address (``NAPAD_SITE_URL``:
its scheme, host and port), whatever ``Host`` header the request that asked for it carried —
someone asking for another member's reset must not choose where the link points."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client, override_settings

from tests.personakit import member

pytestmark = pytest.mark.django_db
LINK = re.compile(r"\S+/accounts/reset/\S+")


@pytest.fixture
def dora(db):
    return member("dora")


@pytest.mark.parametrize(
    "site_url", ["https://club.example.org", "http://127.0.0.1:8000", "https://localhost:8443/"]
)
def test_the_reset_link_is_the_sites_not_the_host_headers(dora, site_url):
    with override_settings(NAPAD_SITE_URL=site_url, ALLOWED_HOSTS=["localhost", "testserver"]):
        response = Client().post(
            "/accounts/password_reset/",
            {"email": "dora@example.org"},
            headers={"Host": "localhost:6666"},
        )

    assert response.status_code == 302
    assert len(mail.outbox) == 1
    link = LINK.search(mail.outbox[0].body).group(0)
    assert link.startswith(site_url.rstrip("/") + "/accounts/reset/")
    assert "6666" not in mail.outbox[0].body


@override_settings(NAPAD_SITE_URL="http://localhost:6666")
def test_the_link_still_resets_the_password(dora):
    client = Client()
    client.post("/accounts/password_reset/", {"email": "dora@example.org"})
    link = LINK.search(mail.outbox[0].body).group(0)
    assert link.startswith("http://localhost:6666/accounts/reset/")

    response = client.get(link.removeprefix("http://localhost:6666"), follow=True)

    assert response.context["validlink"] is True
