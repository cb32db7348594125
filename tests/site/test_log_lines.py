"""The table's log lines (``{% log_group_lines %}``, games/templatetags/game_log.py) and its
headings (``{% log_groups_newest %}``) are drawn exactly as the template loops they replaced
drew them: the same markup, the same escaping, the clock's note on an action's first line
only, in every language the club speaks."""

from __future__ import annotations

import random

import pytest
from django.conf import settings
from django.template import Context, Template
from django.utils import translation

from games.engines import get_engine
from games.gamelog import log_entries, log_groups
from games.models import GameEvent

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


def test_a_line_drawn_before_is_drawn_again_as_the_loop_draws_it():
    """Lines are kept once drawn (``_DRAWN``): the same words drawn again, in another
    language's clock note, or as markup the site marked safe, still read as the loop's."""
    from django.utils.safestring import mark_safe

    safe = [{**ENTRIES[0], "lines": [{**ENTRIES[0]["lines"][1], "text": mark_safe("<b>5</b>")}]}]
    plain = [{**ENTRIES[0], "lines": [{**ENTRIES[0]["lines"][1], "text": "<b>5</b>"}]}]
    for language in ("pl", "en", "pl"):
        for entries in (ENTRIES, plain, safe, plain):
            with translation.override(language):
                loop = _render(LOG_LINES_LOOP, entries=entries, sprite="s.svg")
                tag = _render(TAG, entries=entries, sprite="s.svg")
            assert tag == loop, (language, entries)
    with translation.override("en"):
        assert "&lt;b&gt;5" in _render(TAG, entries=plain, sprite="s.svg")
        assert "<b>5</b>" in _render(TAG, entries=safe, sprite="s.svg")
        # The same URL as plain text (escaped) and as a safe string (drawn as it is).
        for sprite in ("s.svg?v=1&a", mark_safe("s.svg?v=1&a"), "s.svg?v=1&a"):
            loop = _render(LOG_LINES_LOOP, entries=plain, sprite=sprite)
            assert _render(TAG, entries=plain, sprite=sprite) == loop


def test_the_clock_note_is_in_the_readers_language():
    with translation.override("pl"):
        drawn = _render(TAG, entries=ENTRIES[:1], sprite="s.svg")
        note = translation.gettext("out of time")
    assert note != "out of time"
    assert drawn.count(f"({note})") == 1


# The loop over the table's log headings that ``{% log_groups_newest %}`` replaced, as it was.
LOG_GROUPS_LOOP = (
    "{% load game_log %}      {% for group in log|log_grouped_newest:kind %}\n"
    '        <section class="log-group">\n'
    '          {% if group.title %}<h3 class="log-group__title">{{ group.title }}</h3>{% endif %}\n'
    '          <ol class="log-lines">\n'
    "            {% log_group_lines group.entries sprite %}\n"
    "          </ol>\n"
    "        </section>\n"
    "      {% endfor %}"
)
LOG_GROUPS_TAG = "{% load game_log %}      {% log_groups_newest log kind sprite %}"


