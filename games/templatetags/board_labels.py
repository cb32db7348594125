"""Names and counts on the boards as template filters, in the page's language:
``{{ half.cargo|cargo_name }}``, ``{{ card|colt_card_name }}``, ``{{ card.id|napad_card_label }}``,
``{{ half.bullets|bullets_count }}`` and the seats' counts; the game terms the engines hand
over as data — ``{{ seat.gang|gang_name }}``, ``{{ view.round_card.name|colt_round_card }}``,
``{{ turn|colt_turn }}``, ``{{ seat.bot_kind|bot_name }}``,
``{{ view.phase|phase_name:game.kind }}`` — and ``{{ text|translated }}`` for a message an
engine marked (a round card's event).

The terms are the engines' own (``games/engines/<game>/wording.py``, the rulebooks' words;
``docs/glossary.md``), so the board and the log say the same word for the same thing.

Filters rather than an ``{% include %}`` of a small template or a ``{% blocktranslate %}``: these
texts are drawn inside loops over every card, half and seat, where an include costs a template
lookup, a context push and a chain of ``{% if %}`` tags, and a blocktranslate a context push and
a render of its own — many times a dictionary lookup and one ``gettext``. The msgids are the ones
the templates used, and the output is the same: like blocktranslate, the number is localized and
escaped, the translated text is not escaped again.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.template.defaulttags import CsrfTokenNode
from django.utils.formats import localize
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, gettext_noop, ngettext

from games.engines.colt.data import CARD_LABELS, TURN_LABELS
from games.engines.colt.wording import ROUND_CARD_NAMES
from games.engines.napad.wording import CARGO_NAMES, GANG_NAMES
from games.templatetags.escaping import escaped
from games.templatetags.when_tags import on_date
from games.wording import bot_label, phase_label

register = template.Library()

COLT_CARD_NAMES = CARD_LABELS
BULLET_CARD = "bullet:"
BULLET_NAME = gettext_noop("Bullet")


def _term(terms: dict[str, str], value: Any) -> Any:
    name = terms.get(value) if isinstance(value, str) else None
    return value if name is None else gettext(name)


@register.filter
def cargo_name(cargo: Any) -> Any:
    """A Napad cargo in words; anything else as it is."""
    return _term(CARGO_NAMES, cargo)


@register.filter
def gang_name(gang: Any) -> Any:
    """A Napad gang in words ("Mexicans"); a gang an organiser named otherwise as it is."""
    return _term(GANG_NAMES, gang)


@register.filter
def colt_round_card(name: Any) -> Any:
    """A Colt Express round card's name ("Angry Marshal")."""
    return _term(ROUND_CARD_NAMES, name)


@register.filter
def colt_turn(turn: Any) -> Any:
    """A turn of a round card ("N", "T", "S", "R") in words."""
    return _term(TURN_LABELS, turn)


@register.filter
def colt_card_name(card: Any) -> Any:
    """A Colt Express action card in words ("bullet:<seat>" cards are all "Bullet")."""
    if not isinstance(card, str):
        return card
    name = COLT_CARD_NAMES.get(card)
    if name is None and card.startswith(BULLET_CARD):
        name = BULLET_NAME
    return card if name is None else gettext(name)


@register.filter
def bot_name(kind: Any) -> Any:
    """A bot kind in words ("heuristic")."""
    return bot_label(kind)


@register.filter
def phase_name(phase: Any, game_kind: str | None = None) -> Any:
    """A phase of the game ("It's a robbery!", "Stealin'", "pickpocket" → its event)."""
    return phase_label(game_kind, phase)


@register.filter
def translated(text: Any) -> Any:
    """A message an engine marked for translation (``gettext_noop``), in the page's language."""
    return gettext(text) if isinstance(text, str) and text else text


def _filled(text: str, **values: Any) -> SafeString:
    """``text`` (already translated) with each value localized and escaped, as blocktranslate
    fills its placeholders."""
    filled = text % {key: conditional_escape(localize(v)) for key, v in values.items()}
    return mark_safe(filled)  # noqa: S308 (the catalogue's text, escaped values)


