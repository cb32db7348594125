"""Push endpoints that are what they claim (issue 31): a subscription is refused unless the
sender's HTTP client (requests over urllib3) and the standard library read the same https
origin, on port 443, of a known push service — no backslash, user info, address, port or
percent-encoded host slips through — and it stays with the member who turned it on first.
Whatever goes wrong with one delivery is a failed delivery with its reason, never an error
out of the worker's task; an endpoint stored before the check is never requested.
"""

from __future__ import annotations

import json
import socket
from datetime import timedelta
from urllib.parse import urlsplit

import pytest
import requests
from django.conf import settings as django_settings
from django.core.exceptions import ImproperlyConfigured
from django.test import Client
from django.utils import timezone
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from pushkit import BrowserKeys
from urllib3.util import parse_url

from games.models import PushDelivery, PushMessage, PushSubscription
from games.services.push import sending
from games.services.push.devices import endpoint_normalise
from games.services.push.outbox import push_owe
from games.services.push.sending import pushes_due_send
from games.tasks import push_send_task
from napad_site.env import env_host_names

REFUSED = "This browser's push service is not one the club can use."


def _subscribe(client: Client, endpoint: str, keys: BrowserKeys | None = None):
    body = (keys or BrowserKeys()).subscription(endpoint)
    return client.post("/accounts/push/devices/", json.dumps(body), content_type="application/json")


@pytest.mark.parametrize(
    "endpoint",
    [
        # The two: the sender ends the host at the backslash (127.0.0.1:443), and an
        # empty user info that makes every push raise in the worker.
        "https://127.0.0.1\\.notify.windows.com/x",
        "https://10.0.0.7\\.web.push.apple.com/x",
        "https://:@fcm.googleapis.com/",
        "https://fcm.googleapis.com\\@evil.example/x",
        "https://evil.example\\@fcm.googleapis.com/x",
        # User info, in any form.
        "https://user:secret@fcm.googleapis.com/fcm/send/x",
        "https://user@updates.push.services.mozilla.com/wpush/v2/x",
        "https://fcm.googleapis.com:443@evil.example/x",
        "https://evil.example#@fcm.googleapis.com/x",
        # Addresses, however spelled.
        "https://127.0.0.1/push",
        "https://169.254.169.254/latest",
        "https://[::1]/push",
        "https://[::ffff:127.0.0.1]/push",
        "https://2130706433/push",
        "https://0x7f000001/push",
        "https://0177.0.0.1/push",
        # Another port, another scheme, no scheme.
        "https://fcm.googleapis.com:8443/fcm/send/x",
        "https://fcm.googleapis.com:0443/fcm/send/x",
        "https://fcm.googleapis.com:/fcm/send/x",
        "http://fcm.googleapis.com/fcm/send/x",
        "wss://fcm.googleapis.com/fcm/send/x",
        "//fcm.googleapis.com/fcm/send/x",
        # Names that end like a service's without being one of its subdomains.
        "https://fcm.googleapis.com.evil.example/x",
        "https://xnotify.windows.com/w/?token=x",
        "https://evilfcm.googleapis.com/fcm/send/x",
        "https://push.apple.com.evil.example/x",
        "https://fcm.googleapis.com./fcm/send/x",
        # A percent-encoded or odd host; odd characters anywhere; a fragment.
        "https://fcm.googleapis.com%2eevil.example/x",
        "https://fcm%2egoogleapis.com/fcm/send/x",
        "https://fcm.googleapis.com%2f@evil.example/x",
        "https://fcm.googleapis.com/fcm/send/x y",
        " https://fcm.googleapis.com/fcm/send/x",
        "https://fcm.googleapis.com/fcm/send/x\t",
        "https://fcm.googleapis.com/fcm/send/é",
        "https://fcm.googleapis.com/fcm/send/x#fragment",
        # A path the sender would request otherwise than given.
        "https://fcm.googleapis.com/fcm/../admin",
    ],
)
def test_an_endpoint_the_sender_would_read_otherwise_is_refused_and_nothing_is_stored(
    alice_client, endpoint
):
    response = _subscribe(alice_client, endpoint)
    assert response.status_code == 400
    assert response.json() == {"error": REFUSED}
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize(
    ("endpoint", "stored"),
    [
        # Chrome, Opera, Samsung Internet (FCM).
        (
            "https://fcm.googleapis.com/fcm/send/dKz3:APA91bG-x_Yz0",
            "https://fcm.googleapis.com/fcm/send/dKz3:APA91bG-x_Yz0",
        ),
        ("https://fcm.googleapis.com/wp/dKz3Yz0", "https://fcm.googleapis.com/wp/dKz3Yz0"),
        # Firefox (Mozilla's autopush).
        (
            "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABn-q_1",
            "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABn-q_1",
        ),
        # Edge on Windows (WNS): its token's escapes in lower case, requested in upper case.
        (
            "https://wns2-par02p.notify.windows.com/w/?token=BQYAAAB%2bQ7x%3d%3d",
            "https://wns2-par02p.notify.windows.com/w/?token=BQYAAAB%2BQ7x%3D%3D",
        ),
        # Safari on macOS and iOS.
        ("https://web.push.apple.com/QGu7_yM-1a", "https://web.push.apple.com/QGu7_yM-1a"),
        # The default port spelled out, a host in capitals: the same address.
        ("https://FCM.googleapis.com:443/fcm/send/x", "https://fcm.googleapis.com/fcm/send/x"),
    ],
)
def test_the_push_services_endpoints_are_accepted_and_stored_as_the_sender_requests_them(
    alice, alice_client, endpoint, stored
):
    response = _subscribe(alice_client, endpoint)
    assert response.status_code == 201, response.content
    device = PushSubscription.objects.get()
    assert (device.player, device.endpoint) == (alice.player, stored)


