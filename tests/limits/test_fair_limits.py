"""Fair limits (issue 31, point 6 and the throttle half of point 5): a member past a limit gets
429 with a message in their language, and nothing is changed — the table is not created nor
listed, the chat line not stored, the reset email not sent, the API call not made.

The limits are made small with settings; a window that must pass is passed by time-machine.
"""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.core.cache import caches
from django.test import Client
from django.urls import reverse

from games.models import ChatMessage, Game
from games.services.api_tokens import api_token_create
from tests.gamekit import default_ruleset, started_game

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def _table_form() -> dict:
    return {"ruleset": default_ruleset().pk, "seats": 2, "turn_time_limit": "72h"}


def _running_game(alice, bob) -> Game:
    return started_game(alice, bob, limit=timedelta(hours=72))


def _lobby_table_ids(client: Client) -> set[int]:
    html = client.get(reverse("lobby")).content.decode()
    return {game.pk for game in Game.objects.all() if f"/games/{game.pk}/" in html}


# --- Tables -------------------------------------------------------------------------------------


def test_a_table_past_the_rate_is_not_created_nor_listed(
    alice, bob, alice_client, bob_client, settings
):
    settings.NAPAD_LIMIT_OPEN_TABLES = "3/h"
    for _ in range(3):
        assert alice_client.post(reverse("game_create"), _table_form()).status_code == 302
    listed = _lobby_table_ids(bob_client)

    refused = alice_client.post(reverse("game_create"), _table_form())

    assert refused.status_code == 429
    html = refused.content.decode()
    assert "You have opened a lot of tables in a short time." in html
    assert "Please try again in" in html
    assert int(refused["Retry-After"]) > 0
    assert Game.objects.filter(created_by=alice).count() == 3
    assert _lobby_table_ids(bob_client) == listed and len(listed) == 3


def test_the_rate_lets_tables_in_again_once_its_window_has_passed(alice, alice_client, settings):
    settings.NAPAD_LIMIT_OPEN_TABLES = "1/h"
    assert alice_client.post(reverse("game_create"), _table_form()).status_code == 302
    assert alice_client.post(reverse("game_create"), _table_form()).status_code == 429

    with time_machine.travel(time.time() + 3601, tick=False):
        assert alice_client.post(reverse("game_create"), _table_form()).status_code == 302

    assert Game.objects.filter(created_by=alice).count() == 2


def test_a_member_may_have_only_so_many_tables_waiting_at_once(alice, alice_client, settings):
    settings.NAPAD_LIMIT_OPEN_TABLES_AT_ONCE = 2
    for _ in range(2):
        assert alice_client.post(reverse("game_create"), _table_form()).status_code == 302

    refused = alice_client.post(reverse("game_create"), _table_form())

    assert refused.status_code == 429
    assert "You already have 2 tables waiting for players." in refused.content.decode()
    assert Game.objects.filter(created_by=alice).count() == 2
    # Cancelling one makes room again.
    waiting = Game.objects.filter(created_by=alice).first()
    alice_client.post(reverse("game_cancel", args=[waiting.pk]))
    assert alice_client.post(reverse("game_create"), _table_form()).status_code == 302


def test_the_api_refuses_a_table_past_the_limit_as_json(alice, settings):
    settings.NAPAD_LIMIT_OPEN_TABLES_AT_ONCE = 1
    _token, raw = api_token_create(user=alice, name="script")
    api = Client(headers={"Authorization": f"Bearer {raw}"})
    body = {"ruleset_id": default_ruleset().pk, "seats": 2}
    assert api.post("/api/tables", body, content_type="application/json").status_code == 201

    refused = api.post("/api/tables", body, content_type="application/json")

    assert refused.status_code == 429
    assert refused.json()["detail"].startswith("You already have 1 table waiting for players.")
    assert Game.objects.filter(created_by=alice).count() == 1


def test_practice_tables_past_the_rate_are_not_dealt(alice, alice_client, settings):
    settings.NAPAD_LIMIT_PRACTICE = "1/h"
    default_ruleset()
    assert alice_client.post(reverse("practice_start"), {"table": "napad"}).status_code == 302

    refused = alice_client.post(reverse("practice_start"), {"table": "colt"})

    assert refused.status_code == 429
    assert "You have started a lot of practice games in a short time." in refused.content.decode()
    assert Game.objects.filter(practice=True).count() == 1


# --- Chat ---------------------------------------------------------------------------------------


def test_a_chat_line_past_the_rate_is_not_stored(alice, bob, alice_client, bob_client, settings):
    settings.NAPAD_LIMIT_CHAT = "2/m"
    game = _running_game(alice, bob)
    url = reverse("chat_post", args=[game.pk])
    for number in range(2):
        assert alice_client.post(url, {"text": f"line {number}"}, headers=HTMX).status_code == 200

    refused = alice_client.post(url, {"text": "one too many"}, headers=HTMX)

    assert refused.status_code == 429
    html = refused.content.decode()
    # The chat fragment htmx swaps in: the lines so far and, as its error, the message.
    assert 'id="chat-log"' in html and "line 1" in html
    assert "chat__error" in html
    assert "You are writing faster than the table can read; your message was not sent." in html
    assert "one too many" not in html
    assert list(ChatMessage.objects.values_list("text", flat=True).order_by("pk")) == [
        "line 0",
        "line 1",
    ]
    # Per member: Bob still talks.
    assert bob_client.post(url, {"text": "hello"}, headers=HTMX).status_code == 200
    # Without htmx the whole page says it, with a way back to the table.
    page = alice_client.post(url, {"text": "plain post"})
    assert page.status_code == 429
    assert f'href="/games/{game.pk}/"' in page.content.decode()
    assert not ChatMessage.objects.filter(text="plain post").exists()