@register.filter
def napad_card_label(card_id: Any) -> SafeString:
    """ "Card 12": a gang card's name for screen readers."""
    return _filled(gettext("Card %(id)s"), id=card_id)


@register.filter
def bullets_count(bullets: Any) -> SafeString:
    """ "3 bullets" on a card half or a wagon."""
    return _filled(ngettext("%(bullets)s bullet", "%(bullets)s bullets", bullets), bullets=bullets)


@register.filter
def cards_in_hand(cards: Any) -> SafeString:
    return _filled(
        ngettext("%(cards)s card in hand", "%(cards)s cards in hand", cards), cards=cards
    )


@register.filter
def cards_in_hideout(cards: Any) -> SafeString:
    return _filled(
        ngettext("%(cards)s in the hideout", "%(cards)s in the hideout", cards), cards=cards
    )


@register.filter
def wagons_captured(wagons: Any) -> SafeString:
    return _filled(
        ngettext("%(wagons)s wagon captured", "%(wagons)s wagons captured", wagons),
        wagons=wagons,
    )


@register.filter
def napad_send_label(half: Any) -> SafeString:
    """ "Send it with gold 6 up": the button on one half of a gang card in the hand."""
    if not isinstance(half, dict):
        return mark_safe("")  # noqa: S308 (nothing to show)
    return _filled(
        gettext("Send it with %(cargo)s %(value)s up"),
        cargo=cargo_name(half.get("cargo")),
        value=half.get("value"),
    )


@register.filter
def colt_play_label(card: Any) -> SafeString:
    """ "Play Move": a Schemin' button on a card of the hand."""
    return _filled(gettext("Play %(card)s"), card=colt_card_name(card))


@register.filter
def colt_play_face_down_label(card: Any) -> SafeString:
    """ "Play Move face down"."""
    return _filled(gettext("Play %(card)s face down"), card=colt_card_name(card))


def _napad_played_card(card: dict[str, Any], seat: int) -> str:
    up = card.get("colour")
    halves = "".join(
        '<div class="gang-card__half gang-card__half--{colour}{down}">'
        '<span class="gang-card__value">{value}</span>{bullets}</div>'.format(
            colour=escaped(half.get("colour")),
            down=" is-down" if half.get("colour") != up else "",
            value=escaped(half.get("value")),
            bullets=(
                '<span class="gang-card__bullets" aria-hidden="true">• {}</span>'.format(
                    escaped(half["bullets"])
                )
                if half.get("bullets")
                else ""
            ),
        )
        for half in card.get("halves", ())
    )
    return (
        '<div class="gang-card gang-card--played gang-card--up-{up}" data-flip="card-{seat}-{id}"'
        ' role="img" aria-label="{label}">{halves}</div>'.format(
            up=escaped(up),
            seat=escaped(seat),
            id=escaped(card.get("id")),
            label=escaped(card.get("label", "")),
            halves=halves,
        )
    )


@register.simple_tag
def napad_played_cards(cards: Any, seat: int) -> SafeString:
    """The gang cards a Napad seat played of one colour, each face up with the half it was
    sent with.

    Drawn here rather than by a template partial per card: a late board holds 20–30 of them,
    and the partial's two dozen variable lookups and tags cost about 85 µs a card (22 cards
    1.9 ms, against 0.6 ms for 25 drawn here one by one). The markup (every value escaped, numbers
    as they are, as ``{% localize off %}`` prints them) is what the partial drew."""
    html = "".join(_napad_played_card(card, seat) for card in cards or ())
    return mark_safe(html)  # noqa: S308 (every value in it is escaped)