def test_another_members_endpoint_is_refused_however_it_is_spelled(alice, alice_client, bob_client):
    keys = BrowserKeys()
    assert _subscribe(alice_client, "https://fcm.googleapis.com/fcm/send/alices", keys).status_code
    fields = ("pk", "player", "endpoint", "p256dh", "auth")
    before = list(PushSubscription.objects.values_list(*fields))
    for spelling in (
        "https://fcm.googleapis.com/fcm/send/alices",
        "https://FCM.googleapis.com:443/fcm/send/alices",
    ):
        response = _subscribe(bob_client, spelling)
        assert response.status_code == 409
        assert "on for another member" in response.json()["error"]
        forget = bob_client.post(
            "/accounts/push/devices/forget",
            json.dumps({"endpoint": spelling}),
            content_type="application/json",
        )
        assert forget.json() == {"removed": False}
    after = list(PushSubscription.objects.values_list(*fields))
    assert after == before and after[0][1] == alice.player.pk


def test_the_refusal_speaks_the_members_language(alice_client, bob_client):
    _subscribe(alice_client, "https://web.push.apple.com/tablet")
    # The language cookie the site sets when a member who reads Polish logs in.
    bob_client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = "pl"
    response = _subscribe(bob_client, "https://web.push.apple.com/tablet")
    assert response.status_code == 409
    assert "another member" not in response.json()["error"]
    assert response.json()["error"].startswith("Powiadomienia push")


# -- the property: what is accepted is what the sender requests -------------------------------

_PIECES = st.sampled_from(
    [
        "https", "http", "HTTPS", "ftp", "https://", "://", ":", "//", "/", "\\", "@", ":@",
        "#", "?", "%2e", "%40", "%5c", "%2f", ".", "[", "]", "::1", "127.0.0.1", "0x7f000001",
        "2130706433", "fcm.googleapis.com", "FCM.GoogleApis.com", "notify.windows.com",
        "wns2-par02p.notify.windows.com", "web.push.apple.com", "push.apple.com",
        "updates.push.services.mozilla.com", "evil.example", ":443", ":8443", ":0443", ":80",
        " ", "\t", "%", "x", "wp", "a.b", "..", "\u0131", "\ufb00", "\u3002", "\uff0e",
    ]
)  # fmt: skip
_SOME = st.lists(_PIECES, max_size=4).map("".join)
_ENDPOINTS = st.one_of(
    # A service's name with something before it, after it and in the path.
    st.builds(
        lambda before, host, after, path: f"https://{before}{host}{after}/{path}",
        _SOME,
        st.sampled_from(["fcm.googleapis.com", "x.notify.windows.com", "web.push.apple.com"]),
        _SOME,
        _SOME,
    ),
    st.lists(_PIECES, max_size=14).map("".join),
    st.builds(
        lambda host, rest: "https://" + host + rest,
        st.lists(_PIECES, max_size=5).map("".join),
        st.lists(_PIECES, max_size=5).map("".join),
    ),
    st.text(max_size=60),
)


