"""The devices a member turned push notifications on in: subscribe, list, remove.

A subscription is what the browser's ``PushManager.subscribe`` returns: the push service's
endpoint and the browser's two keys. The endpoint must belong to a known push service
(``NAPAD_PUSH_SERVICES``), so a forged subscription cannot make the site post anywhere else.
An endpoint belongs to whoever turned push on in that browser last (a shared family tablet).
"""

from __future__ import annotations

import binascii
import fnmatch
import re
from typing import Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from games.models import Player, PushSubscription
from napad_site.vapid import b64url_decode

MAX_ENDPOINT = 1000
MAX_DEVICES = 20


class PushDeviceError(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def endpoint_allowed(endpoint: str) -> bool:
    """Whether ``endpoint`` is an address of one of the push services the site posts to."""
    try:
        parts = urlsplit(endpoint)
        port = parts.port  # raises on a malformed port
    except ValueError:
        return False
    if parts.scheme not in ("https", "http") or parts.username or parts.password:
        return False
    if not parts.hostname or parts.fragment:
        return False
    origin = f"{parts.scheme}://{parts.hostname}" + (f":{port}" if port else "")
    return any(fnmatch.fnmatchcase(origin, pattern) for pattern in settings.NAPAD_PUSH_SERVICES)


def _key(value: Any, length: int, *, first: int | None = None) -> str:
    if not isinstance(value, str) or len(value) > 200:
        raise PushDeviceError(_("The browser sent a subscription the site cannot use."))
    try:
        raw = b64url_decode(value)
    except (binascii.Error, ValueError):
        raise PushDeviceError(_("The browser sent a subscription the site cannot use.")) from None
    if len(raw) != length or (first is not None and raw[0] != first):
        raise PushDeviceError(_("The browser sent a subscription the site cannot use."))
    return value.strip()


def _browser_key(value: Any) -> str:
    """The browser's P-256 public key: 65 bytes, uncompressed, and a point on the curve."""
    key = _key(value, 65, first=4)
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64url_decode(key))
    except ValueError:
        raise PushDeviceError(_("The browser sent a subscription the site cannot use.")) from None
    return key


def subscription_parse(data: Any) -> tuple[str, str, str]:
    """``(endpoint, p256dh, auth)`` from a browser's ``PushSubscription.toJSON()``."""
    if not isinstance(data, dict):
        raise PushDeviceError(_("The browser sent a subscription the site cannot use."))
    endpoint = data.get("endpoint")
    keys = data.get("keys")
    if not isinstance(endpoint, str) or not isinstance(keys, dict):
        raise PushDeviceError(_("The browser sent a subscription the site cannot use."))
    if len(endpoint) > MAX_ENDPOINT or not endpoint_allowed(endpoint):
        raise PushDeviceError(_("This browser's push service is not one the club can use."))
    # p256dh: the browser's public key; auth: 16 random bytes.
    return endpoint, _browser_key(keys.get("p256dh")), _key(keys.get("auth"), 16)


_BROWSERS = (
    ("Edg/", "Edge"),
    ("OPR/", "Opera"),
    ("SamsungBrowser/", "Samsung Internet"),
    ("Firefox/", "Firefox"),
    ("FxiOS/", "Firefox"),
    ("CriOS/", "Chrome"),
    ("Chromium/", "Chromium"),
    ("Chrome/", "Chrome"),
    ("Safari/", "Safari"),
)
_SYSTEMS = (
    ("Android", "Android"),
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("CrOS", "ChromeOS"),
    ("Windows", "Windows"),
    ("Mac OS X", "macOS"),
    ("Macintosh", "macOS"),
    ("Linux", "Linux"),
)
_PRINTABLE = re.compile(r"[^\w .()-]")


def device_label(user_agent: str) -> str:
    """A name a member recognises their device by ("Firefox on Android")."""
    browser = next((name for mark, name in _BROWSERS if mark in user_agent), None)
    system = next((name for mark, name in _SYSTEMS if mark in user_agent), None)
    if browser and system:
        return _("%(browser)s on %(system)s") % {"browser": browser, "system": system}
    if browser or system:
        return browser or system
    return _("A browser")


def push_devices_exist(player_id: int) -> bool:
    return PushSubscription.objects.filter(player_id=player_id).exists()


def push_device_subscribe(*, player: Player, data: Any, user_agent: str) -> PushSubscription:
    """Turn push on for the browser that sent ``data`` (its subscription), for ``player``."""
    endpoint, p256dh, auth = subscription_parse(data)
    label = _PRINTABLE.sub("", device_label(user_agent or ""))[:80]
    with transaction.atomic():
        existing = PushSubscription.objects.select_for_update().filter(endpoint=endpoint).first()
        if existing is None and player.push_subscriptions.count() >= MAX_DEVICES:
            raise PushDeviceError(
                _("You have push turned on in too many browsers: remove one first.")
            )
        if existing is None:
            device = PushSubscription.objects.create(
                player=player, endpoint=endpoint, p256dh=p256dh, auth=auth, device=label
            )
        else:
            existing.player, existing.p256dh, existing.auth = player, p256dh, auth
            existing.device = label
            existing.save(update_fields=["player", "p256dh", "auth", "device"])
            device = existing
    return device


def push_device_remove(*, player: Player, device_id: int | None = None, endpoint: str = "") -> bool:
    """Forget one of the member's devices (by id, or by its endpoint). False if not theirs."""
    devices = PushSubscription.objects.filter(player=player)
    if device_id is not None:
        devices = devices.filter(pk=device_id)
    elif endpoint:
        devices = devices.filter(endpoint=endpoint)
    else:
        return False
    deleted, _rows = devices.delete()
    return bool(deleted)


def push_devices(player: Player) -> list[PushSubscription]:
    """The member's devices, newest first."""
    return list(PushSubscription.objects.filter(player=player))