# Colt Express's train, one car at a time, as templates/games/colt/board.html drew it with a
# loop over the cars and a partial per bandit and per spot's loot (the loop's whitespace
# included, so the markup is the same byte for byte).
_COLT_CAR = (
    '\n      <li class="car{locomotive}{caboose_class}" data-mark="car-{index}">'
    '\n        <div class="car__name"><span class="car__label">{label}</span>{caboose}</div>'
    '\n        <div class="car__spot car__spot--roof" data-mark="{roof_mark}" aria-label="{roof}">'
    "\n          {roof_bandits}"
    "\n          {roof_loot}"
    "\n        </div>"
    '\n        <div class="car__spot car__spot--inside" data-mark="{inside_mark}"'
    ' aria-label="{inside}">'
    "\n          {marshal}"
    "\n          {inside_bandits}"
    "\n          {inside_loot}"
    "\n        </div>"
    '\n        <svg class="car__wheels" viewBox="0 0 100 14" preserveAspectRatio="none"'
    ' aria-hidden="true" focusable="false"><circle cx="20" cy="7" r="6" fill="#222"/>'
    '<circle cx="80" cy="7" r="6" fill="#222"/></svg>'
    "\n      </li>"
    "\n    "
)
_LOOT_PIECES = (
    ("strongbox", "▣", gettext_noop("strongbox ($1000)")),
    ("jewel", "◆", gettext_noop("jewel ($500)")),
    ("purse", "$", gettext_noop("purse")),
)


def _field(item: Any, name: str) -> Any:
    """``item.name`` as a template looks it up in the board's data (dicts), or ``""``."""
    return item.get(name, "") if isinstance(item, dict) else ""


def _text(value: Any) -> str:
    """A value as ``{% localize off %}`` prints it, escaped."""
    return escaped(value)


def _said(message: str) -> str:
    """``{% translate message %}``: translated, then escaped as the tag escapes it."""
    return escaped(gettext(message))


def colt_bandit_html(bandit: dict[str, Any]) -> str:
    """One bandit where it stands (the board's ``bandit`` partial)."""
    character = _field(bandit, "character")
    initial = character[:2] if isinstance(character, str) else character  # |slice:":2"
    seat = _text(_field(bandit, "seat"))
    return (
        f'<span class="bandit bandit--{_text(_field(bandit, "css"))}" data-flip="bandit-{seat}"'
        f' data-mark="bandit-{seat}" title="{_text(character)} — {_text(_field(bandit, "name"))}">'
        f'<span class="bandit__initial" aria-hidden="true">{_text(initial)}</span>'
        f'<span class="bandit__name">{_text(character)}</span></span>'
    )


def colt_loot_html(loot: Any, words: dict[str, str]) -> str:
    """The loot lying in one spot (the board's ``loot`` partial)."""
    return "".join(
        f'<span class="loot loot--{name}" title="{words[title]}">{sign} {_text(count)}</span>'
        for name, sign, title in _LOOT_PIECES
        if (count := _field(loot, name))
    )


def _colt_car(car: dict[str, Any], words: dict[str, str]) -> str:
    roof, inside = _field(car, "roof"), _field(car, "inside")
    if _field(car, "is_locomotive"):
        label = words["Locomotive"]
    else:
        label = words["Car %(name)s"] % {"name": _text(_field(car, "name"))}
    caboose = _field(car, "is_caboose")
    marshal = ""
    if _field(car, "marshal"):
        marshal = (
            f'<span class="marshal" data-flip="marshal" data-mark="marshal"'
            f' title="{words["The marshal"]}">★<span class="marshal__name">'
            f" {words['Marshal']}</span></span>"
        )
    return _COLT_CAR.format(
        locomotive=" car--locomotive" if _field(car, "is_locomotive") else "",
        caboose_class=" car--caboose" if caboose else "",
        index=_text(_field(car, "index")),
        label=label,
        caboose=f' <span class="car__caboose">{words["caboose"]}</span>' if caboose else "",
        roof_mark=_text(_field(roof, "mark")),
        roof=words["roof"],
        roof_bandits="".join(colt_bandit_html(b) for b in _field(roof, "bandits") or ()),
        roof_loot=colt_loot_html(_field(roof, "loot"), words),
        inside_mark=_text(_field(inside, "mark")),
        inside=words["inside"],
        marshal=marshal,
        inside_bandits="".join(colt_bandit_html(b) for b in _field(inside, "bandits") or ()),
        inside_loot=colt_loot_html(_field(inside, "loot"), words),
    )


