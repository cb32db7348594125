"""``{% clock_panel %}`` on the game page: who is on leave, the clock's notices, the "+24 h"
button and (Colt Express) the member's standing orders — rendered for the page's viewer.

Drawn in Python, byte for byte what the templates ``clocks/panel.html`` and
``clocks/extend_button.html`` drew (tests/clocks/test_clock_panel.py keeps them and compares the
two on every part, in every language): the panel is on every page, move answer and push, and
on most of them it holds the "+24 h" button — the template engine's include, URL and
translation tags cost more than the words (figures: docs/performance.md). Each word is the
template's msgid, translated and escaped as ``{% translate %}`` and
``{% blocktranslate %}`` did it.

Its reads are kept on the game it is drawn from (games/selectors.py ``read_once``): the answer
to a move shares the leave the turn clock read, and every viewer of one broadcast shares one
read of each."""

from __future__ import annotations

from typing import Any

from django import template
from django.template.defaultfilters import date
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, gettext_noop, ngettext

from games.models import Game
from games.services.clocks import extension_available, players_on_leave
from games.services.notifications import table_notices
from games.services.standing_orders import standing_orders_for
from games.table_urls import table_url
from games.templatetags.drawing import csrf_input, field, words_here
from games.templatetags.escaping import escaped, localized
from games.templatetags.when_tags import when

register = template.Library()
PANEL_NOTICES = 5

_PANEL_WORDS = (
    gettext_noop("Players on leave"),
    gettext_noop("Table notices"),
    gettext_noop("Each player can be given more time once per game."),
)
_EXTEND = (
    '\n<form class="clock-extend" method="post" action="{url}" hx-post="{url}"'
    ' hx-target="#game-live" hx-swap="outerHTML">{csrf}\n'
    '  <input type="hidden" name="seat" value="{seat}">\n'
    '  <input type="hidden" name="version" value="{version}">\n'
    '  <button class="button button--quiet">{give}</button>\n'
    "  <small>{once}</small>\n"
    "</form>\n\n"
)


@register.simple_tag(takes_context=True)
def clock_panel(context: template.Context) -> SafeString:
    """The panel for this context's viewer (:func:`clock_panel_data`), or nothing but a line
    end when the game does not run."""
    data = clock_panel_data(context)
    if not data["show"]:
        return mark_safe("\n")  # noqa: S308 (nothing but a line end)
    words = words_here(_PANEL_WORDS)
    drawn = ['\n<div id="clock-panel" class="clock-panel">\n  ']
    if data["on_leave"]:
        drawn.append(
            '\n    <ul class="clock-panel__leave"'
            f' aria-label="{words["Players on leave"]}">\n      '
        )
        drawn += (_away(away) for away in data["on_leave"])
        drawn.append("\n    </ul>\n  ")
    drawn.append("\n  ")
    if data["notices"]:
        drawn.append(
            f'\n    <ul class="clock-panel__notices" aria-label="{words["Table notices"]}">\n      '
        )
        drawn += (
            f"<li>{escaped(when(notice['when']))} {escaped(notice['text'])}</li>"
            for notice in data["notices"]
        )
        drawn.append("\n    </ul>\n  ")
    drawn.append("\n  ")
    extend_seat = data["extend_seat"]
    if extend_seat:
        game = data["game"]
        url = escaped(table_url("deadline_extend", game.pk))
        give = gettext("Give %(name)s 24 more hours") % {
            "name": escaped(localized(extend_seat.player.display_name))
        }
        drawn.append(
            _EXTEND.format(
                url=url,
                csrf=csrf_input(context),
                seat=escaped(localized(extend_seat.position)),
                version=escaped(localized(game.version)),
                give=give,
                once=words["Each player can be given more time once per game."],
            )
        )
    else:
        drawn.append("\n")
    drawn.append("\n  ")
    drawn.append(standing_orders_markup(data["orders"], data["order_url"], context))
    drawn.append("\n</div>\n\n")
    return mark_safe("".join(drawn))  # noqa: S308 (every value escaped)


def _away(away: dict[str, Any]) -> str:
    """A member on leave: ``{% blocktranslate trimmed with name=… end=…|date:"DATE_FORMAT" %}``
    (both values escaped, the translation not), then the leave's reason, if any."""
    leave = away["leave"]
    said = gettext("%(name)s is on leave until %(end)s: their clock is paused.") % {
        "name": escaped(localized(away["player"].display_name)),
        "end": escaped(date(leave.end, "DATE_FORMAT")),
    }
    reason = f" <em>{escaped(leave.reason)}</em>" if leave.reason else ""
    return f"\n        <li>{said}{reason}</li>\n      "


