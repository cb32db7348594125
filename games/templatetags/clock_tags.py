"""``{% clock_panel %}`` on the game page: who is on leave, the clock's notices, the "+24 h"
button and (Colt Express) the member's standing orders — rendered for the page's viewer.

The standing orders' forms are drawn by ``{% standing_orders_form %}`` (the panel's own
template calls it). Its reads are kept on the game it is drawn from (games/selectors.py
``read_once``): the answer to a move shares the leave the turn clock read, and every viewer
of one broadcast shares one read of each."""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext_noop, ngettext

from games.models import Game
from games.services.clocks import extension_available, players_on_leave
from games.services.notifications import table_notices
from games.services.standing_orders import standing_orders_for
from games.templatetags.drawing import csrf_input, field, words_here
from games.templatetags.escaping import escaped, localized

register = template.Library()
PANEL_NOTICES = 5


PANEL_TEMPLATE = "clocks/panel.html"
PANEL_PARTS = ("on_leave", "notices", "extend_seat", "orders")
# A panel with nothing on it — a running table's with every part empty (most tables, on
# every page, answer and push), or none at all — is the same markup every time: drawn once
# per process and language.
_EMPTY: dict[tuple[bool, str | None], SafeString] = {}


@register.simple_tag(takes_context=True)
def clock_panel(context: template.Context) -> SafeString:
    """The panel, drawn as an inclusion tag would draw ``clocks/panel.html`` with
    :func:`clock_panel_data`, but an empty one only once."""
    data = clock_panel_data(context)
    panel = context.template.engine.get_template(PANEL_TEMPLATE)
    if data["show"] and any(data[part] for part in PANEL_PARTS):
        return panel.render(context.new(data))
    key = (data["show"], get_language())
    drawn = _EMPTY.get(key)
    if drawn is None:
        drawn = _EMPTY[key] = panel.render(context.new(data))
    return drawn


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
        # Each order's form posts here: reversed once, not twice per card.
        "order_url": reverse("standing_order_set", args=[game.pk]) if orders else "",
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
    """Colt Express's standing orders in the clock panel: a form per card of the member's on
    the pile, each choice an option — byte for byte what clocks/standing_orders.html drew
    (tests/clocks/test_clocks_standing_orders.py keeps it). A card's dozen options were a
    loop of tags each: half a millisecond of every Colt page, answer and push."""
    orders = context.get("orders")
    if not orders:
        return mark_safe("\n")  # noqa: S308 (nothing but a line end)
    words = words_here(_ORDER_WORDS)
    url = escaped(context.get("order_url"))
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