# What the cars say, as {% translate %} said it (escaped) — "Car %(name)s" as blocktranslate
# uses it (not escaped; the name is) —, looked up once per train rather than once per car.
_CAR_WORDS = (
    gettext_noop("Locomotive"),
    gettext_noop("caboose"),
    gettext_noop("roof"),
    gettext_noop("inside"),
    gettext_noop("The marshal"),
    gettext_noop("Marshal"),
)


def _car_words() -> dict[str, str]:
    words = {message: _said(message) for message in _CAR_WORDS}
    words.update({title: _said(title) for _name, _sign, title in _LOOT_PIECES})
    words["Car %(name)s"] = gettext("Car %(name)s")
    return words


@register.simple_tag
def colt_train_cars(cars: Any) -> SafeString:
    """Colt Express's cars, locomotive first, each with its roof and inside: the bandits
    standing there, the loot lying there and the marshal.

    Drawn here rather than by a loop of partials: the train is drawn on every page, answer
    and push, and the loop with a partial per bandit and per spot's loot cost 0.55–0.69 ms
    for a four-player train (five cars) against 0.09 ms here. The markup (every value
    escaped, numbers as they are, as ``{% localize off %}`` prints them) is what the loop
    drew; tests/site/test_colt_train_cars.py compares the two on played games."""
    words = _car_words()
    return mark_safe("".join(_colt_car(car, words) for car in cars or ()))  # noqa: S308


# To jest napad!'s seats, as templates/games/napad/board.html drew them with a loop per seat
# (its whitespace included, so the markup is the same byte for byte).
_NAPAD_SEAT = (
    '\n      <li class="napad-seat{classes}" data-mark="seat-{seat}">'
    '\n        <h3 class="napad-seat__name">'
    '\n          {name} <small class="gang">{gang}</small>'
    "\n          {badges}"
    "\n          {bot}"
    "\n        </h3>"
    '\n        <p class="napad-seat__counts" data-mark="captured-{seat}">'
    "\n          {in_hand}"
    "\n          · {in_hideout}"
    "\n          · {captured}"
    "\n          {by_colour}"
    "\n        </p>"
    "\n        {loot}"
    "\n        {played}"
    "\n      </li>"
    "\n    "
)
_NAPAD_BADGES = "\n            {marker}\n            {turn}\n            {passed}\n          "
_NAPAD_SEAT_WORDS = (
    gettext_noop("Starting player marker"),
    gettext_noop("marker"),
    gettext_noop("to move"),
    gettext_noop("passed"),
    gettext_noop("bot"),
    gettext_noop("Your wagons"),
    gettext_noop("Wagons"),
)


class _Said(dict):
    """Each label filter's words for a value, said once per board: four seats share most
    counts and cargoes, and every gettext looks up the language again."""

    def __call__(self, label: Any, value: Any) -> Any:
        key = (label, value)
        if not isinstance(value, (str, int, type(None))):
            return label(value)  # an odd value (not a key): said each time
        if key not in self:
            self[key] = label(value)
        return self[key]


