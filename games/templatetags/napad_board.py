"""To jest napad!'s board drawn in Python, each tag the exact markup of the template it
replaced (templates/games/napad/board.html): the whole board, ``{% napad_board view %}``,
made of ``napad_train_wagons`` (the train's wagons) and ``napad_seats`` (the gangs, with the
cards they played: ``napad_played_cards``), and the hand, ``{% napad_hand view act_url
game.version %}``, made of ``napad_hand_cards``. Pinned by tests/site/test_napad_seats.py and
test_board_labels.py.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, gettext_noop

from games.templatetags.board_labels import (
    bullets_count,
    cards_in_hand,
    cards_in_hideout,
    cargo_name,
    gang_name,
    napad_send_label,
    phase_name,
    wagons_captured,
)
from games.templatetags.drawing import (
    MOVE_FORM,
    SaidOnce,
    csrf_input,
    field,
    said_here,
    say_word,
    words_here,
)
from games.templatetags.escaping import escaped
from games.templatetags.move_buttons import move_button
from games.templatetags.when_tags import on_date

register = template.Library()


def _napad_played_card(card: dict[str, Any], seat: int) -> str:
    up = card.get("colour")
    halves = []
    for half in card.get("halves", ()):
        colour = half.get("colour")
        bullets = half.get("bullets")
        halves.append(
            f'<div class="gang-card__half gang-card__half--{escaped(colour)}'
            f'{"" if colour == up else " is-down"}">'
            f'<span class="gang-card__value">{escaped(half.get("value"))}</span>'
            + (
                f'<span class="gang-card__bullets" aria-hidden="true">• {escaped(bullets)}</span>'
                if bullets
                else ""
            )
            + "</div>"
        )
    return (
        f'<div class="gang-card gang-card--played gang-card--up-{escaped(up)}"'
        f' data-flip="card-{escaped(seat)}-{escaped(card.get("id"))}"'
        f' role="img" aria-label="{escaped(card.get("label", ""))}">{"".join(halves)}</div>'
    )


@register.simple_tag
def napad_played_cards(cards: Any, seat: int) -> SafeString:
    """The gang cards a Napad seat played of one colour, each face up with the half it was
    sent with.

    Drawn here rather than by a template partial per card: a late board holds 20–30 of them,
    and the partial's two dozen variable lookups and tags cost more than the card's words.
    Each card is one f-string per half, cheaper than ``str.format`` with keywords
    (docs/performance.md, "Figures behind the code"). The markup (every value escaped,
    numbers as they are, as ``{% localize off %}`` prints them) is what the partial drew."""
    html = "".join(_napad_played_card(card, seat) for card in cards or ())
    return mark_safe(html)  # noqa: S308 (every value in it is escaped)


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


def _napad_seat(seat: dict[str, Any], over: Any, words: dict[str, str], said: SaidOnce) -> str:
    number = field(seat, "seat")
    classes = "".join(
        (
            " is-turn" if field(seat, "is_turn") and not over else "",
            " is-me" if field(seat, "is_viewer") else "",
            " has-passed" if field(seat, "passed") and not over else "",
        )
    )
    badges = ""
    if not over:
        badges = _NAPAD_BADGES.format(
            marker=(
                f'<span class="badge badge--marker" title="{words["Starting player marker"]}">'
                f"★ {words['marker']}</span>"
                if field(seat, "is_marker")
                else ""
            ),
            turn=(
                f'<span class="badge badge--turn">{words["to move"]}</span>'
                if field(seat, "is_turn")
                else ""
            ),
            passed=(
                f'<span class="badge badge--passed">{words["passed"]}</span>'
                if field(seat, "passed")
                else ""
            ),
        )
    bot = ""
    if since := field(seat, "stand_in_since"):
        since_text = gettext("since %(since)s") % {"since": escaped(on_date(since))}
        bot = f'<span class="badge badge--bot">{words["bot"]} · {since_text}</span>'
    by_colour = ""
    if field(seat, "captured_count"):
        counts = "".join(
            f'<span class="by-colour"><span class="dot dot--{escaped(colour)}"></span>'
            f"{escaped(count)}</span>"
            for colour, count in (field(seat, "captured_by_colour") or {}).items()
            if count
        )
        by_colour = f'<span class="napad-seat__by-colour">({counts})</span>'
    loot = ""
    if captured := field(seat, "captured"):
        chips = "".join(
            f'<span class="chip chip--{escaped(field(wagon, "colour"))}"'
            f' data-flip="wagon-{escaped(field(wagon, "id"))}">'
            f"{escaped(field(wagon, 'value'))}</span> "
            for wagon in captured
        )
        whose = words["Your wagons"] if field(seat, "is_viewer") else words["Wagons"]
        loot = (
            f'\n          <p class="napad-seat__loot">{whose}:\n            {chips}'
            "\n          </p>\n        "
        )
    played = ""
    if groups := field(seat, "played_by_colour"):
        drawn = "".join(
            f'\n              <div class="played__group played__group--{escaped(colour)}"'
            f' data-mark="played-{escaped(number)}-{escaped(colour)}">'
            f'\n                <span class="played__total">'
            f"{escaped(said(cargo_name, field(group, 'cargo')))}: "
            f"{escaped(field(group, 'total'))}"
            f"</span>\n                {napad_played_cards(field(group, 'cards'), number)}"
            "\n              </div>\n            "
            for group in groups
            for colour in (field(group, "colour"),)
        )
        played = (
            f'\n          <div class="played">\n            {drawn}\n          </div>\n        '
        )
    return _NAPAD_SEAT.format(
        classes=classes,
        seat=escaped(number),
        name=escaped(field(seat, "name")),
        gang=escaped(said(gang_name, field(seat, "gang"))),
        badges=badges,
        bot=bot,
        in_hand=said(cards_in_hand, field(seat, "hand_size")),
        in_hideout=said(cards_in_hideout, field(seat, "hideout_size")),
        captured=said(wagons_captured, field(seat, "captured_count")),
        by_colour=by_colour,
        loot=loot,
        played=played,
    )


# One wagon of the train, as the template's loop drew it (its whitespace included).
_WAGON = (
    '\n      <li class="wagon wagon--{colour}" data-flip="wagon-{id}"'
    ' data-mark="wagon-{id} wagons-{colour}">'
    '\n        <svg viewBox="0 0 70 56" width="70" height="56" aria-hidden="true"'
    ' focusable="false">'
    '\n          <rect x="2" y="8" width="66" height="34" rx="4" class="wagon__body"/>'
    '\n          <circle cx="16" cy="47" r="7" fill="#222"/>'
    '<circle cx="54" cy="47" r="7" fill="#222"/>'
    '\n          <text x="35" y="33" text-anchor="middle" class="wagon__value">{value}</text>'
    "\n        </svg>"
    '\n        <span class="wagon__label">{cargo} {value}{bullets}</span>'
    "\n      </li>"
    "\n    "
)
_NO_WAGONS = gettext_noop("No wagons on the train.")


@register.simple_tag
def napad_train_wagons(view: Any) -> SafeString:
    """The wagons still on the train, locomotive first: ``{% napad_train_wagons view %}``.

    Drawn here rather than by a loop with a dozen lookups and filters per wagon, exactly as
    the loop drew it (tests/site/test_napad_seats.py); its cargoes said once per train."""
    train = field(view, "train") or ()
    if not train:
        return mark_safe(  # noqa: S308 (a translated message, escaped)
            f'\n      <li class="train__empty">{say_word(_NO_WAGONS)}</li>\n    '
        )
    said = said_here()
    drawn = []
    for wagon in train:
        value = escaped(field(wagon, "value"))
        bullets = field(wagon, "bullets")
        drawn.append(
            _WAGON.format(
                colour=escaped(field(wagon, "colour")),
                id=escaped(field(wagon, "id")),
                value=value,
                cargo=escaped(said(cargo_name, field(wagon, "cargo"))),
                bullets=f" · {escaped(bullets_count(bullets))}" if bullets else "",
            )
        )
    return mark_safe("".join(drawn))  # noqa: S308 (every value escaped above)


@register.simple_tag
def napad_seats(view: Any) -> SafeString:
    """To jest napad!'s seats: each gang's name, badges, counts, captured wagons and the
    cards it played, by colour: ``{% napad_seats view %}``.

    Drawn here rather than by a loop per seat: four seats' two dozen tags and filters each
    cost more in the template than here, where the counts, cargoes and gangs are said once per
    board (docs/performance.md). The markup (every value
    escaped, numbers as they are, as ``{% localize off %}`` prints them) is what the loop
    drew; tests/site/test_napad_seats.py compares the two on played games."""
    over = field(view, "over")
    words = words_here(_NAPAD_SEAT_WORDS)
    seats = field(view, "seats") or ()
    said = said_here()
    return mark_safe("".join(_napad_seat(seat, over, words, said) for seat in seats))  # noqa: S308


def _napad_half(half: dict[str, Any], form: dict[str, str], viewer: str, said: SaidOnce) -> str:
    colour = escaped(field(half, "colour"))
    face = (
        f'<span class="gang-card__value">{escaped(field(half, "value"))}</span>'
        f'<span class="gang-card__cargo">{escaped(said(cargo_name, field(half, "cargo")))}</span>'
    )
    bullets = field(half, "bullets")
    if field(half, "action"):
        if bullets:
            face += (
                f'<span class="gang-card__bullets" aria-hidden="true">• {escaped(bullets)}</span>'
            )
        button = (
            f'class="gang-card__send" aria-label="{escaped(napad_send_label(half))}"'
            f' data-names="wagons-{colour} played-{viewer}-{colour}"'
        )
        drawn = MOVE_FORM.format(
            **form,
            form_class=f' class="gang-card__half gang-card__half--{colour}"',
            action=escaped(field(half, "action")),
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
    form = {"url": escaped(url), "version": escaped(version), "csrf": csrf_input(context)}
    said = said_here()
    cards = "".join(
        f'\n        <li class="gang-card" data-flip="card-{viewer}-{escaped(field(card, "id"))}">'
        "\n          "
        + "".join(_napad_half(half, form, viewer, said) for half in field(card, "halves") or ())
        + "\n        </li>\n      "
        for card in view.get("hand") or ()
    )
    return mark_safe(cards)  # noqa: S308 (every value escaped)


# -- the whole board ------------------------------------------------------------------------

_NAPAD_BOARD_WORDS = (
    gettext_noop("game over"),
    gettext_noop("It's a robbery!"),
    gettext_noop("Wagons left in the treasury"),
    gettext_noop("The train, locomotive first"),
    gettext_noop("Locomotive"),
    gettext_noop("Round %(round)s of %(rounds)s"),
)
# The board's markup around its train and seats, as templates/games/napad/board.html drew it.
_NAPAD_LOCOMOTIVE = (
    '      <svg viewBox="0 0 80 56" width="80" height="56" aria-hidden="true" focusable="false">\n'
    '        <rect x="6" y="14" width="44" height="28" rx="3" fill="#3a3a3a"/>\n'
    '        <rect x="48" y="6" width="26" height="36" rx="3" fill="#555"/>\n'
    '        <rect x="53" y="11" width="16" height="11" fill="#f7e7b4"/>\n'
    '        <rect x="14" y="4" width="9" height="12" fill="#3a3a3a"/>\n'
    '        <circle cx="18" cy="46" r="7" fill="#222"/>'
    '<circle cx="40" cy="46" r="7" fill="#222"/>'
    '<circle cx="63" cy="46" r="7" fill="#222"/>\n'
    "      </svg>"
)
_NAPAD_BOARD = (
    '<div class="napad-board">\n  <p class="board__meta">\n    {round}\n    · {phase}\n'
    '    · {wagons_left}: {treasury}\n  </p>\n\n  <div class="train-scroll">\n'
    '  <ol class="train" aria-label="{train}">\n    <li class="train__loco" aria-label="{loco}">\n'
    + _NAPAD_LOCOMOTIVE
    + "\n    </li>\n    {wagons}\n  </ol>\n  </div>\n\n"
    '  <ul class="napad-seats">\n    {seats}\n  </ul>\n</div>\n'
)


@register.simple_tag
def napad_board(view: Any) -> SafeString:
    """To jest napad!'s whole board: ``{% napad_board view %}`` — the round, the phase and the
    treasury, the train (``napad_train_wagons``) and the seats (``napad_seats``), byte for
    byte what the board's ``board`` partial drew (tests/site/test_napad_seats.py keeps it)."""
    words = words_here(_NAPAD_BOARD_WORDS)
    said = said_here()
    if field(view, "over"):
        phase = words["game over"]
    elif field(view, "phase") == "robbery":
        phase = words["It's a robbery!"]
    else:
        phase = escaped(phase_name(field(view, "phase"), "napad"))
    treasury = field(view, "treasury") or {}
    return mark_safe(  # noqa: S308 (every value escaped; the tags escape theirs)
        _NAPAD_BOARD.format(
            round=words["Round %(round)s of %(rounds)s"]
            % {"round": escaped(field(view, "round")), "rounds": escaped(field(view, "rounds"))},
            phase=phase,
            wagons_left=words["Wagons left in the treasury"],
            treasury=", ".join(
                f"{escaped(said(cargo_name, cargo))} {escaped(count)}"
                for cargo, count in treasury.items()
            ),
            train=words["The train, locomotive first"],
            loco=words["Locomotive"],
            wagons=napad_train_wagons(view),
            seats=napad_seats(view),
        )
    )