def clock_panel_data(context: template.Context) -> dict:
    """What the panel shows this viewer: nothing unless the game runs (``show``)."""
    game: Game | None = context.get("game")
    if game is None or game.status != Game.Status.RUNNING:
        return {"show": False}
    position = context.get("position")
    my_seat = context.get("my_seat")
    viewer = my_seat.player if my_seat is not None else None
    # The board's own view of this viewer (games/rendering.py board_context): the orders read
    # the pile from it instead of asking the engine again.
    orders = (
        standing_orders_for(game, position, view=context.get("view"))
        if position is not None
        else []
    )
    return {
        "show": True,
        "game": game,
        "csrf_token": context.get("csrf_token"),
        "on_leave": players_on_leave(game, seats=context.get("seats")),
        "notices": table_notices(game, limit=PANEL_NOTICES),
        "extend_seat": extension_available(game, viewer, context.get("seats")),
        "orders": orders,
        # Each order's form posts here: worked out once, not twice per card.
        "order_url": table_url("standing_order_set", game.pk) if orders else "",
    }


_ORDER_WORDS = (
    gettext_noop("Standing orders"),
    gettext_noop(
        "Say now how each of your cards should be carried out when it resolves. If the order"
        " is not possible then, you will be asked."
    ),
    gettext_noop("Ask me when it resolves"),
    gettext_noop("Save"),
    gettext_noop("Card %(number)s: %(card)s"),
)
_ORDER = (
    "\n      <li>\n"
    '        <form method="post" action="{url}" hx-post="{url}" hx-target="#game-live"'
    ' hx-swap="outerHTML">{csrf}\n'
    '          <input type="hidden" name="pile_index" value="{index}">\n'
    '          <label for="order-{index}">{card}</label>\n'
    '          <select id="order-{index}" name="choice">\n'
    '            <option value="">{ask}</option>\n'
    "            {options}\n"
    "          </select>\n"
    '          <button class="button button--small">{save}</button>\n'
    "        </form>\n"
    "      </li>\n    "
)


@register.simple_tag(takes_context=True)
def standing_orders_form(context: template.Context) -> SafeString:
    """Colt Express's standing orders (this context's ``orders``, posting to its
    ``order_url``): :func:`standing_orders_markup`, as a tag. The panel calls the function;
    the tag is what its old template called, and the tests compare both with the templates
    they replaced."""
    return standing_orders_markup(context.get("orders"), context.get("order_url"), context)


def standing_orders_markup(orders: Any, order_url: Any, context: template.Context) -> SafeString:
    """A form per card of the member's on the pile, each choice an option — byte for byte
    what clocks/standing_orders.html drew (tests/clocks/test_clocks_standing_orders.py keeps
    it). A card's dozen options were a loop of tags each: half a millisecond of every Colt
    page, answer and push. ``context``: where the page's CSRF token is."""
    if not orders:
        return mark_safe("\n")  # noqa: S308 (nothing but a line end)
    words = words_here(_ORDER_WORDS)
    url = escaped(order_url)
    csrf = csrf_input(context)
    drawn = []
    for order in orders:
        index = escaped(localized(field(order, "pile_index")))
        chosen = field(order, "chosen")
        options = "".join(
            f'<option value="{escaped(value)}"{" selected" if value == chosen else ""}>'
            f"{escaped(label)}</option>"
            for value, label in field(order, "choices") or ()
        )
        number = field(order, "pile_index")
        card = words["Card %(number)s: %(card)s"] % {
            "number": escaped(localized(number + 1 if isinstance(number, int) else number)),
            "card": escaped(field(order, "card_label")),
        }
        drawn.append(
            _ORDER.format(
                url=url,
                csrf=csrf,
                index=index,
                card=card,
                ask=words["Ask me when it resolves"],
                options=options,
                save=words["Save"],
            )
        )
    count = len(orders)
    cards = ngettext(
        "%(cards)s card of yours on the pile", "%(cards)s cards of yours on the pile", count
    ) % {"cards": escaped(localized(count))}
    say_now = words[_ORDER_WORDS[1]]
    return mark_safe(  # noqa: S308 (every value escaped)
        '\n<details class="standing-orders">\n  <summary><h2 id="standing-orders-title">'
        f'{words["Standing orders"]}</h2> <span class="muted">{cards}</span></summary>\n'
        f'  <p class="muted">{say_now}</p>\n  <ol class="standing-orders__list">\n    '
        + "".join(drawn)
        + "\n  </ol>\n</details>\n\n"
    )