def _napad_seat(seat: dict[str, Any], over: Any, words: dict[str, str], said: _Said) -> str:
    number = _field(seat, "seat")
    classes = "".join(
        (
            " is-turn" if _field(seat, "is_turn") and not over else "",
            " is-me" if _field(seat, "is_viewer") else "",
            " has-passed" if _field(seat, "passed") and not over else "",
        )
    )
    badges = ""
    if not over:
        badges = _NAPAD_BADGES.format(
            marker=(
                f'<span class="badge badge--marker" title="{words["Starting player marker"]}">'
                f"★ {words['marker']}</span>"
                if _field(seat, "is_marker")
                else ""
            ),
            turn=(
                f'<span class="badge badge--turn">{words["to move"]}</span>'
                if _field(seat, "is_turn")
                else ""
            ),
            passed=(
                f'<span class="badge badge--passed">{words["passed"]}</span>'
                if _field(seat, "passed")
                else ""
            ),
        )
    bot = ""
    if since := _field(seat, "stand_in_since"):
        since_text = gettext("since %(since)s") % {"since": escaped(on_date(since))}
        bot = f'<span class="badge badge--bot">{words["bot"]} · {since_text}</span>'
    by_colour = ""
    if _field(seat, "captured_count"):
        counts = "".join(
            f'<span class="by-colour"><span class="dot dot--{escaped(colour)}"></span>'
            f"{escaped(count)}</span>"
            for colour, count in (_field(seat, "captured_by_colour") or {}).items()
            if count
        )
        by_colour = f'<span class="napad-seat__by-colour">({counts})</span>'
    loot = ""
    if captured := _field(seat, "captured"):
        chips = "".join(
            f'<span class="chip chip--{escaped(_field(wagon, "colour"))}"'
            f' data-flip="wagon-{escaped(_field(wagon, "id"))}">'
            f"{escaped(_field(wagon, 'value'))}</span> "
            for wagon in captured
        )
        whose = words["Your wagons"] if _field(seat, "is_viewer") else words["Wagons"]
        loot = (
            f'\n          <p class="napad-seat__loot">{whose}:\n            {chips}'
            "\n          </p>\n        "
        )
    played = ""
    if groups := _field(seat, "played_by_colour"):
        drawn = "".join(
            f'\n              <div class="played__group played__group--{escaped(colour)}"'
            f' data-mark="played-{escaped(number)}-{escaped(colour)}">'
            f'\n                <span class="played__total">'
            f"{escaped(said(cargo_name, _field(group, 'cargo')))}: "
            f"{escaped(_field(group, 'total'))}"
            f"</span>\n                {napad_played_cards(_field(group, 'cards'), number)}"
            "\n              </div>\n            "
            for group in groups
            for colour in (_field(group, "colour"),)
        )
        played = (
            f'\n          <div class="played">\n            {drawn}\n          </div>\n        '
        )
    return _NAPAD_SEAT.format(
        classes=classes,
        seat=escaped(number),
        name=escaped(_field(seat, "name")),
        gang=escaped(said(gang_name, _field(seat, "gang"))),
        badges=badges,
        bot=bot,
        in_hand=said(cards_in_hand, _field(seat, "hand_size")),
        in_hideout=said(cards_in_hideout, _field(seat, "hideout_size")),
        captured=said(wagons_captured, _field(seat, "captured_count")),
        by_colour=by_colour,
        loot=loot,
        played=played,
    )


@register.simple_tag
def napad_seats(view: Any) -> SafeString:
    """To jest napad!'s seats: each gang's name, badges, counts, captured wagons and the
    cards it played, by colour: ``{% napad_seats view %}``.

    Drawn here rather than by a loop per seat: four seats' two dozen tags and filters each
    cost 0.5–0.9 ms a board in the template against 0.2–0.4 ms here (the counts, cargoes and
    gangs said once per board). The markup (every value
    escaped, numbers as they are, as ``{% localize off %}`` prints them) is what the loop
    drew; tests/site/test_napad_seats.py compares the two on played games."""
    over = _field(view, "over")
    words = {message: _said(message) for message in _NAPAD_SEAT_WORDS}
    seats = _field(view, "seats") or ()
    said = _Said()
    return mark_safe("".join(_napad_seat(seat, over, words, said) for seat in seats))  # noqa: S308


# Colt Express's action pile and bandits' table, as the board's loops drew them (their
# whitespace included, so the markup is the same byte for byte).
_COLT_PILE_CARD = (
    '\n          <li class="pile__card bandit-edge--{css}{classes}"'
    ' data-flip="pile-{index}"{current}>'
    "\n            {face}"
    '\n            <small class="pile__owner">{owner}</small>'
    "\n          </li>"
    "\n        "
)
_COLT_BANDIT_ROW = (
    "\n        <tr{me}>"
    '\n          <th scope="row">{chip} {name}{badges}{bot}</th>'
    '\n          <td data-mark="loot-{seat}">{loot}{worth}</td>'
    '\n          <td data-mark="bullets-{seat}">{bullets_left} / {bullets_received}</td>'
    "\n          <td>{hand_size} / {deck_size}</td>"
    "\n        </tr>"
    "\n      "
)
_COLT_TABLE_WORDS = (
    gettext_noop("face down"),
    gettext_noop("a face-down card"),
    gettext_noop("first player"),
    gettext_noop("to move"),
    gettext_noop("bot"),
    gettext_noop("purses"),
)


