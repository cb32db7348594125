"""Members: signing up, and the Player profile every user has.

Every user gets exactly one Player. Sign-up creates it here with the details the member typed;
users made any other way (``createsuperuser``, the admin) get one from the ``post_save`` signal
in ``games.signals``, which calls :func:`player_get_or_create`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from games.models import Player
from games.models.players import (
    DISPLAY_NAME_TAKEN,
    display_name_char_refused,
    display_name_key,
    display_name_problem,
    display_name_tidy,
)

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


def display_name_free(name: str) -> str:
    """``name``, or the first of "name 2", "name 3"… that no other member's name looks like
    (for names the site chooses: a new account's default, the demo's members)."""
    name = display_name_tidy(name)[:DISPLAY_NAME_MAX]
    candidate, number = name, 1
    while Player.objects.filter(display_name_key=display_name_key(candidate)).exists():
        number += 1
        suffix = f" {number}"
        candidate = name[: DISPLAY_NAME_MAX - len(suffix)].rstrip() + suffix
    return candidate


def default_display_name(user: AbstractBaseUser) -> str:
    """A free name from the user's full name or username, without the characters a display
    name may not hold (an account made in the admin or by ``createsuperuser``)."""
    full_name = getattr(user, "get_full_name", lambda: "")().strip()
    raw = full_name or user.get_username()
    shown = "".join(char for char in raw if not display_name_char_refused(char))
    if display_name_problem(display_name_tidy(shown)) is not None:
        shown = _("Member")
    return display_name_free(shown)


def _player_save(player: Player) -> None:
    """Save, turning a lookalike name saved by someone else meanwhile (full_clean passed,
    the unique key did not) into the same refusal full_clean gives."""
    try:
        with transaction.atomic():
            player.save()
    except IntegrityError:
        others = Player.objects.exclude(pk=player.pk) if player.pk else Player.objects.all()
        if others.filter(display_name_key=player.display_name_key).exists():
            raise ValidationError(
                {"display_name": [ValidationError(DISPLAY_NAME_TAKEN, code="display_name")]}
            ) from None
        raise


def player_create(
    *,
    user: AbstractBaseUser,
    display_name: str,
    time_zone: str = "UTC",
    language: str = settings.LANGUAGE_CODE,
) -> Player:
    player = Player(
        user=user,
        display_name=display_name_tidy(display_name)[:DISPLAY_NAME_MAX]
        or default_display_name(user),
        time_zone=time_zone,
        language=language,
    )
    player.full_clean(exclude=["user"])
    _player_save(player)
    return player


def player_get_or_create(*, user: AbstractBaseUser) -> Player:
    """The user's Player, made with defaults if the user has none yet."""
    player = Player.objects.filter(user=user).first()
    if player is not None:
        return player
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
    """Create a member: the user account and its Player profile, together or not at all.
    Raises ValidationError when the display name is refused or taken (also by a member who
    signed up meanwhile)."""
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
        _player_save(player)
        if email is not None and email != player.user.email:
            player.user.email = email
            player.user.save(update_fields=["email"])
    return player