def _origins(url: str) -> set[tuple]:
    """``(scheme, host, port)`` as each parser on the sender's way reads ``url``."""
    split, sent = urlsplit(url), parse_url(url)
    prepared = requests.Request("POST", url).prepare().url
    again = urlsplit(prepared)
    return {
        (split.scheme, split.hostname, split.port or 443, split.username, split.password),
        (sent.scheme, sent.host, sent.port or 443, sent.auth, None),
        (again.scheme, again.hostname, again.port or 443, again.username, again.password),
    }


def _a_service(host: str) -> bool:
    return any(
        host == name or host.endswith("." + name) for name in django_settings.NAPAD_PUSH_SERVICES
    )


@hypothesis_settings(max_examples=1500)
@given(_ENDPOINTS)
def test_an_accepted_endpoint_is_one_https_origin_of_a_known_service_for_every_parser(endpoint):
    normalised = endpoint_normalise(endpoint)
    if normalised is None:
        return
    for url in (endpoint, normalised):
        [(scheme, host, port, user, password)] = _origins(url)
        assert (scheme.lower(), port, user, password) == ("https", 443, None, None)
        assert _a_service(host), host
    assert endpoint_normalise(normalised) == normalised


@pytest.mark.parametrize(
    "value", ["https://*.notify.windows.com", "fcm.googleapis.com:443", "10.0.0.7", "*.push.x"]
)
def test_the_push_services_setting_takes_host_names_only(monkeypatch, value):
    monkeypatch.setenv("NAPAD_PUSH_SERVICES", f"fcm.googleapis.com,{value}")
    with pytest.raises(ImproperlyConfigured, match="is not a host name"):
        env_host_names("NAPAD_PUSH_SERVICES", [])
    monkeypatch.setenv("NAPAD_PUSH_SERVICES", "FCM.googleapis.com, push.apple.com")
    assert env_host_names("NAPAD_PUSH_SERVICES", []) == ["fcm.googleapis.com", "push.apple.com"]


def test_the_property_sees_endpoints_that_are_accepted():
    # The strategy's pieces do build accepted endpoints (the property is not vacuous).
    for endpoint in ("https://fcm.googleapis.com/wp", "https://FCM.GoogleApis.com:443/x"):
        assert endpoint_normalise(endpoint) is not None


# -- deliveries: whatever goes wrong is a failed delivery, never an error out of the task ----


def _owe(player, key: str = "news") -> PushMessage:
    message = push_owe(player=player, kind="news", text="Club night on Friday.", args={}, key=key)
    assert message is not None
    return message


def _device(player, endpoint: str) -> PushSubscription:
    keys = BrowserKeys().subscription(endpoint)["keys"]
    return PushSubscription.objects.create(
        player=player, endpoint=endpoint, p256dh=keys["p256dh"], auth=keys["auth"], device="x"
    )


def _failures(message: PushMessage) -> dict[str, tuple[int | None, str]]:
    return {
        d.subscription.endpoint.rsplit("/", 1)[-1]: (d.status, d.failure)
        for d in PushDelivery.objects.filter(message=message).select_related("subscription")
    }


@pytest.fixture
def requested(monkeypatch):
    """The endpoints the sender hands to pywebpush (its only way out), in order."""
    seen: list[str] = []
    real = sending.webpush

    def recording(*, subscription_info, **kwargs):
        seen.append(subscription_info["endpoint"])
        return real(subscription_info=subscription_info, **kwargs)

    monkeypatch.setattr(sending, "webpush", recording)
    return seen