def _colt_pile_card(card: dict[str, Any], words: dict[str, str], said: _Said) -> str:
    named = _field(card, "card")
    classes = "".join(
        (
            " is-resolved" if _field(card, "resolved") else "",
            " is-resolving" if _field(card, "is_resolving") else "",
            " is-face-down" if _field(card, "face_down") else "",
            "" if named else " is-hidden",
        )
    )
    if named:
        face = escaped(said(colt_card_name, named))
        if _field(card, "face_down"):
            face += f" <small>({words['face down']})</small>"
    else:
        face = (
            f'<span class="card-back" role="img" aria-label="{words["a face-down card"]}">✦</span>'
        )
    bandit = _field(card, "bandit")
    return _COLT_PILE_CARD.format(
        css=escaped(_field(bandit, "css")),
        classes=classes,
        index=escaped(_field(card, "index")),
        current=' aria-current="step"' if _field(card, "is_resolving") else "",
        face=face,
        owner=escaped(_field(bandit, "character")),
    )


@register.simple_tag
def colt_pile_cards(pile: Any) -> SafeString:
    """The cards of Colt Express's action pile, first played first: ``{% colt_pile_cards
    view.pile %}`` (the markup of the loop it replaced; tests/site/test_colt_train_cars.py)."""
    words = {message: _said(message) for message in _COLT_TABLE_WORDS}
    said = _Said()
    return mark_safe("".join(_colt_pile_card(card, words, said) for card in pile or ()))  # noqa: S308


def _in(value: Any, values: Any) -> bool:
    """``{% if value in values %}``: False where the template's ``in`` would fail."""
    try:
        return value in values
    except TypeError:
        return False


def _colt_bandit_row(bandit: dict[str, Any], view: dict[str, Any], words: dict[str, str]) -> str:
    seat = bandit.get("seat") if isinstance(bandit, dict) else None
    badges = ""
    if view.get("phase") != "over":
        if seat == view.get("first_player"):
            badges += f' <span class="badge">{words["first player"]}</span>'
        if _in(seat, view.get("to_move")):
            badges += f' <span class="badge badge--turn">{words["to move"]}</span>'
    bot = ""
    if since := _field(bandit, "stand_in_since"):
        since_text = gettext("since %(since)s") % {"since": escaped(on_date(since))}
        bot = f' <span class="badge badge--bot">{words["bot"]} · {since_text}</span>'
    worth = ""
    value = bandit.get("loot_value") if isinstance(bandit, dict) else None
    if value is not None:
        worth = gettext("worth $%(value)s") % {"value": escaped(value)}
        if purses := _field(bandit, "purse_values"):
            listed = ", ".join(escaped(purse) for purse in purses)
            worth += f" ({words['purses']}: {listed})"
        worth = f"<br><small>{worth}</small>"
    return _COLT_BANDIT_ROW.format(
        me=' class="is-me"' if seat == view.get("viewer") else "",
        chip=(
            f'<span class="bandit bandit--{escaped(_field(bandit, "css"))}">'
            f'<span class="bandit__name">{escaped(_field(bandit, "character"))}</span></span>'
        ),
        name=escaped(_field(bandit, "name")),
        badges=badges,
        bot=bot,
        seat=escaped(_field(bandit, "seat")),
        loot=colt_loot_html(_field(bandit, "loot"), words),
        worth=worth,
        bullets_left=escaped(_field(bandit, "bullets_left")),
        bullets_received=escaped(_field(bandit, "bullets_received")),
        hand_size=escaped(_field(bandit, "hand_size")),
        deck_size=escaped(_field(bandit, "deck_size")),
    )


