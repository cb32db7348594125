"""The profile's "Notifications on your phone": a member turns push on in a browser (its
script posts the browser's subscription), sees their devices and removes one. Bad input gets
a clear answer and changes nothing; nobody touches another member's devices."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from pushkit import BrowserKeys

from games.models import PushSubscription

IPHONE_SAFARI = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1"
)


def _subscribe(client: Client, body, **headers):
    data = body if isinstance(body, bytes | str) else json.dumps(body)
    return client.post(
        "/accounts/push/devices/", data, content_type="application/json", headers=headers
    )


def test_it_lists_the_device_a_member_turned_push_on_in(alice, alice_client, push_service):
    keys = BrowserKeys()
    endpoint = push_service.endpoint("alices-iphone")
    response = _subscribe(
        alice_client, keys.subscription(endpoint), **{"User-Agent": IPHONE_SAFARI}
    )
    assert response.status_code == 201
    assert response.json()["device"] == "Safari on iPhone"

    page = alice_client.get("/accounts/profile/").content.decode()
    assert "Notifications on your phone" in page
    assert "Safari on iPhone" in page
    assert "Push notifications are on for Safari on iPhone." in page
    # The endpoint is a capability: never in a page, only its fingerprint.
    assert endpoint not in page and "alices-iphone" not in page
    device = PushSubscription.objects.get()
    assert (device.player, device.endpoint) == (alice.player, endpoint)


def test_the_same_browser_subscribing_again_is_one_device(alice, alice_client, push_service):
    keys = BrowserKeys()
    subscription = keys.subscription(push_service.endpoint("phone"))
    assert _subscribe(alice_client, subscription).status_code == 201
    assert _subscribe(alice_client, subscription).status_code == 201
    assert PushSubscription.objects.count() == 1


def test_a_browser_shared_by_two_members_stays_with_the_first_until_they_turn_it_off(
    alice, alice_client, bob, bob_client, push_service
):
    subscription = BrowserKeys().subscription(push_service.endpoint("family-tablet"))
    assert _subscribe(alice_client, subscription).status_code == 201
    # bob, on the same tablet, with keys of his own: refused, and alice's device is untouched.
    taken = BrowserKeys().subscription(push_service.endpoint("family-tablet"))
    response = _subscribe(bob_client, taken)
    assert response.status_code == 409
    assert response.json()["error"] == (
        "Push notifications in this browser are on for another member. They must turn them "
        "off here (or remove this device in their profile) before you turn them on."
    )
    device = PushSubscription.objects.get()
    assert (device.player, device.p256dh) == (alice.player, subscription["keys"]["p256dh"])
    # alice turns push off on the tablet: now it is bob's to turn on.
    alice_client.post(
        "/accounts/push/devices/forget",
        json.dumps({"endpoint": subscription["endpoint"]}),
        content_type="application/json",
    )
    assert _subscribe(bob_client, taken).status_code == 201
    assert PushSubscription.objects.get().player == bob.player


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"not json", "cannot use"),
        (b"x" * 5000, "cannot use"),
        ([], "cannot use"),
        ({"endpoint": "https://10.0.0.7/push/1", "keys": {}}, "not one the club can use"),
        ({"endpoint": "http://fcm.googleapis.com/fcm/send/x", "keys": {}}, "not one the club"),
        ({"endpoint": "ftp://127.0.0.1:21/x", "keys": {}}, "not one the club can use"),
        ({"endpoint": "LOOPBACK", "keys": {"p256dh": "AAAA", "auth": "AAAA"}}, "cannot use"),
        ({"endpoint": "LOOPBACK", "keys": {"p256dh": "!!", "auth": "x"}}, "cannot use"),
        ({"endpoint": "LOOPBACK"}, "cannot use"),
        # 65 bytes that start like a key but are no point of the curve.
        ({"endpoint": "LOOPBACK", "keys": {"p256dh": "BA" + "A" * 85, "auth": "A" * 22}}, "use"),
    ],
)
def test_a_subscription_the_site_cannot_use_is_refused_and_nothing_is_stored(
    alice_client, push_service, body, message
):
    if isinstance(body, dict) and body.get("endpoint") == "LOOPBACK":
        body = {**body, "endpoint": push_service.endpoint("x")}
    response = _subscribe(alice_client, body)
    assert response.status_code == 400
    assert message in response.json()["error"]
    assert not PushSubscription.objects.exists()


def test_only_known_push_services_are_allowed_without_the_tests_loopback(alice_client):
    # The default list: the browsers' push services, and nothing on the operator's network.
    keys = BrowserKeys()
    for endpoint in ("http://127.0.0.1:9/push", "https://fcm.googleapis.evil.example/x"):
        response = _subscribe(alice_client, keys.subscription(endpoint))
        assert response.status_code == 400
    ok = _subscribe(alice_client, keys.subscription("https://fcm.googleapis.com/fcm/send/abc"))
    assert ok.status_code == 201


def test_a_member_removes_one_of_their_devices(alice, alice_client, push_service):
    _subscribe(alice_client, BrowserKeys().subscription(push_service.endpoint("old")))
    _subscribe(alice_client, BrowserKeys().subscription(push_service.endpoint("new")))
    old = PushSubscription.objects.get(endpoint=push_service.endpoint("old"))
    response = alice_client.post(f"/accounts/push/devices/{old.pk}/remove", follow=True)
    assert "The device is removed: it gets no more pushes." in response.content.decode()
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [
        push_service.endpoint("new")
    ]


def test_nobody_removes_another_members_device(alice_client, bob_client, push_service):
    _subscribe(alice_client, BrowserKeys().subscription(push_service.endpoint("alice")))
    device = PushSubscription.objects.get()
    response = bob_client.post(f"/accounts/push/devices/{device.pk}/remove", follow=True)
    assert "You have no such device." in response.content.decode()
    forget = bob_client.post(
        "/accounts/push/devices/forget",
        json.dumps({"endpoint": device.endpoint}),
        content_type="application/json",
    )
    assert forget.json() == {"removed": False}
    assert PushSubscription.objects.filter(pk=device.pk).exists()


def test_a_browser_turning_push_off_is_forgotten(alice_client, push_service):
    subscription = BrowserKeys().subscription(push_service.endpoint("phone"))
    _subscribe(alice_client, subscription)
    response = alice_client.post(
        "/accounts/push/devices/forget",
        json.dumps({"endpoint": subscription["endpoint"]}),
        content_type="application/json",
    )
    assert response.json() == {"removed": True}
    assert not PushSubscription.objects.exists()
    assert (
        alice_client.post(
            "/accounts/push/devices/forget", b"[]", content_type="application/json"
        ).status_code
        == 400
    )


def test_device_changes_need_a_member_and_a_csrf_token(alice, push_service):
    anonymous = Client()
    body = json.dumps(BrowserKeys().subscription(push_service.endpoint("x")))
    response = anonymous.post("/accounts/push/devices/", body, content_type="application/json")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(alice)
    response = strict.post("/accounts/push/devices/", body, content_type="application/json")
    assert response.status_code == 403
    assert strict.get("/accounts/push/devices/").status_code == 405
    assert not PushSubscription.objects.exists()


def test_the_profile_section_asks_for_nothing_by_itself(alice_client):
    """The permission prompt waits for the member's click: the button starts hidden (the
    script shows it), and the page has no inline script or style (strict CSP)."""
    page = alice_client.get("/accounts/profile/").content.decode()
    section = page.split('id="push-devices"')[1].split("</section>")[0]
    assert "data-push-on hidden" in section
    assert 'data-vapid-key="' in section
    assert "<script>" not in page and " onclick=" not in page and 'style="' not in section
    assert '<script src="/static/js/push.js" defer></script>' in page
