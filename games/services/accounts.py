"""Members: signing up, the Player profile every user has, and login throttling.

Every user gets exactly one Player. Sign-up creates it here with the details the member typed;
users made any other way (``createsuperuser``, the admin) get one from the ``post_save`` signal
in ``games.signals``, which calls :func:`player_get_or_create`.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
from collections.abc import Iterator
from contextvars import ContextVar

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.cache import cache
from django.core.cache.backends.locmem import LocMemCache
from django.db import transaction

from games.models import Player

logger = logging.getLogger(__name__)

DISPLAY_NAME_MAX = Player._meta.get_field("display_name").max_length

# Set while a service creates a user and will make its Player itself, so the post_save signal
# does not race it with a default one.
_player_made_by_caller: ContextVar[bool] = ContextVar("player_made_by_caller", default=False)


def player_creation_is_deferred() -> bool:
    return _player_made_by_caller.get()


@contextlib.contextmanager
def _player_made_here() -> Iterator[None]:
    token = _player_made_by_caller.set(True)
    try:
        yield
    finally:
        _player_made_by_caller.reset(token)


def default_display_name(user: AbstractBaseUser) -> str:
    full_name = getattr(user, "get_full_name", lambda: "")().strip()
    return (full_name or user.get_username())[:DISPLAY_NAME_MAX]


def player_create(
    *,
    user: AbstractBaseUser,
    display_name: str,
    time_zone: str = "UTC",
    language: str = settings.LANGUAGE_CODE,
) -> Player:
    player = Player(
        user=user,
        display_name=display_name.strip()[:DISPLAY_NAME_MAX] or default_display_name(user),
        time_zone=time_zone,
        language=language,
    )
    player.full_clean(exclude=["user"])
    player.save()
    return player


def player_get_or_create(*, user: AbstractBaseUser) -> Player:
    """The user's Player, made with defaults if the user has none yet."""
    player, _created = Player.objects.get_or_create(
        user=user, defaults={"display_name": default_display_name(user)}
    )
    return player


def user_sign_up(
    *,
    username: str,
    email: str,
    password: str,
    display_name: str,
    language: str = settings.LANGUAGE_CODE,
    time_zone: str = "UTC",
) -> AbstractBaseUser:
    """Create a member: the user account and its Player profile, together or not at all."""
    User = get_user_model()
    with transaction.atomic(), _player_made_here():
        user = User.objects.create_user(username=username, email=email, password=password)
        player_create(user=user, display_name=display_name, time_zone=time_zone, language=language)
    return user


def player_update(*, player: Player, email: str | None = None, **fields: object) -> Player:
    """Change a member's profile (and the account's email address, when given)."""
    with transaction.atomic():
        for name, value in fields.items():
            setattr(player, name, value)
        player.full_clean(exclude=["user"])
        player.save()
        if email is not None and email != player.user.email:
            player.user.email = email
            player.user.save(update_fields=["email"])
    return player


# --- Login throttling ---------------------------------------------------------------------------
# A fixed window per username and per client address, counted in the cache: after
# LOGIN_ATTEMPTS_LIMIT failures within LOGIN_ATTEMPTS_WINDOW seconds, further attempts are refused
# before the password is even checked, so guessing stays slow whatever the answer would be.
#
# When the cache (Redis, scaled) is not answering, members can still log in: the counts are
# kept in this process's memory until it answers again — still a limit on guessing, per web
# process, for the minutes an outage lasts. /healthz reports the cache as failing meanwhile.

_fallback_counts = LocMemCache("napad-login-throttle", {"MAX_ENTRIES": 10000})


def _throttle_cache(operation: str, *args, **kwargs):
    try:
        return getattr(cache, operation)(*args, **kwargs)
    except ValueError:
        raise  # incr() of a key whose window ran out: the caller starts a new one
    except Exception as error:
        logger.warning(
            "login throttle: the cache is not answering (%s); counting in this process",
            type(error).__name__,
        )
        return getattr(_fallback_counts, operation)(*args, **kwargs)


def _attempt_keys(*, username: str, ip: str | None) -> list[str]:
    name = hashlib.sha256(username.strip().casefold().encode()).hexdigest()[:32]
    keys = [f"login-failures:user:{name}"]
    if ip:
        keys.append(f"login-failures:ip:{ip}")
    return keys


def login_attempts_exceeded(*, username: str, ip: str | None) -> bool:
    limit = settings.LOGIN_ATTEMPTS_LIMIT
    counts = _throttle_cache("get_many", _attempt_keys(username=username, ip=ip))
    return any(count >= limit for count in counts.values())


def login_failure_record(*, username: str, ip: str | None) -> None:
    window = settings.LOGIN_ATTEMPTS_WINDOW
    for key in _attempt_keys(username=username, ip=ip):
        # add() starts the window only if none is running; incr() keeps its expiry.
        _throttle_cache("add", key, 0, timeout=window)
        try:
            _throttle_cache("incr", key)
        except ValueError:
            # The window ran out between add() and incr(): start a new one.
            _throttle_cache("set", key, 1, timeout=window)


def login_failures_clear(*, username: str) -> None:
    _throttle_cache("delete_many", _attempt_keys(username=username, ip=None))