@register.simple_tag
def colt_bandit_rows(view: Any) -> SafeString:
    """The bandits' table of Colt Express, a row per bandit — loot, bullets, hand and deck:
    ``{% colt_bandit_rows view %}`` (the markup of the loop it replaced;
    tests/site/test_colt_train_cars.py)."""
    if not isinstance(view, dict):
        return mark_safe("")  # noqa: S308 (nothing to show)
    words = _car_words()  # the loot's titles
    words.update({message: _said(message) for message in _COLT_TABLE_WORDS})
    rows = "".join(_colt_bandit_row(b, view, words) for b in view.get("bandits") or ())
    return mark_safe(rows)  # noqa: S308 (every value escaped)


# The viewer's hand, as the hands' loops drew it (their whitespace included, so the markup is
# the same byte for byte). A card's half, or a play, that may be chosen is a form posting the
# action, with the page's CSRF token as ``{% csrf_token %}`` writes it.
_MOVE_FORM = (
    '<form method="post" action="{url}" hx-post="{url}" hx-target="#game-live"'
    ' hx-swap="outerHTML"{form_class}>{csrf}<input type="hidden" name="action" value="{action}">'
    '<input type="hidden" name="version" value="{version}"><button {button}>{face}</button></form>'
)


def _csrf_input(context: template.Context) -> str:
    return CsrfTokenNode().render(context)


def _napad_half(half: dict[str, Any], form: dict[str, str], viewer: str, said: _Said) -> str:
    colour = escaped(_field(half, "colour"))
    face = (
        f'<span class="gang-card__value">{escaped(_field(half, "value"))}</span>'
        f'<span class="gang-card__cargo">{escaped(said(cargo_name, _field(half, "cargo")))}</span>'
    )
    bullets = _field(half, "bullets")
    if _field(half, "action"):
        if bullets:
            face += (
                f'<span class="gang-card__bullets" aria-hidden="true">• {escaped(bullets)}</span>'
            )
        button = (
            f'class="gang-card__send" aria-label="{escaped(napad_send_label(half))}"'
            f' data-names="wagons-{colour} played-{viewer}-{colour}"'
        )
        drawn = _MOVE_FORM.format(
            **form,
            form_class=f' class="gang-card__half gang-card__half--{colour}"',
            action=escaped(_field(half, "action")),
            button=button,
            face=face,
        )
    else:
        if bullets:
            face += (
                f'<span class="gang-card__bullets" title="{escaped(said(bullets_count, bullets))}">'
                f"• {escaped(bullets)}</span>"
            )
        drawn = f'<div class="gang-card__half gang-card__half--{colour}">{face}</div>'
    return f"\n            \n              {drawn}\n            \n          "


@register.simple_tag(takes_context=True)
def napad_hand_cards(context: template.Context, view: Any, url: Any, version: Any) -> SafeString:
    """To jest napad!'s hand, each card with both halves; a half the viewer may send is a
    button: ``{% napad_hand_cards view act_url game.version %}`` (the markup of the loop it
    replaced; tests/site/test_napad_seats.py)."""
    if not isinstance(view, dict):
        return mark_safe("")  # noqa: S308 (nothing to show)
    viewer = escaped(view.get("viewer"))
    form = {"url": escaped(url), "version": escaped(version), "csrf": _csrf_input(context)}
    said = _Said()
    cards = "".join(
        f'\n        <li class="gang-card" data-flip="card-{viewer}-{escaped(_field(card, "id"))}">'
        "\n          "
        + "".join(_napad_half(half, form, viewer, said) for half in _field(card, "halves") or ())
        + "\n        </li>\n      "
        for card in view.get("hand") or ()
    )
    return mark_safe(cards)  # noqa: S308 (every value escaped)


