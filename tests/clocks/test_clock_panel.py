"""The game page's clock panel (``{% clock_panel %}``, games/templatetags/clock_tags.py) is drawn
exactly as the templates it replaced drew it: empty, with the "+24 h" button, members on leave
(with and without a reason), the table's notices and Colt Express's standing orders, for every
seat and a spectator, every value escaped, in every language the club speaks; and nothing but a
line end once the game is over."""

from __future__ import annotations

from datetime import timedelta

import pytest
from clockkit import colt_stealin, seat_of, started_game, user_to_move
from django.conf import settings
from django.template import Context, Template
from django.utils import translation

from games.models import Game, Player
from games.rendering import game_context
from games.selectors import game_with_seats
from games.services.clocks.leave import leave_declare, player_today
from games.services.notifications import table_notice_post
from games.templatetags.clock_tags import clock_panel_data

pytestmark = pytest.mark.django_db

# templates/clocks/panel.html with templates/clocks/extend_button.html where it was included
# (the include drew the button's text in the panel's context), as they were.
OLD_PANEL = '{% load i18n when_tags clock_tags %}{% if show %}\n<div id="clock-panel" class="clock-panel">\n  {% if on_leave %}\n    <ul class="clock-panel__leave" aria-label="{% translate \'Players on leave\' %}">\n      {% for away in on_leave %}\n        <li>{% blocktranslate trimmed with name=away.player.display_name end=away.leave.end|date:"DATE_FORMAT" %}{{ name }} is on leave until {{ end }}: their clock is paused.{% endblocktranslate %}{% if away.leave.reason %} <em>{{ away.leave.reason }}</em>{% endif %}</li>\n      {% endfor %}\n    </ul>\n  {% endif %}\n  {% if notices %}\n    <ul class="clock-panel__notices" aria-label="{% translate \'Table notices\' %}">\n      {% for notice in notices %}<li>{{ notice.when|when }} {{ notice.text }}</li>{% endfor %}\n    </ul>\n  {% endif %}\n  {% if extend_seat %}\n<form class="clock-extend" method="post" action="{% url \'deadline_extend\' game.pk %}" hx-post="{% url \'deadline_extend\' game.pk %}" hx-target="#game-live" hx-swap="outerHTML">{% csrf_token %}\n  <input type="hidden" name="seat" value="{{ extend_seat.position }}">\n  <input type="hidden" name="version" value="{{ game.version }}">\n  <button class="button button--quiet">{% blocktranslate trimmed with name=extend_seat.player.display_name %}Give {{ name }} 24 more hours{% endblocktranslate %}</button>\n  <small>{% translate "Each player can be given more time once per game." %}</small>\n</form>\n{% endif %}\n\n  {% standing_orders_form %}\n</div>\n{% endif %}\n'  # noqa: E501
NEW_PANEL = "{% load clock_tags %}{% clock_panel %}"
ODD = "<b>Bob</b> & 'co'"


def _both(game: Game, position: int | None, csrf: str | None) -> tuple[str, str]:
    """(the tag's panel, the old templates' panel) for ``position``'s page of ``game``."""
    values = game_context(game_with_seats(game.pk), position=position)
    if csrf is not None:
        values["csrf_token"] = csrf
    new = Template(NEW_PANEL).render(Context(values))
    old = Template(OLD_PANEL).render(Context(clock_panel_data(Context(values))))
    return new, old


def _every_viewer(game: Game) -> list[int | None]:
    return [seat.position for seat in game.seats.all()] + [None]


def _napad_tables(alice, bob, charlie) -> list[Game]:
    """A quiet table, then one with notices and members on leave (an odd name among them)."""
    quiet = started_game(alice, bob, charlie)
    busy = started_game(alice, bob, charlie)
    Player.objects.filter(user=bob).update(display_name=ODD)
    bob.player.refresh_from_db()
    table_notice_post(game=busy, kind="info", text="The clock <moved> & 'so' did you.")
    today = player_today(bob.player)
    leave_declare(player=bob.player, start=today, end=today + timedelta(days=3), reason=ODD)
    leave_declare(player=charlie.player, start=today, end=today + timedelta(days=1))
    return [quiet, busy]


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
def test_the_panel_is_drawn_as_its_templates_drew_it(alice, bob, charlie, language):
    tables = _napad_tables(alice, bob, charlie)
    colt = started_game(alice, bob, charlie, slug="colt-express")
    me, b, c = (seat_of(colt, user).position for user in (alice, bob, charlie))
    colt_stealin(
        colt,
        at={me: (2, "roof"), b: (2, "roof"), c: (1, "inside")},
        pile=[(b, "move"), (me, "move"), (c, "fire"), (me, "punch")],
    )
    drawn = []
    with translation.override(language):
        for game in [*tables, colt]:
            for position in _every_viewer(game):
                for csrf in ("t0k3n<&>", None):
                    new, old = _both(game, position, csrf)
                    assert new == old
                    drawn.append(new)
    everything = "".join(drawn)
    # Every part was drawn somewhere, escaped: the button, both leaves, the notice, the orders.
    assert 'class="clock-extend"' in everything
    assert "clock-panel__leave" in everything and "<em>&lt;b&gt;Bob&lt;/b&gt;" in everything
    assert "&lt;moved&gt; &amp; &#x27;so&#x27;" in everything
    assert 'class="standing-orders"' in everything
    assert "<b>Bob" not in everything and "<moved>" not in everything


def test_a_panel_is_a_line_end_once_the_game_is_over(alice, bob, charlie):
    game = started_game(alice, bob, charlie)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.ABORTED, abort_reason="x")
    for position in _every_viewer(game):
        new, old = _both(game, position, "t")
        assert new == old == "\n"


def test_the_button_gives_the_member_to_move_more_time(alice, bob, charlie):
    # Every member but the one to move is offered "+24 h" for them; they are not, nor is a
    # spectator.
    game = started_game(alice, bob, charlie)
    mover = seat_of(game, user_to_move(game, [alice, bob, charlie]))
    for position in _every_viewer(game):
        new, _old = _both(game, position, "t")
        offered = 'class="clock-extend"' in new
        assert offered == (position not in (None, mover.position))
        if offered:
            assert f'name="seat" value="{mover.position}"' in new
            assert f'action="/games/{game.pk}/extend"' in new
