"""A push service on loopback for the Web Push tests, and a browser's side of a subscription.

``LoopbackPushService`` is a real HTTP server on 127.0.0.1 that records every push it is sent
and answers with a status chosen per endpoint (201 by default), as FCM or Mozilla's autopush
would. ``BrowserKeys`` is what a browser makes when a member turns push on: a P-256 key pair
and an auth secret; it decrypts a pushed body the way the browser does — RFC 8291 (Message
Encryption for Web Push) over RFC 8188's aes128gcm content coding — written here from the
RFCs with ``cryptography``'s primitives, not with the library the site encrypts with.
``vapid_claims`` checks the VAPID header (RFC 8292) against the site's public key.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import struct
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Received:
    """One push the service was sent (header names in lower case)."""

    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class LoopbackPushService:
    """``with LoopbackPushService() as service:`` — ``service.endpoint(name)`` is an address to
    subscribe with; ``service.received`` lists what was pushed, in order."""

    statuses: dict[str, list[int]] = field(default_factory=dict)
    received: list[Received] = field(default_factory=list)

    def __enter__(self) -> LoopbackPushService:
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 (http.server's name)
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                name = self.path.rsplit("/", 1)[-1]
                with service._lock:
                    headers = {k.lower(): v for k, v in self.headers.items()}
                    service.received.append(Received(self.path, headers, body))
                    queue = service.statuses.get(name) or [201]
                    status = queue.pop(0) if len(queue) > 1 else queue[0]
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=30)

    @property
    def origin(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def endpoint(self, name: str) -> str:
        return f"{self.origin}/push/v1/{name}"

    def answer(self, name: str, *statuses: int) -> None:
        """The statuses the endpoint ``name`` answers with, one per push (the last repeats)."""
        with self._lock:
            self.statuses[name] = list(statuses)

    def to(self, name: str) -> list[Received]:
        return [r for r in self.received if r.path.endswith(f"/{name}")]


def _hmac(key: bytes, data: bytes) -> bytes:
    return hmac.new(key, data, hashlib.sha256).digest()


class BrowserKeys:
    """One browser's subscription keys (made fresh for each test)."""

    def __init__(self):
        self.private = ec.generate_private_key(ec.SECP256R1())
        self.public = self.private.public_key().public_bytes(
            Encoding.X962, PublicFormat.UncompressedPoint
        )
        self.auth = os.urandom(16)

    def subscription(self, endpoint: str) -> dict:
        """What ``PushSubscription.toJSON()`` gives a page."""
        return {
            "endpoint": endpoint,
            "expirationTime": None,
            "keys": {"p256dh": b64url(self.public), "auth": b64url(self.auth)},
        }

    def decrypt(self, body: bytes) -> bytes:
        """RFC 8291 §3.4 + RFC 8188 §2: the plaintext of an aes128gcm Web Push body."""
        salt, record_size, id_length = body[:16], struct.unpack(">I", body[16:20])[0], body[20]
        sender_public = body[21 : 21 + id_length]
        records = body[21 + id_length :]
        assert id_length == 65 and sender_public[0] == 4, "keyid must be the sender's P-256 key"
        sender = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), sender_public)
        shared = self.private.exchange(ec.ECDH(), sender)
        # RFC 8291: IKM = HKDF(auth secret, ECDH secret, "WebPush: info" || 0 || ua || as).
        key_info = b"WebPush: info\x00" + self.public + sender_public
        ikm = _hmac(_hmac(self.auth, shared), key_info + b"\x01")
        # RFC 8188: the content encryption key and nonce from the salt.
        prk = _hmac(salt, ikm)
        cek = _hmac(prk, b"Content-Encoding: aes128gcm\x00\x01")[:16]
        nonce = _hmac(prk, b"Content-Encoding: nonce\x00\x01")[:12]
        plaintext = b""
        for index, start in enumerate(range(0, len(records), record_size)):
            record = records[start : start + record_size]
            iv = (int.from_bytes(nonce, "big") ^ index).to_bytes(12, "big")
            padded = AESGCM(cek).decrypt(iv, record, None)
            content = padded.rstrip(b"\x00")
            delimiter = content[-1]
            last = start + record_size >= len(records)
            assert delimiter == (2 if last else 1), "bad padding delimiter"
            plaintext += content[:-1]
        return plaintext

    def payload(self, received: Received) -> dict:
        assert received.headers.get("content-encoding") == "aes128gcm"
        return json.loads(self.decrypt(received.body))


def vapid_claims(received: Received, public_key: str) -> dict:
    """The VAPID JWT's claims, after checking the header names ``public_key`` and the ES256
    signature verifies with it (RFC 8292 §2–3)."""
    scheme, _space, params = received.headers["authorization"].partition(" ")
    assert scheme == "vapid", received.headers["authorization"]
    values = dict(part.strip().split("=", 1) for part in params.split(","))
    assert values["k"] == public_key
    header, claims, signature = values["t"].split(".")
    raw = b64url_decode(signature)
    assert len(raw) == 64
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64url_decode(public_key))
    try:
        key.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise AssertionError("the VAPID signature does not verify") from None
    assert json.loads(b64url_decode(header)) == {"typ": "JWT", "alg": "ES256"}
    return json.loads(b64url_decode(claims))
