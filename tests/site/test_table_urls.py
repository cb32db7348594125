"""A table's URLs filled in from one reversal (games/table/links.py): exactly what ``reverse``
and ``{% static %}`` say, for every game, under whatever prefix the site is served."""

from __future__ import annotations

import pytest
from django.templatetags.static import static
from django.test import override_settings
from django.urls import clear_script_prefix, reverse, set_script_prefix

from games.table.links import LOG_SPRITE, log_sprite, table_url


@pytest.mark.parametrize("name", ["game_act", "game_log", "game_replay"])
def test_a_tables_url_is_what_reverse_says(name):
    for game_id in (1, 7, 10, 123456):
        assert table_url(name, game_id) == reverse(name, args=[game_id])


def test_a_site_served_under_a_prefix_gets_its_own_urls():
    plain = table_url("game_log", 5)
    set_script_prefix("/club/")
    try:
        assert table_url("game_log", 5) == reverse("game_log", args=[5]) == "/club" + plain
    finally:
        clear_script_prefix()
    assert table_url("game_log", 5) == plain


def test_the_log_sprite_is_the_static_files_name_and_follows_the_settings():
    assert log_sprite() == static(LOG_SPRITE)
    with override_settings(STATIC_URL="/elsewhere/"):
        assert log_sprite() == static(LOG_SPRITE) == "/elsewhere/" + LOG_SPRITE
    assert log_sprite() == static(LOG_SPRITE)
