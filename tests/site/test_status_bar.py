"""The game page's status bar (``{% status_bar %}``, games/templatetags/status_bar.py) is drawn
exactly as the template it replaced drew it: every tone (your turn, waiting, an open table, a
closed one, the end), a flash message either way, a deadline, a moderator's reason, swapped by
id or not — every value escaped, in every language the club speaks."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.conf import settings
from django.template import Context, Template
from django.utils import translation
from playkit import napad_game, napad_table, play_one, play_to_end

from games.models import Game
from games.rendering import game_context
from games.selectors import game_with_seats

pytestmark = pytest.mark.django_db

# The partial the tag replaced, as it was.
OLD_STATUS = (
    "{% load i18n when_tags %}"
    '<div id="game-status" class="status-bar status-bar--{{ status.tone }}" tabindex="-1"{% if parts_oob %} hx-swap-oob="true"{% endif %}>\n        {% if message %}<p class="flash {% if message_ok %}flash--ok{% else %}flash--error{% endif %}" role="alert">{{ message }}</p>{% endif %}\n        <p class="status-bar__line">\n          {% if status.tone == "turn" %}<strong class="your-turn">{% translate "Your turn." %}</strong> {{ status.text }}\n          {% elif status.tone == "open" %}{% blocktranslate count seats=game.seats_count with taken=seats|length %}Waiting for players: {{ taken }} of {{ seats }} seat taken.{% plural %}Waiting for players: {{ taken }} of {{ seats }} seats taken.{% endblocktranslate %}\n          {% elif status.tone == "closed" %}{% blocktranslate with status=game.get_status_display %}This table is {{ status }}.{% endblocktranslate %}\n          {% else %}{{ status.text }}{% endif %}\n        </p>\n        {% if status.deadline %}<p class="status-bar__deadline"><span class="muted">{% if status.tone == "turn" %}{% translate "Decide by" %}{% else %}{% translate "Until" %}{% endif %}</span> {{ status.deadline|until_when }}</p>{% endif %}\n        {% if status.tone == "turn" %}<a class="status-bar__jump" href="#decision">{% translate "Go to your decision" %}</a>{% endif %}\n        {% if game.abort_reason %}<p class="abort-reason">{% translate "A moderator stopped this game:" %} {{ game.abort_reason }}</p>{% endif %}\n      </div>'  # noqa: E501
)
NEW_STATUS = "{% load status_bar %}{% status_bar %}"

MESSAGES = [("", True), ("Done & <dusted>", True), ("That card is 'not' yours.", False)]


def _contexts(alice, bob, charlie):
    running = napad_game(alice, bob)
    play_one(running, [alice, bob])
    open_table = napad_table(alice, seats=3)
    finished = play_to_end(napad_game(alice, bob), [alice, bob])
    stopped = napad_game(alice, charlie)
    Game.objects.filter(pk=stopped.pk).update(
        status=Game.Status.ABORTED, abort_reason="Cheating <again> & 'again'"
    )
    for game_id in (running.pk, open_table.pk, finished.pk, stopped.pk):
        game = game_with_seats(game_id)
        positions = {seat.position for seat in game.seats.all()}
        for position in sorted(positions) + [None]:
            yield game, position


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
def test_the_bar_is_drawn_as_the_template_drew_it(alice, bob, charlie, language):
    old, new = Template(OLD_STATUS), Template(NEW_STATUS)
    deadline = datetime(2026, 12, 24, 18, 30, tzinfo=UTC)
    tones = set()
    with translation.override(language):
        for game, position in _contexts(alice, bob, charlie):
            context = game_context(game, position=position)
            tones.add(context["status"]["tone"])
            for (message, ok), parts_oob in zip(MESSAGES * 2, [True, False] * 3, strict=True):
                status = dict(context["status"])
                for deadline_shown in (status.get("deadline"), deadline, None):
                    status["deadline"] = deadline_shown
                    values = {
                        **context,
                        "status": status,
                        "message": message,
                        "message_ok": ok,
                        "parts_oob": parts_oob,
                    }
                    assert new.render(Context(values)) == old.render(Context(values))
    assert {"turn", "wait", "open", "closed", "over"} <= tones
