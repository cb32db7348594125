"""The site's VAPID key pair for Web Push (RFC 8292): which server may push to our members.

Both keys are base64url without padding, the form browsers and push tools use: the private
key is the raw 32-byte P-256 scalar, the public key the 65-byte uncompressed point that a
browser is given as ``applicationServerKey`` when a member turns push on.

``NAPAD_VAPID_PRIVATE_KEY`` and ``NAPAD_VAPID_PUBLIC_KEY`` set the pair (every web process and
worker of a scaled club must share it: a subscription is bound to the public key it was made
with). Without them a pair is generated once into the var folder, like the secret key. A bad
or mismatched pair stops the site at start with a message naming the variable.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
import tempfile
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.core.exceptions import ImproperlyConfigured

PRIVATE_VARIABLE = "NAPAD_VAPID_PRIVATE_KEY"
PUBLIC_VARIABLE = "NAPAD_VAPID_PUBLIC_KEY"
KEY_FILE = "vapid_keys.json"


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(text: str) -> bytes:
    text = text.strip()
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def public_key_of(private_key: ec.EllipticCurvePrivateKey) -> str:
    point = private_key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return b64url(point)


def vapid_pair_generate() -> tuple[str, str]:
    """A fresh ``(private, public)`` pair."""
    key = ec.generate_private_key(ec.SECP256R1())
    return b64url(key.private_numbers().private_value.to_bytes(32, "big")), public_key_of(key)


def private_key_load(text: str, *, name: str = PRIVATE_VARIABLE) -> ec.EllipticCurvePrivateKey:
    try:
        raw = b64url_decode(text)
    except (binascii.Error, ValueError):
        raise ImproperlyConfigured(f"{name}: not base64url") from None
    if len(raw) != 32:
        raise ImproperlyConfigured(f"{name}: expected a raw 32-byte P-256 key in base64url")
    try:
        return ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1())
    except ValueError:
        raise ImproperlyConfigured(f"{name}: not a valid P-256 private key") from None


def _pair_from_environment() -> tuple[str, str] | None:
    private = os.environ.get(PRIVATE_VARIABLE, "").strip()
    public = os.environ.get(PUBLIC_VARIABLE, "").strip()
    if not private and not public:
        return None
    if not private or not public:
        missing = PRIVATE_VARIABLE if not private else PUBLIC_VARIABLE
        raise ImproperlyConfigured(f"{missing}: set both VAPID keys, or neither")
    if public_key_of(private_key_load(private)) != public:
        raise ImproperlyConfigured(f"{PUBLIC_VARIABLE}: does not belong to {PRIVATE_VARIABLE}")
    return private, public


def _pair_from_file(var_dir: Path) -> tuple[str, str]:
    path = var_dir / KEY_FILE
    if not path.exists():
        private, public = vapid_pair_generate()
        # Written whole to a temporary file and linked into place: the web process and the
        # worker start together, and the loser of that race reads the winner's pair.
        fd, temporary = tempfile.mkstemp(dir=var_dir, prefix=".vapid-")
        try:
            with os.fdopen(fd, "w") as handle:
                json.dump({"private": private, "public": public}, handle)
            os.chmod(temporary, 0o600)
            try:
                os.link(temporary, path)
            except FileExistsError:
                pass
        finally:
            os.unlink(temporary)
    try:
        stored = json.loads(path.read_text())
        private, public = stored["private"], stored["public"]
    except (ValueError, KeyError, TypeError):
        raise ImproperlyConfigured(
            f"{path}: not a VAPID key file; delete it to make a new one"
        ) from None
    if public_key_of(private_key_load(private, name=str(path))) != public:
        raise ImproperlyConfigured(f"{path}: the public key does not belong to the private key")
    return private, public


def vapid_keys(var_dir: Path) -> tuple[str, str]:
    """``(private, public)`` from the environment, or generated once into ``var_dir``."""
    return _pair_from_environment() or _pair_from_file(var_dir)
