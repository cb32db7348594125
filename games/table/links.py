"""A table's own URLs — where its moves post, its whole log, its replay — and the log's icon
sprite, worked out once per process and filled in with the game's id.

Every page, HTMX answer and socket push of a table draws these; Django's ``reverse`` walks
the URL patterns each time (22 µs a URL on this machine, three per board) and ``{% static %}``
asks the storage for the same file's name again. A URL is reversed once with a placeholder id
for each URL configuration and script prefix a request may use (tests and the bench set their
own), and the id put where the placeholder was; a settings change empties the memo.
"""

from __future__ import annotations

from typing import Any

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.templatetags.static import static
from django.urls import get_script_prefix, get_urlconf, reverse

# Unlike any id the club will reach, and unlike anything else in a path.
_PLACEHOLDER = 918_273_645_546_372_819
LOG_SPRITE = "img/log-icons.svg"

_SPLIT: dict[tuple, tuple[str, str]] = {}
_SPRITE: dict[str, str] = {}


@receiver(setting_changed)
def _settings_changed(**_kwargs: Any) -> None:
    _SPLIT.clear()
    _SPRITE.clear()


def table_url(name: str, game_id: int) -> str:
    """``reverse(name, args=[game_id])`` for a URL whose only argument is the game's id."""
    key = (name, get_urlconf(), get_script_prefix())
    split = _SPLIT.get(key)
    if split is None:
        before, placeholder, after = reverse(name, args=[_PLACEHOLDER]).partition(str(_PLACEHOLDER))
        if not placeholder:
            raise ValueError(f"{name}: the game's id is not in its URL")
        split = _SPLIT[key] = (before, after)
    return f"{split[0]}{int(game_id)}{split[1]}"


def log_sprite() -> str:
    """The log's icon sprite, as ``{% static %}`` names it."""
    sprite = _SPRITE.get(LOG_SPRITE)
    if sprite is None:
        sprite = _SPRITE[LOG_SPRITE] = static(LOG_SPRITE)
    return sprite
