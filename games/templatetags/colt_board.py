"""Colt Express's board drawn in Python, each tag the exact markup of the template it replaced
(templates/games/colt/board.html): the whole board, ``{% colt_board view %}``, made of
``colt_train_cars``, ``colt_pile_cards`` and ``colt_bandit_rows`` (each a tag of its own
too), and the hand, ``{% colt_hand view act_url game.version %}``, made of
``colt_hand_cards``. Pinned by tests/site/test_colt_train_cars.py."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, gettext_noop, ngettext

from games.templatetags.board_labels import (
    colt_card_name,
    colt_play_face_down_label,
    colt_play_label,
    colt_round_card,
    phase_name,
    translated,
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


def colt_bandit_html(bandit: dict[str, Any]) -> str:
    """One bandit where it stands (the board's ``bandit`` partial)."""
    character = field(bandit, "character")
    initial = character[:2] if isinstance(character, str) else character  # |slice:":2"
    seat = escaped(field(bandit, "seat"))
    return (
        f'<span class="bandit bandit--{escaped(field(bandit, "css"))}" data-flip="bandit-{seat}"'
        f' data-mark="bandit-{seat}"'
        f' title="{escaped(character)} — {escaped(field(bandit, "name"))}">'
        f'<span class="bandit__initial" aria-hidden="true">{escaped(initial)}</span>'
        f'<span class="bandit__name">{escaped(character)}</span></span>'
    )


def colt_loot_html(loot: Any, words: dict[str, str]) -> str:
    """The loot lying in one spot (the board's ``loot`` partial)."""
    return "".join(
        f'<span class="loot loot--{name}" title="{words[title]}">{sign} {escaped(count)}</span>'
        for name, sign, title in _LOOT_PIECES
        if (count := field(loot, name))
    )


def _colt_car(car: dict[str, Any], words: dict[str, str]) -> str:
    roof, inside = field(car, "roof"), field(car, "inside")
    if field(car, "is_locomotive"):
        label = words["Locomotive"]
    else:
        label = words["Car %(name)s"] % {"name": escaped(field(car, "name"))}
    caboose = field(car, "is_caboose")
    marshal = ""
    if field(car, "marshal"):
        marshal = (
            f'<span class="marshal" data-flip="marshal" data-mark="marshal"'
            f' title="{words["The marshal"]}">★<span class="marshal__name">'
            f" {words['Marshal']}</span></span>"
        )
    return _COLT_CAR.format(
        locomotive=" car--locomotive" if field(car, "is_locomotive") else "",
        caboose_class=" car--caboose" if caboose else "",
        index=escaped(field(car, "index")),
        label=label,
        caboose=f' <span class="car__caboose">{words["caboose"]}</span>' if caboose else "",
        roof_mark=escaped(field(roof, "mark")),
        roof=words["roof"],
        roof_bandits="".join(colt_bandit_html(b) for b in field(roof, "bandits") or ()),
        roof_loot=colt_loot_html(field(roof, "loot"), words),
        inside_mark=escaped(field(inside, "mark")),
        inside=words["inside"],
        marshal=marshal,
        inside_bandits="".join(colt_bandit_html(b) for b in field(inside, "bandits") or ()),
        inside_loot=colt_loot_html(field(inside, "loot"), words),
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
    """The cars' words and the board's (``_BOARD_WORDS``), in the page's language."""
    return words_here(_ALL_BOARD_WORDS)


@register.simple_tag
def colt_train_cars(cars: Any) -> SafeString:
    """Colt Express's cars, locomotive first, each with its roof and inside: the bandits
    standing there, the loot lying there and the marshal.

    Drawn here rather than by a loop of partials: the train is drawn on every page, answer
    and push, and a partial per bandit and per spot's loot cost more than this tag does
    (docs/performance.md). The markup (every value
    escaped, numbers as they are, as ``{% localize off %}`` prints them) is what the loop
    drew; tests/site/test_colt_train_cars.py compares the two on played games."""
    words = _car_words()
    return mark_safe("".join(_colt_car(car, words) for car in cars or ()))  # noqa: S308


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


def _colt_pile_card(card: dict[str, Any], words: dict[str, str], said: SaidOnce) -> str:
    named = field(card, "card")
    classes = "".join(
        (
            " is-resolved" if field(card, "resolved") else "",
            " is-resolving" if field(card, "is_resolving") else "",
            " is-face-down" if field(card, "face_down") else "",
            "" if named else " is-hidden",
        )
    )
    if named:
        face = escaped(said(colt_card_name, named))
        if field(card, "face_down"):
            face += f" <small>({words['face down']})</small>"
    else:
        face = (
            f'<span class="card-back" role="img" aria-label="{words["a face-down card"]}">✦</span>'
        )
    bandit = field(card, "bandit")
    return _COLT_PILE_CARD.format(
        css=escaped(field(bandit, "css")),
        classes=classes,
        index=escaped(field(card, "index")),
        current=' aria-current="step"' if field(card, "is_resolving") else "",
        face=face,
        owner=escaped(field(bandit, "character")),
    )


@register.simple_tag
def colt_pile_cards(pile: Any) -> SafeString:
    """The cards of Colt Express's action pile, first played first: ``{% colt_pile_cards
    view.pile %}`` (the markup of the loop it replaced; tests/site/test_colt_train_cars.py)."""
    words = words_here(_COLT_TABLE_WORDS)
    said = said_here()
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
    if since := field(bandit, "stand_in_since"):
        since_text = gettext("since %(since)s") % {"since": escaped(on_date(since))}
        bot = f' <span class="badge badge--bot">{words["bot"]} · {since_text}</span>'
    worth = ""
    value = bandit.get("loot_value") if isinstance(bandit, dict) else None
    if value is not None:
        worth = gettext("worth $%(value)s") % {"value": escaped(value)}
        if purses := field(bandit, "purse_values"):
            listed = ", ".join(escaped(purse) for purse in purses)
            worth += f" ({words['purses']}: {listed})"
        worth = f"<br><small>{worth}</small>"
    return _COLT_BANDIT_ROW.format(
        me=' class="is-me"' if seat == view.get("viewer") else "",
        chip=(
            f'<span class="bandit bandit--{escaped(field(bandit, "css"))}">'
            f'<span class="bandit__name">{escaped(field(bandit, "character"))}</span></span>'
        ),
        name=escaped(field(bandit, "name")),
        badges=badges,
        bot=bot,
        seat=escaped(field(bandit, "seat")),
        loot=colt_loot_html(field(bandit, "loot"), words),
        worth=worth,
        bullets_left=escaped(field(bandit, "bullets_left")),
        bullets_received=escaped(field(bandit, "bullets_received")),
        hand_size=escaped(field(bandit, "hand_size")),
        deck_size=escaped(field(bandit, "deck_size")),
    )


@register.simple_tag
def colt_bandit_rows(view: Any) -> SafeString:
    """The bandits' table of Colt Express, a row per bandit — loot, bullets, hand and deck:
    ``{% colt_bandit_rows view %}`` (the markup of the loop it replaced;
    tests/site/test_colt_train_cars.py)."""
    if not isinstance(view, dict):
        return mark_safe("")  # noqa: S308 (nothing to show)
    words = _car_words()  # the loot's titles
    words.update({message: say_word(message) for message in _COLT_TABLE_WORDS})
    rows = "".join(_colt_bandit_row(b, view, words) for b in view.get("bandits") or ())
    return mark_safe(rows)  # noqa: S308 (every value escaped)


def _colt_play(entry: dict[str, Any], play: Any, first: bool, form: dict[str, str]) -> str:
    card = field(entry, "card")
    face_down = field(play, "face_down")
    label = colt_play_face_down_label(card) if face_down else colt_play_label(card)
    if first:
        face = f'<span class="action-card__name">{escaped(colt_card_name(card))}</span>'
        if face_down:
            face += f"<small>{say_word('face down')}</small>"
    else:
        face = say_word("face down")
    button_class = "action-card__play" if first else "button button--play"
    return (
        "\n              "
        + MOVE_FORM.format(
            **form,
            form_class="" if first else ' class="action-card__also"',
            action=escaped(field(play, "json")),
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
    form = {"url": escaped(url), "version": escaped(version), "csrf": csrf_input(context)}
    drawn = []
    for entry in view.get("hand_cards") or ():
        plays = field(entry, "plays")
        classes = (" action-card--bullet" if field(entry, "is_bullet") else "") + (
            " is-playable" if plays else ""
        )
        if plays:
            inner = (
                "\n            "
                + "".join(_colt_play(entry, play, i == 0, form) for i, play in enumerate(plays))
                + "\n          "
            )
        else:
            name = escaped(colt_card_name(field(entry, "card")))
            inner = f'\n            <span class="action-card__name">{name}</span>\n          '
        drawn.append(
            f'\n        <li class="action-card{classes}"'
            f' data-flip="hand-{escaped(field(entry, "position"))}">\n          {inner}'
            "\n        </li>\n      "
        )
    return mark_safe("".join(drawn))  # noqa: S308 (every value escaped)


# -- the whole board ------------------------------------------------------------------------

# The round card's turns, as the board's if-chain named them (anything else: no words).
_TURN_WORDS = {
    "N": gettext_noop("Normal"),
    "T": gettext_noop("Tunnel"),
    "S": gettext_noop("Speeding-up"),
    "R": gettext_noop("Switching"),
}
# The phase in the board's first line, as its if-chain named it; other phases by phase_name.
_PHASE_WORDS = {
    "schemin": gettext_noop("Schemin'"),
    "stealin": gettext_noop("Stealin'"),
    "over": gettext_noop("game over"),
    "hide": gettext_noop("Time Machine"),
    "pickpocket": gettext_noop("Stealin'"),
}
# The board's own words, as {% translate %} said them: looked up once per board.
_BOARD_WORDS = (
    gettext_noop("At the end of the round"),
    gettext_noop("Turns of this round"),
    gettext_noop("No cards played yet this round."),
    gettext_noop("Resolving"),
    gettext_noop("Action pile"),
    gettext_noop("first played resolves first"),
    gettext_noop("The train, locomotive first"),
    gettext_noop("Each car: roof above, inside below."),
    gettext_noop("Bandit"),
    gettext_noop("Loot"),
    gettext_noop("Bullets left"),
    gettext_noop("received"),
    gettext_noop("Hand"),
    gettext_noop("Deck"),
    gettext_noop("Time Machine"),
    gettext_noop("Choose how it resolves."),
    gettext_noop("travelled in the Time Machine and hides under a car nobody else knows."),
    gettext_noop("You hide under the locomotive until Stealin' begins; nobody else knows where."),
)
# Everything the board says as written ("Car %(name)s" as blocktranslate says it: the
# catalogue's text, its name escaped when filled in).
_ALL_BOARD_WORDS = (
    *_CAR_WORDS,
    *_BOARD_WORDS,
    *(title for _name, _sign, title in _LOOT_PIECES),
    gettext_noop("Car %(name)s"),
)
_TIME_MACHINE_ICON = (
    '<svg viewBox="0 0 40 40" width="18" height="18" aria-hidden="true" focusable="false">'
    '<circle cx="20" cy="20" r="17" fill="#4b3b8f" stroke="#fff" stroke-width="3"/>'
    '<path d="M20 8v12l8 5" stroke="#fff" stroke-width="3" fill="none"/></svg>'
)


def _colt_meta(view: dict[str, Any]) -> str:
    phase = field(view, "phase")
    phase_words = _PHASE_WORDS.get(phase) if isinstance(phase, str) else None
    said_phase = say_word(phase_words) if phase_words else escaped(phase_name(phase, "colt"))
    cards, bullets = field(view, "round_cards_left"), field(view, "neutral_bullets_left")
    return (
        '\n  <p class="board__meta">\n    '
        + gettext("Round %(round)s of %(rounds)s")
        % {"round": escaped(field(view, "round")), "rounds": escaped(field(view, "rounds_total"))}
        + f"\n    · {said_phase}\n    · "
        + ngettext("%(cards)s round card to come", "%(cards)s round cards to come", cards)
        % {"cards": escaped(cards)}
        + "\n    · "
        + ngettext("%(bullets)s neutral bullet left", "%(bullets)s neutral bullets left", bullets)
        % {"bullets": escaped(bullets)}
        + "\n  </p>\n  "
    )


def _colt_round_card(view: dict[str, Any], words: dict[str, str]) -> str:
    card = field(view, "round_card")
    if not card or field(view, "phase") == "over":
        return ""
    current = field(card, "turn_index")
    turns = []
    for index, turn in enumerate(field(card, "turns") or ()):
        now = index == current
        turn_words = _TURN_WORDS.get(turn) if isinstance(turn, str) else None
        said = say_word(turn_words) if turn_words else ""
        current_class, current_step = (" is-current", ' aria-current="step"') if now else ("", "")
        turns.append(
            f'\n          <li class="turn turn--{escaped(turn)}{current_class}"{current_step}>'
            f"{said}</li>\n        "
        )
    event = field(card, "event")
    said_event = ""
    if event:
        said_event = (
            f'<p class="round-card__event">{words["At the end of the round"]}:'
            f" {escaped(translated(event))}</p>"
        )
    return (
        '\n    <div class="round-card">\n      <strong class="round-card__name">'
        f"{escaped(colt_round_card(field(card, 'name')))}</strong>\n"
        f'      <ol class="round-card__turns" aria-label="{words["Turns of this round"]}">'
        "\n        " + "".join(turns) + "\n      </ol>\n      " + said_event + "\n    </div>\n  "
    )


def _colt_time_machine(view: dict[str, Any], words: dict[str, str]) -> str:
    machine = field(view, "time_machine")
    if not machine:
        return ""
    name = words["Time Machine"]
    bandits = "".join(colt_bandit_html(b) for b in field(machine, "bandits") or ())
    return (
        '\n      <li class="car car--time-machine" data-mark="spot-tm">\n'
        f'        <div class="car__name">{_TIME_MACHINE_ICON} <span class="car__label">{name}'
        "</span></div>\n"
        f'        <div class="car__spot car__spot--machine" data-mark="spot-tm"'
        f' aria-label="{name}">\n          {bandits}\n'
        f"          {colt_loot_html(field(machine, 'loot'), words)}\n        </div>\n"
        "      </li>\n    "
    )


def _colt_hints(view: dict[str, Any], words: dict[str, str]) -> str:
    drawn = ""
    hidden = field(view, "hidden_bandits")
    if hidden:
        chips = "".join(
            f'<span class="bandit bandit--{escaped(field(b, "css"))}"><span class="bandit__name">'
            f"{escaped(field(b, 'character'))}</span></span> "
            for b in hidden
        )
        drawn += (
            f'<p class="hint">{chips}'
            + words["travelled in the Time Machine and hides under a car nobody else knows."]
            + "</p>"
        )
    drawn += "\n  "
    spot = field(view, "my_hidden_spot")
    if spot:
        if field(spot, "is_locomotive"):
            said = words[
                "You hide under the locomotive until Stealin' begins; nobody else knows where."
            ]
        else:
            said = gettext(
                "You hide under car %(car)s until Stealin' begins; nobody else knows where."
            ) % {"car": escaped(field(spot, "name"))}
        drawn += f'<p class="hint">{said}</p>'
    return drawn


def _colt_pile(view: dict[str, Any], words: dict[str, str]) -> str:
    if field(view, "phase") == "over":
        return ""
    pile = field(view, "pile")
    if pile:
        cards = f'\n      <ol class="pile">\n        {colt_pile_cards(pile)}\n      </ol>\n    '
    else:
        cards = f"\n      <p>{words['No cards played yet this round.']}</p>\n    "
    pending = field(view, "pending")
    resolving = ""
    if pending:
        bandit = field(pending, "bandit")
        name = field(bandit, "name")
        card = field(field(pending, "pile_card"), "card")
        if field(pending, "seat") == view.get("viewer"):
            ask = words["Choose how it resolves."]
        else:
            ask = gettext("Waiting for %(name)s to choose.") % {"name": escaped(name)}
        resolving = (
            f'\n      <p class="pending"><strong>{words["Resolving"]}:</strong>'
            f" {escaped(name)} ({escaped(field(bandit, 'character'))})"
            + (f" — {escaped(colt_card_name(card))}" if card else "")
            + f".\n        {ask}\n      </p>\n    "
        )
    return (
        '\n  <div class="colt-pile" data-mark="pile">\n'
        f"    <h3>{words['Action pile']} <small>({words['first played resolves first']})"
        f"</small></h3>\n    {cards}\n    {resolving}\n  </div>\n  "
    )


@register.simple_tag
def colt_board(view: Any) -> SafeString:
    """Colt Express's whole board: ``{% colt_board view %}`` — byte for byte what the board's
    ``board`` partial drew with its tags, loops and if-chains (the first line, the round card,
    the Time Machine, the train, the hints, the action pile, the bandits' table; pinned by
    tests/site/test_colt_train_cars.py)."""
    if not isinstance(view, dict):
        view = {}
    words = _car_words()
    machine = " train-scroll--machine" if field(view, "time_machine") else ""
    return mark_safe(  # noqa: S308 (every value escaped by the parts)
        '<div class="colt-board">'
        + _colt_meta(view)
        + _colt_round_card(view, words)
        + f'\n\n  <div class="train-scroll{machine}">\n'
        f'  <ol class="colt-train" aria-label="{words["The train, locomotive first"]}">\n'
        f"    {_colt_time_machine(view, words)}\n    {colt_train_cars(field(view, 'train'))}\n"
        "  </ol>\n  </div>\n"
        f'  <p class="train-legend muted">{words["Each car: roof above, inside below."]}</p>'
        f"\n  {_colt_hints(view, words)}\n\n  {_colt_pile(view, words)}\n\n"
        '  <table class="bandits">\n    <thead><tr>\n'
        f'      <th scope="col">{words["Bandit"]}</th>\n'
        f'      <th scope="col">{words["Loot"]}</th>\n'
        f'      <th scope="col">{words["Bullets left"]} / {words["received"]}</th>\n'
        f'      <th scope="col">{words["Hand"]} / {words["Deck"]}</th>\n'
        "    </tr></thead>\n    <tbody>\n"
        f"      {colt_bandit_rows(view)}\n    </tbody>\n  </table>\n</div>\n"
    )


_COLT_HAND_WORDS = (
    gettext_noop("Your hand"),
    gettext_noop("Choose a card to play it."),
    gettext_noop("Your cards"),
    gettext_noop("No cards in hand."),
    gettext_noop("Draw cards instead"),
)


@register.simple_tag(takes_context=True)
def colt_hand(context: template.Context, view: Any, url: Any, version: Any) -> SafeString:
    """Colt Express's hand: ``{% colt_hand view act_url game.version %}`` — its cards
    (``colt_hand_cards``) and the draw, byte for byte what the board's ``hand`` partial drew
    (tests/site/test_colt_train_cars.py keeps it)."""
    words = words_here(_COLT_HAND_WORDS)
    cards = field(view, "hand_cards")
    hint = ""
    if field(view, "is_my_turn") and cards:
        hint = f'<p class="hint">{words["Choose a card to play it."]}</p>'
    if cards:
        drawn = (
            f'\n    <ul class="hand__cards" aria-label="{words["Your cards"]}">\n'
            f"      {colt_hand_cards(context, view, url, version)}\n    </ul>\n  "
        )
    else:
        drawn = f"\n    <p>{words['No cards in hand.']}</p>\n  "
    drawing = ""
    if draw_action := field(view, "draw_action"):
        # {% translate "Draw cards instead" as draw_label %}: safe as the tag keeps it.
        button = move_button(
            context,
            draw_action,
            mark_safe(words["Draw cards instead"]),  # noqa: S308 (the catalogue's words)
            button_class="button--quiet button--small",
            form_class="hand__draw",
        )
        drawing = f"\n    {button}\n  "
    return mark_safe(  # noqa: S308 (the parts are escaped)
        f'<div class="hand hand--colt">\n  <h2 class="decision__title">{words["Your hand"]}</h2>'
        f"\n  {hint}\n  {drawn}\n  {drawing}\n</div>\n"
    )
