"""Who may call the API: personal tokens (valid, revoked, wrong), the session with CSRF,
anonymous callers; the tokens page and the ``api_token`` command."""

from __future__ import annotations

import hashlib
import io

import pytest
from apikit import ApiClient
from django.core.management import CommandError, call_command
from django.test import Client

from games.models import ApiToken
from games.services.api_tokens import api_token_create, api_token_revoke

pytestmark = pytest.mark.django_db


def test_it_accepts_a_valid_token(alice, rulesets):
    _row, raw = api_token_create(user=alice, name="bot")
    response = ApiClient(raw).get("/api/me")
    assert response.status_code == 200
    assert response.json() == {"username": "alice", "display_name": "Alice", "language": "en"}


def test_it_notes_when_a_token_was_used(alice):
    row, raw = api_token_create(user=alice, name="bot")
    assert row.last_used_at is None
    ApiClient(raw).get("/api/me")
    row.refresh_from_db()
    assert row.last_used_at is not None


def test_it_stores_only_the_tokens_hash(alice):
    row, raw = api_token_create(user=alice, name="bot")
    stored = ApiToken.objects.filter(pk=row.pk).values().get()
    assert raw not in {str(value) for value in stored.values()}
    assert row.token_hash == hashlib.sha256(raw.encode()).hexdigest()
    assert raw.startswith(row.prefix)


def test_it_refuses_a_revoked_token(alice):
    row, raw = api_token_create(user=alice, name="bot")
    assert api_token_revoke(user=alice, token_id=row.pk)
    response = ApiClient(raw).get("/api/me")
    assert response.status_code == 401
    assert "revoked" in response.json()["detail"]


@pytest.mark.parametrize(
    "header",
    [
        "Bearer napad_wrong",
        "Bearer ",
        "Basic YWxpY2U6cGFzcw==",
        "Token abc",
        "Bearer " + "x" * 5000,
    ],
)
def test_it_refuses_a_wrong_token(alice, header):
    api_token_create(user=alice, name="bot")
    response = Client().get("/api/me", headers={"Authorization": header})
    assert response.status_code == 401
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["detail"]


def test_it_refuses_the_token_of_an_inactive_member(alice):
    _row, raw = api_token_create(user=alice, name="bot")
    alice.is_active = False
    alice.save()
    assert ApiClient(raw).get("/api/me").status_code == 401


def test_a_wrong_token_does_not_fall_back_to_the_session(alice_client):
    response = alice_client.get("/api/me", headers={"Authorization": "Bearer napad_wrong"})
    assert response.status_code == 401


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/api/me"),
        ("get", "/api/tables"),
        ("get", "/api/rulesets"),
        ("post", "/api/tables"),
        ("get", "/api/games/1"),
        ("get", "/api/games/1/actions"),
        ("post", "/api/games/1/actions"),
        ("get", "/api/games/1/log"),
        ("post", "/api/tables/1/join"),
    ],
)
def test_it_refuses_anonymous_callers(db, method, path):
    response = getattr(Client(), method)(path, content_type="application/json")
    assert response.status_code == 401
    assert "Authorization: Bearer" in response.json()["detail"]


def test_an_anonymous_post_from_a_browser_is_told_to_log_in_not_that_csrf_failed(db):
    # A browser enforces nothing for the test client: CSRF is checked for real here, and an
    # anonymous caller learns what they lack (a login or a token), not a CSRF failure.
    response = Client(enforce_csrf_checks=True).post(
        "/api/tables", {"kind": "napad", "seats": 2}, content_type="application/json"
    )
    assert response.status_code == 401
    assert "Authorization: Bearer" in response.json()["detail"]


def test_it_accepts_the_session_for_reads(alice_client, rulesets):
    response = alice_client.get("/api/me")
    assert response.status_code == 200
    assert response.json()["username"] == "alice"


def _session_client_with_csrf(user) -> tuple[Client, str]:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    client.get("/accounts/api-tokens/")  # any page with a form sets the CSRF cookie
    return client, client.cookies["csrftoken"].value


def test_a_session_post_without_the_csrf_header_is_refused(alice, rulesets):
    client, _csrf = _session_client_with_csrf(alice)
    response = client.post(
        "/api/tables", {"kind": "napad", "seats": 2}, content_type="application/json"
    )
    assert response.status_code == 403
    assert "CSRF" in response.json()["detail"]


