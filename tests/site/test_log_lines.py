"""The table's log lines (``{% log_group_lines %}``, games/templatetags/game_log.py) are drawn
exactly as the template loop they replaced drew them: the same markup, the same escaping, the
clock's note on an action's first line only, in every language the club speaks."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.template import Context, Template
from django.utils import translation

# The loop of templates/games/_log.html that the tag replaced, as it was.
LOG_LINES_LOOP = (
    "{% load i18n %}"
    "            {% for entry in entries %}{% for line in entry.lines %}\n"
    '              <li class="log-line log-line--{{ line.icon }}{% if line.private %}'
    ' log-line--private{% endif %}" data-seq="{{ entry.seq }}"><svg class="log-icon"'
    ' aria-hidden="true" focusable="false"><use href="{{ sprite }}#log-{{ line.icon }}"></use>'
    '</svg><span class="log-line__text">{{ line.text }}{% if entry.by_clock and forloop.first %}'
    ' <em class="log-line__clock">({% translate "out of time" %})</em>{% endif %}</span></li>\n'
    "            {% endfor %}{% endfor %}"
)
TAG = "{% load game_log %}            {% log_group_lines entries sprite %}"

ENTRIES = [
    {
        "seq": 7,
        "by_clock": True,
        "lines": [
            {"icon": "play", "text": "Alice sends gold 6 (card 12).", "private": False},
            {"icon": "draw", "text": "You draw 3 cards: <b>złoto</b> & 5.", "private": True},
        ],
    },
    {
        "seq": 8,
        "by_clock": False,
        "lines": [{"icon": "pass", "text": "Bob's pass.", "private": False}],
    },
    # A line an organiser's words reached: escaped, never markup.
    {"seq": 1234, "by_clock": True, "lines": [{"icon": 'x"y', "text": "<i>", "private": False}]},
    {"seq": 9, "by_clock": False, "lines": []},
]


def _render(source: str, **context) -> str:
    return Template(source).render(Context(context))


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
@pytest.mark.parametrize(
    "entries",
    [ENTRIES, ENTRIES[:1], ENTRIES[1:2], ENTRIES[2:3], []],
    ids=["all", "1", "2", "3", "0"],
)
def test_log_lines_are_drawn_as_the_loop_drew_them(language, entries):
    with translation.override(language):
        loop = _render(LOG_LINES_LOOP, entries=entries, sprite="/static/img/log-icons.svg?v=1&a")
        tag = _render(TAG, entries=entries, sprite="/static/img/log-icons.svg?v=1&a")
    assert tag == loop
    assert "<b>" not in tag and "<i>" not in tag


def test_the_clock_note_is_in_the_readers_language():
    with translation.override("pl"):
        drawn = _render(TAG, entries=ENTRIES[:1], sprite="s.svg")
        note = translation.gettext("out of time")
    assert note != "out of time"
    assert drawn.count(f"({note})") == 1