def _colt_play(entry: dict[str, Any], play: Any, first: bool, form: dict[str, str]) -> str:
    card = _field(entry, "card")
    face_down = _field(play, "face_down")
    label = colt_play_face_down_label(card) if face_down else colt_play_label(card)
    if first:
        face = f'<span class="action-card__name">{escaped(colt_card_name(card))}</span>'
        if face_down:
            face += f"<small>{_said('face down')}</small>"
    else:
        face = _said("face down")
    button_class = "action-card__play" if first else "button button--play"
    return (
        "\n              "
        + _MOVE_FORM.format(
            **form,
            form_class="" if first else ' class="action-card__also"',
            action=escaped(_field(play, "json")),
            button=f'class="{button_class}" aria-label="{escaped(label)}"',
            face=face,
        )
        + "\n            "
    )


@register.simple_tag(takes_context=True)
def colt_hand_cards(context: template.Context, view: Any, url: Any, version: Any) -> SafeString:
    """Colt Express's hand; a card the viewer may play is a button (and face down, a second
    one): ``{% colt_hand_cards view act_url game.version %}`` (the markup of the loop it
    replaced; tests/site/test_colt_train_cars.py)."""
    if not isinstance(view, dict):
        return mark_safe("")  # noqa: S308 (nothing to show)
    form = {"url": escaped(url), "version": escaped(version), "csrf": _csrf_input(context)}
    drawn = []
    for entry in view.get("hand_cards") or ():
        plays = _field(entry, "plays")
        classes = (" action-card--bullet" if _field(entry, "is_bullet") else "") + (
            " is-playable" if plays else ""
        )
        if plays:
            inner = (
                "\n            "
                + "".join(_colt_play(entry, play, i == 0, form) for i, play in enumerate(plays))
                + "\n          "
            )
        else:
            name = escaped(colt_card_name(_field(entry, "card")))
            inner = f'\n            <span class="action-card__name">{name}</span>\n          '
        drawn.append(
            f'\n        <li class="action-card{classes}"'
            f' data-flip="hand-{escaped(_field(entry, "position"))}">\n          {inner}'
            "\n        </li>\n      "
        )
    return mark_safe("".join(drawn))  # noqa: S308 (every value escaped)


# One move button, as templates/games/_act_form.html drew it when included (the same markup,
# byte for byte): the action's form posting to the board's act_url with the page's version.
_MOVE_BUTTON = (
    '<form method="post" action="{url}" hx-post="{url}" hx-target="#game-live"'
    ' hx-swap="outerHTML"{form_class}>{csrf}'
    '\n  <input type="hidden" name="action" value="{action}">'
    '\n  <input type="hidden" name="version" value="{version}">'
    '\n  <button class="button {button_class}"{aria_label}{marks}>{label}</button>'
    "\n</form>\n"
)
_ACT_URL, _GAME_VERSION = template.Variable("act_url"), template.Variable("game.version")


def _looked_up(variable: template.Variable, context: template.Context) -> Any:
    """``{{ variable }}``'s value, or ``""`` where the template would print nothing."""
    try:
        return variable.resolve(context)
    except template.VariableDoesNotExist:
        return ""


@register.simple_tag(takes_context=True)
def move_button(
    context: template.Context,
    action_json: Any,
    label: Any,
    *,
    button_class: Any = "",
    form_class: Any = "",
    aria_label: Any = "",
    marks: Any = "",
) -> SafeString:
    """``{% move_button action.json action.label marks=action.marks %}``: the form of one
    move, what ``{% include "games/_act_form.html" with ... %}`` drew, without a template
    lookup and a context push per button (0.12 ms each)."""
    html = _MOVE_BUTTON.format(
        url=escaped(_looked_up(_ACT_URL, context)),
        form_class=f' class="{escaped(form_class)}"' if form_class else "",
        csrf=_csrf_input(context),
        action=escaped(action_json),
        version=escaped(_looked_up(_GAME_VERSION, context)),
        button_class=escaped(button_class or "button--action"),
        aria_label=f' aria-label="{escaped(aria_label)}"' if aria_label else "",
        marks=f' data-names="{escaped(marks)}"' if marks else "",
        label=escaped(label),
    )
    return mark_safe(html)  # noqa: S308 (every value escaped)
