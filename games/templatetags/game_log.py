"""The game log's headings in templates: ``{% for group in log|log_grouped:game.kind %}``
(oldest first, the whole log and the replay) and ``log_grouped_newest`` (the table's recent
lines, newest first), see ``games.gamelog.log_groups``; each group's lines drawn by
``{% log_group_lines group.entries sprite %}``, the table's recent log, headings and lines,
by ``{% log_groups_newest log game.kind sprite %}``, and the table's whole log box by
``{% table_log %}``."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from games.gamelog import log_groups, phase_title
from games.templatetags.drawing import said_here, say_word
from games.templatetags.escaping import escaped, localized

register = template.Library()


@register.filter
def log_grouped(entries: list[dict[str, Any]], kind: str | None = None) -> list[dict[str, Any]]:
    return log_groups(entries or [], kind)


@register.filter
def log_grouped_newest(
    entries: list[dict[str, Any]], kind: str | None = None
) -> list[dict[str, Any]]:
    return log_groups(entries or [], kind, newest_first=True)


# One line of the log, as templates/games/_log.html drew it with a loop per line (the loop's
# whitespace included, so the markup is the same byte for byte).
_LOG_LINE = (
    "\n              "
    '<li class="log-line log-line--{icon}{private}" data-seq="{seq}">'
    '<svg class="log-icon" aria-hidden="true" focusable="false">'
    '<use href="{sprite}#log-{icon}"></use></svg>'
    '<span class="log-line__text">{text}{clock}</span></li>'
    "\n            "
)


# Each line as drawn, kept for the life of the process: the table's log draws its last 20
# actions on every page, move answer and push, all but one of them drawn before. A line's
# markup depends only on what the key holds (its words are already the reader's). Bounded;
# emptied when full.
_DRAWN: dict[tuple, str] = {}
DRAWN_KEPT = 8192


@register.simple_tag
def log_group_lines(entries: list[dict[str, Any]], sprite: str) -> SafeString:
    """The lines of one heading's entries: ``{% log_group_lines group.entries sprite %}``.

    Drawn here rather than by a template loop: the table's log shows 20 actions on every page,
    move answer and push, and the loop's tags cost more than the words; a line drawn before
    is taken from ``_DRAWN`` (figures: docs/performance.md). Values are escaped as the
    template escaped them (tests/site/test_log_lines.py)."""
    out_of_time = None
    drawn = []
    sprite_key = (sprite, type(sprite))
    for entry in entries:
        seq = localized(entry["seq"])
        for number, line in enumerate(entry["lines"]):
            clock = ""
            if entry["by_clock"] and number == 0:
                if out_of_time is None:
                    out_of_time = say_word("out of time")
                clock = f' <em class="log-line__clock">({out_of_time})</em>'
            text = line["text"]
            # The values' types too: a safe string is drawn as it is, the same plain text
            # escaped.
            key = (seq, line["icon"], line["private"], text, type(text), clock, sprite_key)
            markup = _DRAWN.get(key)
            if markup is None:
                markup = _LOG_LINE.format(
                    icon=escaped(line["icon"]),
                    private=" log-line--private" if line["private"] else "",
                    seq=escaped(seq),
                    sprite=escaped(sprite),
                    text=escaped(text),
                    clock=clock,
                )
                if len(_DRAWN) >= DRAWN_KEPT:
                    _DRAWN.clear()
                _DRAWN[key] = markup
            drawn.append(markup)
    return mark_safe("".join(drawn))  # noqa: S308 (every value escaped above)


# One heading of the table's log and its lines, as templates/games/_log.html drew them with a
# loop per heading (the loop's whitespace included).
_LOG_GROUP = (
    '\n        <section class="log-group">\n          {title}'
    '\n          <ol class="log-lines">\n            {lines}'
    "\n          </ol>\n        </section>\n      "
)


@register.simple_tag
def log_groups_newest(entries: list[dict[str, Any]], kind: str | None, sprite: str) -> SafeString:
    """The table's recent log under its round / phase headings, newest first:
    ``{% log_groups_newest log game.kind sprite %}`` — the loop over ``log_grouped_newest``
    it replaced, drawn the same (tests/site/test_log_lines.py).

    Drawn entry by entry, newest first: an entry's lines under each heading they fall under
    (``_entry_parts``), the headings where the round or phase changes between two parts —
    as ``log_groups`` puts them, read backwards."""
    groups: list[tuple[tuple, list[str]]] = []
    key = (sprite, type(sprite), get_language())
    for entry in reversed(entries or ()):
        for heading, markup in reversed(_entry_parts(entry, sprite, key)):
            if not groups or groups[-1][0] != heading:
                groups.append((heading, []))
            groups[-1][1].append(markup)
    said = said_here()
    drawn = [
        _LOG_GROUP.format(title=said(_log_heading, (*heading, kind)), lines="".join(parts))
        for heading, parts in groups
    ]
    return mark_safe("".join(drawn))  # noqa: S308 (titles escaped, lines drawn escaped)


def _log_heading(heading: tuple[int | None, str | None, str | None]) -> str:
    """A heading's markup: ``(round, phase, kind)``'s title (``phase_title``), escaped, or
    nothing. Said once per language (``said_here``): a log of 20 actions has a few headings,
    each two gettexts."""
    title = phase_title(*heading)
    return f'<h3 class="log-group__title">{escaped(title)}</h3>' if title else ""


def _entry_parts(entry: dict[str, Any], sprite: str, key: tuple) -> list[tuple[tuple, str]]:
    """An entry's lines drawn under each heading (round, phase) they fall under, in order —
    one part, or two for an action that crosses a heading (a Napad round's last pass). Kept
    in the entry's ``drawn`` (games/gamelog.py ``_ENTRIES``: the same action's next reading
    finds them), per sprite URL and its type (a safe string is drawn as it is) and language
    (the clock's note is said as it is drawn): ``key``, worked out once per log."""
    kept = entry.get("drawn")
    if kept is not None and key in kept:
        return kept[key]
    runs: list[tuple[tuple, list[dict[str, Any]]]] = []
    for line in entry["lines"]:
        heading = (line["round"], line["phase"])
        if not runs or runs[-1][0] != heading:
            runs.append((heading, []))
        runs[-1][1].append(line)
    parts = [
        (heading, log_group_lines([{**entry, "lines": lines}], sprite)) for heading, lines in runs
    ]
    if kept is not None:
        kept[key] = parts
    return parts


@register.simple_tag(takes_context=True)
def table_log(context: template.Context) -> SafeString:
    """The table's log box (``#log``): its heading, the recent lines (``log_groups_newest``)
    or "Nothing has happened yet.", and the links to the whole log and the replay — byte for
    byte what templates/games/_log.html drew (tests/site/test_log_lines.py keeps it). Drawn
    on every page, answer and push; the include and its tags cost more than its words."""
    log = context.get("log")
    game = context.get("game")
    title = say_word("Game log")
    drawn = [f'\n<div id="log" class="game-log">\n  <h2>{title}</h2>\n  ']
    if log:
        groups = log_groups_newest(log, game.kind, context.get("log_sprite"))
        drawn.append(f'\n    <div class="game-log__groups">\n      {groups}\n    </div>\n  ')
    else:
        nothing = say_word("Nothing has happened yet.")
        drawn.append(f"\n    <p>{nothing}</p>\n  ")
    drawn.append("\n  ")
    if game.version:
        whole = say_word("The whole log")
        drawn.append(f'<p><a href="{escaped(context.get("log_url"))}">{whole}</a>')
        if context.get("position") is not None or game.status == "finished":
            replay = say_word("Replay")
            drawn.append(f' · <a href="{escaped(context.get("replay_url"))}">{replay}</a>')
        drawn.append("</p>")
    drawn.append("\n</div>\n")
    return mark_safe("".join(drawn))  # noqa: S308 (every value escaped above)