@pytest.mark.parametrize(
    ("language", "words"),
    [("pl", "Piszesz szybciej"), ("pt-br", "Você está escrevendo mais rápido")],
)
def test_the_chat_limit_speaks_the_members_language(
    alice, bob, alice_client, settings, language, words
):
    settings.NAPAD_LIMIT_CHAT = "1/m"
    game = _running_game(alice, bob)
    alice_client.post(reverse("set_language"), {"language": language, "next": "/"})
    url = reverse("chat_post", args=[game.pk])
    alice_client.post(url, {"text": "first"}, headers=HTMX)

    refused = alice_client.post(url, {"text": "second"}, headers=HTMX)

    assert refused.status_code == 429
    assert words in refused.content.decode()


# --- API tokens ---------------------------------------------------------------------------------


def test_an_api_token_past_its_rate_gets_429_json(alice, settings):
    settings.NAPAD_LIMIT_API = "3/m"
    _token, raw = api_token_create(user=alice, name="script")
    _other, other_raw = api_token_create(user=alice, name="other script")
    api = Client(headers={"Authorization": f"Bearer {raw}"})
    for _ in range(3):
        assert api.get("/api/me").status_code == 200

    refused = api.get("/api/me")

    assert refused.status_code == 429
    assert refused["Content-Type"].startswith("application/json")
    assert refused.json()["detail"].startswith(
        "This API token has made too many calls in a short time."
    )
    assert int(refused["Retry-After"]) > 0
    # A call refused does nothing: no table is opened.
    table = api.post(
        "/api/tables",
        {"ruleset_id": default_ruleset().pk, "seats": 2},
        content_type="application/json",
    )
    assert table.status_code == 429
    assert not Game.objects.exists()
    # Counted per token.
    other = Client(headers={"Authorization": f"Bearer {other_raw}"})
    assert other.get("/api/me").status_code == 200


# --- Password resets ----------------------------------------------------------------------------


def test_password_resets_for_one_address_stop_sending_mail(alice, settings):
    settings.NAPAD_LIMIT_PASSWORD_RESET_ADDRESS = "2/h"
    for number in range(2):
        response = Client(REMOTE_ADDR=f"10.0.0.{number}").post(
            reverse("password_reset"), {"email": "alice@example.org"}
        )
        assert response.status_code == 302
    assert len(mail.outbox) == 2

    # From yet another client, and written differently: the same address.
    refused = Client(REMOTE_ADDR="10.0.0.9").post(
        reverse("password_reset"), {"email": "ALICE@example.org"}
    )

    assert refused.status_code == 429
    assert "no email was sent this time" in refused.content.decode()
    assert len(mail.outbox) == 2


def test_password_resets_from_one_client_stop_sending_mail(alice, bob, charlie, settings):
    settings.NAPAD_LIMIT_PASSWORD_RESET_CLIENT = "2/h"
    client = Client(REMOTE_ADDR="203.0.113.5")
    for name in ("alice", "bob"):
        assert (
            client.post(reverse("password_reset"), {"email": f"{name}@example.org"}).status_code
            == 302
        )

    refused = client.post(reverse("password_reset"), {"email": "charlie@example.org"})

    assert refused.status_code == 429
    assert "no email was sent this time" in refused.content.decode()
    assert [message.to for message in mail.outbox] == [["alice@example.org"], ["bob@example.org"]]
    # Another client may still ask for Charlie's.
    other = Client(REMOTE_ADDR="198.51.100.7")
    assert (
        other.post(reverse("password_reset"), {"email": "charlie@example.org"}).status_code == 302
    )
    assert len(mail.outbox) == 3


# --- The cache away -----------------------------------------------------------------------------


def test_with_the_cache_away_the_limits_still_count_and_nobody_gets_a_500(
    alice, bob, alice_client, settings
):
    game = _running_game(alice, bob)
    settings.NAPAD_LIMIT_CHAT = "2/m"
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:9/0",
            "OPTIONS": {"socket_connect_timeout": 1},
        },
        "limits": settings.LIMITS_CACHE,
    }
    caches["limits"].fallback.clear()
    url = reverse("chat_post", args=[game.pk])
    try:
        answers = [
            alice_client.post(url, {"text": f"line {n}"}, headers=HTMX).status_code
            for n in range(3)
        ]
    finally:
        caches["limits"].fallback.clear()

    assert answers == [200, 200, 429]
    assert ChatMessage.objects.count() == 2


# --- The registry -------------------------------------------------------------------------------


@pytest.mark.parametrize("language", ["pl", "pt-br"])
def test_every_limit_has_a_rate_and_a_translated_message(language):
    from django.utils import translation

    from games.limits import LIMITS

    for limit in LIMITS:
        count, seconds = django_ratelimit_rate(limit.rate())
        assert count >= 1 and seconds >= 1, limit.group
        english = str(limit.message)
        with translation.override(language):
            assert str(limit.message) not in ("", english), (limit.group, language)


def django_ratelimit_rate(rate) -> tuple[int, int]:
    """A rate as django-ratelimit reads it: (count, seconds)."""
    if isinstance(rate, tuple):
        return rate
    count, period = rate.split("/")
    multiple, unit = period[:-1] or "1", period[-1]
    return int(count), int(multiple) * {"s": 1, "m": 60, "h": 3600, "d": 86400}[unit]
