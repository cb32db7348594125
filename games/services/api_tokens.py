"""Personal API tokens: create, revoke, and find the member a presented token belongs to.

A token is shown once, when it is created; the database keeps only its SHA-256 and a short
prefix, so nobody (not even an organiser with the database) can read a token back.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import ApiToken

TOKEN_PREFIX = "napad_"  # noqa: S105 (a marker that says what the token is for)
PREFIX_LENGTH = len(TOKEN_PREFIX) + 6
MAX_TOKENS_PER_MEMBER = 20
MAX_TOKEN_LENGTH = 200
# Recording every use would turn each API read into a write; once a minute is enough to see
# whether a token is still in use.
LAST_USED_RESOLUTION = timedelta(minutes=1)


class ApiTokenError(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def token_hash(raw_token: str) -> str:
    return hashlib.sha256(raw_token.encode()).hexdigest()


def api_token_create(*, user: AbstractBaseUser, name: str) -> tuple[ApiToken, str]:
    """A new token for ``user``: the row and the token itself, which is never stored."""
    name = (name or "").strip() or _("API token")
    if len(name) > ApiToken._meta.get_field("name").max_length:
        raise ApiTokenError(_("Keep the name under 60 characters."))
    with transaction.atomic():
        if ApiToken.objects.filter(user=user).count() >= MAX_TOKENS_PER_MEMBER:
            raise ApiTokenError(
                _("You have %(max)s tokens already; revoke one you no longer use.")
                % {"max": MAX_TOKENS_PER_MEMBER}
            )
        raw_token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        token = ApiToken.objects.create(
            user=user,
            name=name,
            token_hash=token_hash(raw_token),
            prefix=raw_token[:PREFIX_LENGTH],
        )
    return token, raw_token


def api_token_revoke(*, user: AbstractBaseUser, token_id: int) -> bool:
    """Delete one of the member's own tokens; ``False`` if they have no such token."""
    deleted, _rows = ApiToken.objects.filter(user=user, pk=token_id).delete()
    return bool(deleted)


def api_token_user(raw_token: str) -> AbstractBaseUser | None:
    """The active member a presented token belongs to, or ``None``; notes when it was used."""
    if not raw_token or len(raw_token) > MAX_TOKEN_LENGTH:
        return None
    token = (
        ApiToken.objects.select_related("user")
        .filter(token_hash=token_hash(raw_token), user__is_active=True)
        .first()
    )
    if token is None:
        return None
    now = timezone.now()
    if token.last_used_at is None or token.last_used_at < now - LAST_USED_RESOLUTION:
        # Conditional, so concurrent requests with one token write at most once a minute.
        ApiToken.objects.filter(pk=token.pk).filter(
            Q(last_used_at__isnull=True) | Q(last_used_at__lt=now - LAST_USED_RESOLUTION)
        ).update(last_used_at=now)
    return token.user


def api_tokens_of(user: AbstractBaseUser) -> list[ApiToken]:
    return list(ApiToken.objects.filter(user=user).order_by("-created_at"))
