"""Signal receivers: every user gets a Player, however the user was made; a change of
settings empties the rendered template fragments."""

from __future__ import annotations

from django.conf import settings
from django.core.cache import InvalidCacheBackendError, caches
from django.core.signals import setting_changed
from django.db.models.signals import post_save
from django.dispatch import receiver

from games.services.accounts import player_creation_is_deferred, player_get_or_create


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="games.user_player")
def user_saved(sender, instance, created: bool, raw: bool = False, **kwargs) -> None:
    # Fixtures (raw) bring their own Player rows; sign-up makes its Player itself.
    if created and not raw and not player_creation_is_deferred():
        player_get_or_create(user=instance)


@receiver(setting_changed, dispatch_uid="games.template_fragments_stale")
def settings_changed(**kwargs) -> None:
    # The fragments ({% cache %}, the "template_fragments" cache: the layout's head and menu,
    # the log's lines) hold static files' names and URLs. A release starts new processes with
    # an empty cache; a test that changes the settings must not read what older ones rendered.
    try:
        fragments = caches["template_fragments"]
    except InvalidCacheBackendError:
        return  # settings without it (the cache's own configuration is changing, or a test's)
    fragments.clear()