def _played_logs(kind: str, players: int = 4, games: int = 2):
    """The table's last 20 actions, as each seat (and a spectator) reads them, at every step of
    a few games played at random — events logged as the move service logs them."""
    engine = get_engine(kind)
    names = {seat: f"<i>{seat}</i> & Co" for seat in range(players)}
    for number in range(games):
        rng = random.Random(f"log-{kind}-{number}")
        state = engine.setup(engine.default_config(), players, seed=f"log-{kind}-{number}")
        logged: list[GameEvent] = []
        while not engine.is_over(state):
            mover = engine.to_move(state)[0]
            action = rng.choice(engine.legal_actions(state, mover))
            state, events = engine.apply(state, mover, action)
            logged.append(
                GameEvent(
                    seq=len(logged) + 1,
                    seat=mover,
                    by_clock=rng.random() < 0.1,
                    public_events=[e for e in events if "private_to" not in e],
                    private_events=[
                        {**e, "at": i} for i, e in enumerate(events) if "private_to" in e
                    ],
                )
            )
            if len(logged) % 7:
                continue  # every seventh move is enough to see every heading
            recent = logged[-20:]
            round_now = engine.view(state, None).get("round")
            for viewer in [None, *range(players)]:
                yield log_entries(recent, viewer, names=names, kind=kind, round_now=round_now)


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
@pytest.mark.parametrize("kind", ["napad", "colt"])
def test_the_logs_headings_are_drawn_as_the_loop_drew_them(kind, language):
    loop, tag = Template(LOG_GROUPS_LOOP), Template(LOG_GROUPS_TAG)
    titles = set()
    with translation.override(language):
        for log in _played_logs(kind):
            context = {"log": log, "kind": kind, "sprite": "/static/img/log-icons.svg?v=1&a"}
            drawn = tag.render(Context(context))
            assert drawn == loop.render(Context(context))
            titles.update(group["title"] for group in log_groups(log, kind))
    # Logs under several headings were drawn (rounds and phases), names escaped.
    assert len(titles) > 3
    assert "<i>" not in drawn


def test_entries_drawn_before_are_drawn_again_as_the_loop_draws_them():
    """An entry keeps its drawn lines (its ``drawn``, games/gamelog.py ``_ENTRIES``): drawn
    again — the same entries, under another sprite URL or in another language (the clock's
    note) — the table's log still reads as the loop's."""
    loop, tag = Template(LOG_GROUPS_LOOP), Template(LOG_GROUPS_TAG)
    logs = [log for _number, log in zip(range(6), _played_logs("napad"), strict=False)]
    assert any(entry["by_clock"] for log in logs for entry in log)
    for language in ("en", "pl", "en"):
        for sprite in ("a.svg", "b.svg?v=2&x", "a.svg"):
            with translation.override(language):
                for log in logs:
                    context = {"log": log, "kind": "napad", "sprite": sprite}
                    assert tag.render(Context(context)) == loop.render(Context(context))
    assert all(entry["drawn"] for log in logs for entry in log if entry["lines"])


# templates/games/_log.html, which ``{% table_log %}`` replaced, as it was.
LOG_BOX = '{% load i18n game_log %}\n<div id="log" class="game-log">\n  <h2>{% translate "Game log" %}</h2>\n  {% if log %}\n    <div class="game-log__groups">\n      {% log_groups_newest log game.kind log_sprite %}\n    </div>\n  {% else %}\n    <p>{% translate "Nothing has happened yet." %}</p>\n  {% endif %}\n  {% if game.version %}<p><a href="{{ log_url }}">{% translate "The whole log" %}</a>{% if position is not None or game.status == "finished" %} · <a href="{{ replay_url }}">{% translate "Replay" %}</a>{% endif %}</p>{% endif %}\n</div>\n'  # noqa: E501
LOG_BOX_TAG = "{% load game_log %}{% table_log %}"


class _Game:
    def __init__(self, kind: str, version: int, status: str):
        self.kind, self.version, self.status = kind, version, status


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
def test_the_log_box_is_drawn_as_its_template_drew_it(language):
    box, tag = Template(LOG_BOX), Template(LOG_BOX_TAG)
    urls = {
        "log_url": "/games/7/log?a=1&b=2",
        "replay_url": "/games/7/replay",
        "log_sprite": "s&.svg",
    }
    drawn = 0
    with translation.override(language):
        logs = [[], *(log for _number, log in zip(range(12), _played_logs("colt"), strict=False))]
        for log in logs:
            for version, status, position in [
                (0, "running", None),
                (14, "running", 2),
                (14, "running", None),
                (99, "finished", None),
                (99, "aborted", None),
                (3, "running", 0),
            ]:
                game = _Game("colt", version, status)
                context = {"log": log, "game": game, "position": position, **urls}
                assert tag.render(Context(context)) == box.render(Context(context))
                drawn += 1
    assert drawn == 13 * 6