def test_a_session_post_with_the_csrf_header_works(alice, rulesets):
    client, csrf = _session_client_with_csrf(alice)
    response = client.post(
        "/api/tables",
        {"kind": "napad", "seats": 2},
        content_type="application/json",
        headers={"X-CSRFToken": csrf},
    )
    assert response.status_code == 201, response.content
    assert response.json()["created_by"] == "alice"


def test_a_token_post_needs_no_csrf(alice, rulesets):
    _row, raw = api_token_create(user=alice, name="bot")
    client = Client(enforce_csrf_checks=True)
    response = client.post(
        "/api/tables",
        {"kind": "napad", "seats": 2},
        content_type="application/json",
        headers={"Authorization": f"Bearer {raw}"},
    )
    assert response.status_code == 201, response.content


# -- the tokens page ---------------------------------------------------------------------------


def test_the_tokens_page_needs_a_login(db):
    response = Client().get("/accounts/api-tokens/")
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


def test_the_profile_page_links_to_the_tokens_page(alice_client):
    assert b"/accounts/api-tokens/" in alice_client.get("/accounts/profile/").content


def test_it_creates_a_token_and_shows_it_once(alice, alice_client):
    response = alice_client.post("/accounts/api-tokens/", {"name": "my bot"})
    assert response.status_code == 200
    row = ApiToken.objects.get(user=alice)
    assert row.name == "my bot"
    page = response.content.decode()
    raw = page.split('<code class="token-value">')[1].split("</code>")[0]
    assert raw.startswith(row.prefix)
    assert hashlib.sha256(raw.encode()).hexdigest() == row.token_hash
    assert ApiClient(raw).get("/api/me").json()["username"] == "alice"

    again = alice_client.get("/accounts/api-tokens/").content.decode()
    assert raw not in again
    assert row.prefix in again
    assert "my bot" in again


def test_it_shows_a_form_error_for_a_missing_name(alice, alice_client):
    response = alice_client.post("/accounts/api-tokens/", {"name": ""})
    assert response.status_code == 200
    assert "field--error" in response.content.decode()
    assert not ApiToken.objects.filter(user=alice).exists()


def test_it_revokes_a_token(alice, alice_client):
    row, raw = api_token_create(user=alice, name="old")
    response = alice_client.post(f"/accounts/api-tokens/{row.pk}/revoke")
    assert response.status_code == 302
    assert not ApiToken.objects.filter(pk=row.pk).exists()
    assert ApiClient(raw).get("/api/me").status_code == 401


def test_a_member_cannot_revoke_someone_elses_token(alice, bob_client):
    row, raw = api_token_create(user=alice, name="alice's")
    bob_client.post(f"/accounts/api-tokens/{row.pk}/revoke")
    assert ApiToken.objects.filter(pk=row.pk).exists()
    assert ApiClient(raw).get("/api/me").status_code == 200


def test_revoking_needs_a_post(alice, alice_client):
    row, _raw = api_token_create(user=alice, name="old")
    assert alice_client.get(f"/accounts/api-tokens/{row.pk}/revoke").status_code == 405
    assert ApiToken.objects.filter(pk=row.pk).exists()


# -- the command -------------------------------------------------------------------------------


def test_the_command_prints_a_working_token(alice):
    out = io.StringIO()
    call_command("api_token", "alice", "--name", "league script", stdout=out)
    raw = out.getvalue().strip()
    assert ApiToken.objects.get(user=alice).name == "league script"
    assert ApiClient(raw).get("/api/me").json()["username"] == "alice"


def test_the_command_refuses_an_unknown_user(db):
    with pytest.raises(CommandError, match="no user called"):
        call_command("api_token", "nobody", stdout=io.StringIO())
    assert not ApiToken.objects.exists()


def test_a_script_that_names_no_language_is_answered_in_its_members_language(
    alice, alice_api, napad_running
):
    from django.utils import translation

    alice.player.language = "pl"
    alice.player.save()
    game_id = napad_running["id"]
    stale = {"action": {"type": "pass"}, "expected_version": 999}
    english = "The game moved on since your page was drawn"
    with translation.override("pl"):
        polish = translation.gettext(
            "The game moved on since your page was drawn; here is the table as it is now."
        )
    assert english not in polish

    answer = alice_api.post(f"/api/games/{game_id}/actions", stale)
    assert 400 <= answer.status_code < 500
    assert answer.json()["detail"] == polish
    assert answer["Content-Language"] == "pl"

    # A script that asks for a language gets it.
    alice_api.headers["Accept-Language"] = "en"
    assert english in alice_api.post(f"/api/games/{game_id}/actions", stale).json()["detail"]
