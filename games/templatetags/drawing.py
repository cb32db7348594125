"""Shared pieces of the boards' markup drawn in Python (games/templatetags/napad_board.py,
colt_board.py, move_buttons.py): a value looked up as a template looks it up, escaped as a
template escapes it, a message said as ``{% translate %}`` says it, labels said once per board,
and a move's form with the page's CSRF token.

Why in Python at all: the board, the hand and the log are drawn on every page, HTMX answer and
socket push, and in those loops the template engine's tags cost more than the words. Each tag
draws exactly what the loop it replaced drew; the tests under tests/site/ compare the two on
boards of played games.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.template.defaulttags import CsrfTokenNode
from django.utils.translation import get_language, gettext


def field(item: Any, name: str) -> Any:
    """``item.name`` as a template looks it up in the board's data (dicts), or ``""``."""
    return item.get(name, "") if isinstance(item, dict) else ""


def say_word(message: str) -> str:
    """``{% translate "message" %}``: the catalogue's words as they are. The tag does not
    escape them: a literal in a template is safe, and so is its translation ("Stealin'" stays
    "Stealin'", not ``Stealin&#x27;``)."""
    return gettext(message)


# The boards' words and labels per language, for the life of the process: they depend on the
# language alone, and every board asked gettext for the same few dozen again. Emptied when
# settings change (a test's other catalogues).
_SAID: dict[str | None, SaidOnce] = {}
_WORDS: dict[tuple, dict[str, str]] = {}
SAID_KEPT = 2048


@receiver(setting_changed)
def _settings_changed(**_kwargs: Any) -> None:
    _SAID.clear()
    _WORDS.clear()


def words_here(messages: tuple[str, ...]) -> dict[str, str]:
    """``{message: say_word(message)}`` for these messages in the page's language."""
    key = (get_language(), messages)
    words = _WORDS.get(key)
    if words is None:
        words = _WORDS[key] = {message: say_word(message) for message in messages}
    return words


def said_here() -> SaidOnce:
    """The label filters' words in the page's language (``SaidOnce``), kept across boards."""
    language = get_language()
    said = _SAID.get(language)
    if said is None or len(said) >= SAID_KEPT:
        said = _SAID[language] = SaidOnce()
    return said


_PLAIN = (str, int, type(None))


class SaidOnce(dict):
    """Each label filter's words for a value, said once (``said_here``: per language): four
    seats share most counts and cargoes, and every gettext looks up the language again. The
    value is a string, a number, ``None`` or a tuple of them (a log heading's round, phase
    and game)."""

    def __call__(self, label: Any, value: Any) -> Any:
        key = (label, value)
        kind = type(value)
        if kind not in _PLAIN and not (kind is tuple and all(type(v) in _PLAIN for v in value)):
            return label(value)  # an odd value (True is 1 as a key): said each time
        if key not in self:
            self[key] = label(value)
        return self[key]


# A move's form: a card's half, or a play, that may be chosen posts its action with the
# page's version and CSRF token (as ``{% csrf_token %}`` writes it).
MOVE_FORM = (
    '<form method="post" action="{url}" hx-post="{url}" hx-target="#game-live"'
    ' hx-swap="outerHTML"{form_class}>{csrf}<input type="hidden" name="action" value="{action}">'
    '<input type="hidden" name="version" value="{version}"><button {button}>{face}</button></form>'
)


def csrf_input(context: template.Context) -> str:
    """What ``{% csrf_token %}`` writes in this context (nothing without a token)."""
    return CsrfTokenNode().render(context)
