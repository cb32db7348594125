"""``{% status_bar %}``: the game page's sticky status bar (``#game-status``) — a flash message,
what the viewer must decide now or whom the table waits for, until when, the jump to the
decision, a moderator's reason for stopping the game.

Drawn in Python, byte for byte what the ``status`` partial of templates/games/game_detail.html
drew (tests/site/test_status_bar.py keeps that template and compares the two on every tone,
in every language): the bar is drawn on every page, move answer and socket push, and its
dozen tags cost the template engine more than its words. Each word is the template's msgid,
translated and escaped as ``{% translate %}`` and ``{% blocktranslate %}`` did it.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext

from games.templatetags.drawing import field, say_word
from games.templatetags.escaping import escaped, localized
from games.templatetags.when_tags import until_when

register = template.Library()


def _open_seats(game: Any, seats: Any) -> str:
    # {% blocktranslate count seats=game.seats_count with taken=seats|length %}: the numbers
    # localized and escaped, the translation itself not escaped again.
    count = game.seats_count
    return ngettext(
        "Waiting for players: %(taken)s of %(seats)s seat taken.",
        "Waiting for players: %(taken)s of %(seats)s seats taken.",
        count,
    ) % {"taken": escaped(localized(len(seats))), "seats": escaped(localized(count))}


@register.simple_tag(takes_context=True)
def status_bar(context: template.Context) -> SafeString:
    """The status bar for this context's ``status`` (games/status.py), ``game``, ``seats``,
    ``message`` / ``message_ok`` and ``parts_oob`` (a push or an answer swaps it by id)."""
    status = context.get("status")
    game = context.get("game")
    tone = field(status, "tone")
    drawn = [
        f'<div id="game-status" class="status-bar status-bar--{escaped(tone)}" tabindex="-1"',
        ' hx-swap-oob="true">' if context.get("parts_oob") else ">",
        "\n        ",
    ]
    message = context.get("message")
    if message:
        flash = "flash--ok" if context.get("message_ok") else "flash--error"
        drawn.append(f'<p class="flash {flash}" role="alert">{escaped(message)}</p>')
    drawn.append('\n        <p class="status-bar__line">\n          ')
    if tone == "turn":
        your_turn = say_word("Your turn.")
        drawn.append(
            f'<strong class="your-turn">{your_turn}</strong> {escaped(field(status, "text"))}'
            "\n          "
        )
    elif tone == "open":
        drawn.append(_open_seats(game, context.get("seats") or ()) + "\n          ")
    elif tone == "closed":
        closed = gettext("This table is %(status)s.")
        drawn.append(closed % {"status": escaped(game.get_status_display())} + "\n          ")
    else:
        drawn.append(escaped(field(status, "text")))
    drawn.append("\n        </p>\n        ")
    deadline = field(status, "deadline")
    if deadline:
        by = say_word("Decide by") if tone == "turn" else say_word("Until")
        drawn.append(
            f'<p class="status-bar__deadline"><span class="muted">{by}</span>'
            f" {escaped(until_when(deadline))}</p>"
        )
    drawn.append("\n        ")
    if tone == "turn":
        jump = say_word("Go to your decision")
        drawn.append(f'<a class="status-bar__jump" href="#decision">{jump}</a>')
    drawn.append("\n        ")
    reason = getattr(game, "abort_reason", "")
    if reason:
        stopped = say_word("A moderator stopped this game:")
        drawn.append(f'<p class="abort-reason">{stopped} {escaped(reason)}</p>')
    drawn.append("\n      </div>")
    return mark_safe("".join(drawn))  # noqa: S308 (every value escaped above)