def test_a_vapid_error_is_a_failed_delivery_and_the_task_returns(
    alice, push_service, settings, requested
):
    _device(alice.player, push_service.endpoint("phone"))
    message = _owe(alice.player)
    # A subject py_vapid refuses: every signature raises VapidException.
    settings.NAPAD_VAPID_SUBJECT = "the club"

    assert push_send_task(message.pk) is None

    assert _failures(message) == {"phone": (None, "signing")}
    message.refresh_from_db()
    assert message.outcome == "failed"
    assert push_service.received == []


def test_an_endpoint_stored_before_the_check_is_never_requested(alice, push_service, requested):
    # Rows the old check let in: a backslash host and an empty user info.
    _device(alice.player, "https://127.0.0.1\\.notify.windows.com/backslash")
    _device(alice.player, "https://:@fcm.googleapis.com/userinfo")
    _device(alice.player, push_service.endpoint("phone"))
    message = _owe(alice.player)

    push_send_task(message.pk)

    # Only the good device was requested, and it got its push.
    assert requested == [push_service.endpoint("phone")]
    assert len(push_service.to("phone")) == 1
    assert _failures(message) == {
        "backslash": (None, "endpoint"),
        "userinfo": (None, "endpoint"),
        "phone": (201, ""),
    }
    message.refresh_from_db()
    assert message.outcome == "sent"
    # Still the member's devices (their profile lists them to remove), never requested again.
    assert PushSubscription.objects.filter(player=alice.player).count() == 3
    push_send_task(_owe(alice.player, "more").pk)
    assert requested == [push_service.endpoint("phone")] * 2


def test_an_unexpected_error_of_the_library_fails_that_device_only(
    alice, bob, push_service, monkeypatch
):
    real = sending.webpush

    def broken_for_one(*, subscription_info, **kwargs):
        if subscription_info["endpoint"].endswith("/broken"):
            raise RuntimeError("a bug in the library")
        return real(subscription_info=subscription_info, **kwargs)

    monkeypatch.setattr(sending, "webpush", broken_for_one)
    _device(alice.player, push_service.endpoint("broken"))
    _device(alice.player, push_service.endpoint("phone"))
    _device(bob.player, push_service.endpoint("bobs"))
    alices, bobs = _owe(alice.player), _owe(bob.player)

    # The sweep sends both pushes: alice's broken device does not stop the rest.
    outcomes = pushes_due_send(timezone.now())

    assert outcomes == {"sent": 2}
    assert _failures(alices) == {"broken": (None, "error"), "phone": (201, "")}
    assert _failures(bobs) == {"bobs": (201, "")}
    assert len(push_service.to("phone")) == len(push_service.to("bobs")) == 1


def test_a_push_service_that_cannot_be_reached_ends_as_a_failed_delivery(
    alice, push_service, settings
):
    # A port bound on loopback that nobody listens on: every connection is refused.
    with socket.socket() as dead:
        dead.bind(("127.0.0.1", 0))
        origin = f"http://127.0.0.1:{dead.getsockname()[1]}"
        settings.NAPAD_PUSH_EXTRA_ORIGINS = [push_service.origin, origin]
        _device(alice.player, f"{origin}/push/v1/away")
        _device(alice.player, push_service.endpoint("phone"))
        message = _owe(alice.player)

        push_send_task(message.pk)  # the first attempt: tried again later
        assert PushMessage.objects.get(pk=message.pk).outcome == ""
        later = timezone.now()
        for _attempt in range(2):
            later += timedelta(minutes=6)  # past the claim's lease
            pushes_due_send(later)

    message.refresh_from_db()
    assert (message.outcome, message.attempts) == ("sent", sending.MAX_ATTEMPTS)
    assert _failures(message) == {"away": (None, "unreachable"), "phone": (201, "")}
    assert len(push_service.to("phone")) == 1


def test_a_push_whose_every_device_fails_is_a_failed_push(alice, push_service, settings):
    _device(alice.player, push_service.endpoint("phone"))
    push_service.answer("phone", 400)
    message = _owe(alice.player)
    push_send_task(message.pk)
    assert _failures(message) == {"phone": (400, "refused")}
    assert PushMessage.objects.get(pk=message.pk).outcome == "failed"