_NAPAD_HAND_WORDS = (
    gettext_noop("Your hand"),
    gettext_noop("Your cards: send one with the half you choose up"),
    gettext_noop("No cards in hand."),
    gettext_noop("Pass"),
)


@register.simple_tag(takes_context=True)
def napad_hand(context: template.Context, view: Any, url: Any, version: Any) -> SafeString:
    """To jest napad!'s hand, the member's decision: ``{% napad_hand view act_url game.version
    %}`` — its cards (``napad_hand_cards``) and the pass, byte for byte what the board's
    ``hand`` partial drew (tests/site/test_napad_seats.py keeps it)."""
    words = words_here(_NAPAD_HAND_WORDS)
    if field(view, "hand"):
        cards = napad_hand_cards(context, view, url, version)
        aria = words["Your cards: send one with the half you choose up"]
        drawn = f'\n    <ul class="hand__cards" aria-label="{aria}">\n      {cards}\n    </ul>\n  '
    else:
        drawn = f"\n    <p>{words['No cards in hand.']}</p>\n  "
    passing = ""
    if pass_action := field(view, "pass_action"):
        # {% translate "Pass" as pass_label %}: a literal's translation, safe as it is.
        button = move_button(
            context,
            pass_action,
            mark_safe(words["Pass"]),  # noqa: S308 (the catalogue's words, as the tag keeps them)
            button_class="button--quiet button--small",
            form_class="hand__pass",
        )
        passing = f"\n    {button}\n  "
    return mark_safe(  # noqa: S308 (the parts are escaped)
        f'<div class="hand hand--napad">\n  <h2 class="decision__title">{words["Your hand"]}</h2>'
        f"\n  {drawn}\n  {passing}\n</div>\n"
    )
