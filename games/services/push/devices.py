"""The devices a member turned push notifications on in: subscribe, list, remove.

A subscription is what the browser's ``PushManager.subscribe`` returns: the push service's
endpoint and the browser's two keys. The endpoint must belong to a known push service
(``NAPAD_PUSH_SERVICES``), so a forged subscription cannot make the site post anywhere else:
it is read with the parser the sender's HTTP client uses (urllib3's, through requests) as
well as the standard library's, refused unless both read the same https origin on port 443
of a known service (no user info, no backslash, no address, no percent-encoded host), and
stored as the sender will request it.

An endpoint belongs to the member who turned push on with it first: another member posting
it is refused (on a shared family tablet the first member turns push off there, or removes
the device from their profile, before the next one turns it on).
"""

from __future__ import annotations

import binascii
import ipaddress
import re
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import requests
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from urllib3.util import parse_url

from games.models import Player, PushSubscription
from napad_site.env import HOST_NAME
from napad_site.vapid import b64url_decode

MAX_ENDPOINT = 1000
MAX_DEVICES = 20
DEFAULT_PORTS = {"https": 443, "http": 80}
# RFC 3986's characters, without "#" (a push endpoint has no fragment): no space, no
# backslash, no control character, nothing outside ASCII.
_URL_CHARACTERS = re.compile(r"[A-Za-z0-9\-._~:/?\[\]@!$&'()*+,;=%]+\Z")
_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")

Origin = tuple[str, str, int]


class PushDeviceError(Exception):
    def __init__(self, message: str, *, status: int = 400):
        super().__init__(message)
        self.message = message
        self.status = status


def _origin(url: str) -> Origin | None:
    """``(scheme, host, port)`` of ``url`` if the standard library's parser (pywebpush names
    the VAPID audience with it; requests picks the connection with it) and urllib3's (requests
    prepares the URL with it; urllib3 connects with it) read the same, with no user info."""
    try:
        split = urlsplit(url)
        split_port = split.port
        sent = parse_url(url)
    except ValueError:  # urllib3's LocationParseError is one too
        return None
    scheme = split.scheme.lower()
    host = split.hostname or ""
    if "@" in split.netloc or sent.auth is not None or split.fragment or sent.fragment:
        return None
    if not host or (sent.scheme, sent.host, sent.port) != (scheme, host, split_port):
        return None
    port = split_port or DEFAULT_PORTS.get(scheme)
    if port is None:
        return None
    # Only the host and the port: "host:", "host:0443" and the like are not an endpoint.
    if split.netloc.lower() not in (host, f"{host}:{port}"):
        return None
    return scheme, host, port


def _service_allowed(origin: Origin) -> bool:
    if origin in {_origin(extra) for extra in settings.NAPAD_PUSH_EXTRA_ORIGINS}:
        return True
    scheme, host, port = origin
    # A DNS name whose last label is not a number: no IPv4 address in any spelling (dotted,
    # decimal, hex, octal), no IPv6 literal, no percent-encoding.
    if scheme != "https" or port != 443 or not HOST_NAME.match(host):
        return False
    try:
        ipaddress.ip_address(host)
    except ValueError:
        pass
    else:
        return False
    return any(
        host == service or host.endswith("." + service)
        for service in (name.lower().strip(".") for name in settings.NAPAD_PUSH_SERVICES)
    )


def _normalise_once(endpoint: str) -> str | None:
    if len(endpoint) > MAX_ENDPOINT or not _URL_CHARACTERS.match(endpoint):
        return None
    origin = _origin(endpoint)
    if origin is None or not _service_allowed(origin):
        return None
    try:
        prepared = requests.Request("POST", endpoint).prepare().url
    except (requests.RequestException, ValueError):
        return None
    # requests' prepared URL is what its adapter and urllib3's pool read: the same origin.
    if not prepared or _origin(prepared) != origin:
        return None
    scheme, host, port = origin
    sent = parse_url(prepared)
    netloc = host if port == DEFAULT_PORTS[scheme] else f"{host}:{port}"
    normalised = urlunsplit((scheme, netloc, sent.path or "/", sent.query or "", ""))
    # Beyond the origin's spelling and the case of a %-escape, the sender would request the
    # very path and query it was given (no dot segments, no escapes added or decoded): the
    # browser's page recognises its device by this form (static/js/push.js).
    split = urlsplit(endpoint)
    given = urlunsplit(
        (scheme, netloc, _escapes_upper(split.path) or "/", _escapes_upper(split.query), "")
    )
    return normalised if normalised == given else None


