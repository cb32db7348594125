"""Signal receivers: every user gets a Player, however the user was made."""

from __future__ import annotations

from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import receiver

from games.services.accounts import player_creation_is_deferred, player_get_or_create


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="games.user_player")
def user_saved(sender, instance, created: bool, raw: bool = False, **kwargs) -> None:
    # Fixtures (raw) bring their own Player rows; sign-up makes its Player itself.
    if created and not raw and not player_creation_is_deferred():
        player_get_or_create(user=instance)