def _escapes_upper(text: str) -> str:
    return _ESCAPE.sub(lambda match: match.group(0).upper(), text)


def endpoint_normalise(endpoint: Any) -> str | None:
    """``endpoint`` as the sender requests it, if it is an address of one of the push services
    the site posts to; ``None`` if the site must not post to it."""
    if not isinstance(endpoint, str):
        return None
    normalised = _normalise_once(endpoint)
    # What is stored reads the same again: the sender checks it with this function too.
    if normalised is None or _normalise_once(normalised) != normalised:
        return None
    return normalised


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
    """``(endpoint, p256dh, auth)`` from a browser's ``PushSubscription.toJSON()``, the
    endpoint normalised."""
    if not isinstance(data, dict):
        raise PushDeviceError(_("The browser sent a subscription the site cannot use."))
    endpoint = data.get("endpoint")
    keys = data.get("keys")
    if not isinstance(endpoint, str) or not isinstance(keys, dict):
        raise PushDeviceError(_("The browser sent a subscription the site cannot use."))
    normalised = endpoint_normalise(endpoint)
    if normalised is None:
        raise PushDeviceError(_("This browser's push service is not one the club can use."))
    # p256dh: the browser's public key; auth: 16 random bytes.
    return normalised, _browser_key(keys.get("p256dh")), _key(keys.get("auth"), 16)


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


def _endpoint_forms(endpoint: str) -> list[str]:
    """The endpoint as stored now, and as a row stored before it was normalised may hold it."""
    normalised = endpoint_normalise(endpoint)
    return [endpoint] if normalised in (None, endpoint) else [normalised, endpoint]


def _taken() -> PushDeviceError:
    return PushDeviceError(
        _(
            "Push notifications in this browser are on for another member. They must turn "
            "them off here (or remove this device in their profile) before you turn them on."
        ),
        status=409,
    )


def push_device_subscribe(*, player: Player, data: Any, user_agent: str) -> PushSubscription:
    """Turn push on for the browser that sent ``data`` (its subscription), for ``player``.
    An endpoint another member turned push on with first is refused (``PushDeviceError``)."""
    endpoint, p256dh, auth = subscription_parse(data)
    raw = data["endpoint"]
    label = _PRINTABLE.sub("", device_label(user_agent or ""))[:80]
    try:
        with transaction.atomic():
            existing = (
                PushSubscription.objects.select_for_update()
                .filter(endpoint__in=[endpoint, raw])
                .order_by("pk")
                .first()
            )
            if existing is not None and existing.player_id != player.pk:
                raise _taken()
            if existing is None and player.push_subscriptions.count() >= MAX_DEVICES:
                raise PushDeviceError(
                    _("You have push turned on in too many browsers: remove one first.")
                )
            if existing is None:
                return PushSubscription.objects.create(
                    player=player, endpoint=endpoint, p256dh=p256dh, auth=auth, device=label
                )
            # The same member's browser again (new keys, perhaps): the stored form is renewed.
            existing.endpoint, existing.p256dh, existing.auth = endpoint, p256dh, auth
            existing.device = label
            existing.save(update_fields=["endpoint", "p256dh", "auth", "device"])
            return existing
    except IntegrityError:
        # Another request stored the same endpoint between the read and the write.
        winner = PushSubscription.objects.filter(endpoint=endpoint).first()
        if winner is None or winner.player_id != player.pk:
            raise _taken() from None
        return winner


def push_device_remove(*, player: Player, device_id: int | None = None, endpoint: str = "") -> bool:
    """Forget one of the member's devices (by id, or by its endpoint). False if not theirs."""
    devices = PushSubscription.objects.filter(player=player)
    if device_id is not None:
        devices = devices.filter(pk=device_id)
    elif endpoint:
        devices = devices.filter(endpoint__in=_endpoint_forms(endpoint))
    else:
        return False
    deleted, _rows = devices.delete()
    return bool(deleted)


def push_devices(player: Player) -> list[PushSubscription]:
    """The member's devices, newest first."""
    return list(PushSubscription.objects.filter(player=player))
