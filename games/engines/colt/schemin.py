"""Schemin' (planning): the round's start, turn order, playing or drawing, and its end.

Per turn symbol of the round card each player, in order, plays one action card onto the common
pile or draws cards. Normal/Speeding-up/Switching turns are face up and tunnels face down as
``config["turn_face_down"]`` says; Speeding-up gives each player two turns in a row; Switching
goes counter-clockwise from the first player. Ghost may play his first card of a round face
down (only if that first turn is a play). Bullet cards can't be played.
"""

from __future__ import annotations

from typing import Any

from ..base import IllegalAction, phrase, plural_noop, rng_for, stable_shuffle
from ..base import gettext_noop as _
from .data import (
    ACTION_KINDS,
    CARD_LABELS,
    DOC,
    EVENT_TEXTS,
    GHOST,
    SPEEDING,
    SWITCHING,
    TURN_LABELS,
    round_turns,
)
from .state import State, event, name
from .wording import card_english

# (round card, players) -> its turn string; filled on first use (round_turns is pure).
_TURNS: dict[tuple[str, int], str] = {}


def current_turns(state: State) -> str:
    key = (state["round_deck"][state["round"]], state["players"])
    turns = _TURNS.get(key)
    if turns is None:
        turns = _TURNS[key] = round_turns(*key)
    return turns


def _turn_queue(state: State, turn_type: str) -> list[int]:
    players, first = state["players"], state["first_player"]
    if turn_type == SWITCHING:
        return [(first - i) % players for i in range(players)]
    order = [(first + i) % players for i in range(players)]
    if turn_type == SPEEDING:
        return [seat for seat in order for _twice in (0, 1)]
    return order


def start_round(state: State, events: list) -> None:
    """Shuffle every player's cards (actions + bullets received), deal, reveal the round card."""
    state["round"] += 1
    round_index = state["round"]
    config = state["config"]
    # One stream per round for every deck, shuffled in seat order (seeding an RNG costs more
    # than the shuffle itself).
    rng = rng_for(state["seed"], f"round-{round_index}-decks")
    # The log tells the round first, then each bandit's hand.
    deals: list[dict] = []
    for seat in range(state["players"]):
        cards = state["deck"][seat] + state["hand"][seat]
        stable_shuffle(cards, rng)
        count = config["doc_hand_size"] if state["characters"][seat] == DOC else config["hand_size"]
        # The top of a deck is the end of its list.
        state["hand"][seat] = cards[-count:]
        state["deck"][seat] = cards[:-count]
        deals.append(
            event(
                "cards_drawn",
                _("You draw %(cards)s."),
                private_to=[seat],
                seat=seat,
                cards=", ".join(map(card_english, state["hand"][seat])),
                drawn=list(state["hand"][seat]),
            )
        )
    card = state["round_deck"][round_index]
    turns = current_turns(state)
    state["phase"] = "schemin"
    state["pile"] = []
    state["turn"] = 0
    state["turns_taken"] = [0] * state["players"]
    state["queue"] = _turn_queue(state, turns[0])
    events.append(
        event(
            "round_started",
            _("Round %(number)s: %(card)s (%(turns)s). %(first)s is the first player."),
            number=round_index + 1,
            card=card,
            turns=" ".join(TURN_LABELS[t] for t in turns),
            turn_types=list(turns),
            event_text=EVENT_TEXTS[card],
            first=name(state, state["first_player"]),
            first_player=state["first_player"],
        )
    )
    events.extend(deals)


def face_down_now(state: State) -> bool:
    return state["config"]["turn_face_down"][current_turns(state)[state["turn"]]]


def legal_plays(state: State, seat: int, *, labels: bool = False) -> list[dict[str, Any]]:
    """Schemin' actions in the documented order: draw first (the timeout's choice), then each
    playable kind in ``ACTION_KINDS`` order, Ghost's face-down variant right after its face-up
    one. Without labels (the engine's options), or with them (``engine.legal_actions``)."""
    options: list[dict[str, Any]] = []
    if state["deck"][seat]:
        options.append({"type": "draw", "label": _DRAW_LABEL} if labels else {"type": "draw"})
    hand = state["hand"][seat]
    face_down = face_down_now(state)
    ghost_choice = (
        not face_down and state["characters"][seat] == GHOST and state["turns_taken"][seat] == 0
    )
    for kind in ACTION_KINDS:
        if kind in hand:
            for down in (face_down, True) if ghost_choice else (face_down,):
                option = {"type": "play", "card": kind, "face_down": down}
                if labels:
                    option["label"] = _PLAY_LABELS[kind, down]
                options.append(option)
    return options


_DRAW_LABEL = _("Draw cards")
_PLAY_LABELS = {
    (card, face_down): f"Play {text}" + (" face down" if face_down else "")
    for card, text in CARD_LABELS.items()
    for face_down in (False, True)
}


def label(state: State, option: dict[str, Any]) -> str:
    if option["type"] == "draw":
        return _DRAW_LABEL
    return _PLAY_LABELS[option["card"], option["face_down"]]


def label_phrase(state: State, option: dict[str, Any]) -> dict[str, Any]:
    if option["type"] == "draw":
        return phrase(_("Draw cards"))
    text = _("Play %(card_label)s face down") if option["face_down"] else _("Play %(card_label)s")
    return phrase(text, card_label=CARD_LABELS[option["card"]])


def forced_option(state: State) -> dict[str, Any] | None:
    """The only legal Schemin' action of the seat to move, if it has just one."""
    seat = state["queue"][0]
    # Cheap count before building anything: a deck to draw from plus two playable kinds (or a
    # Ghost choice) already means a real decision.
    can_draw = bool(state["deck"][seat])
    first = None
    for card in state["hand"][seat]:
        if card[0] == "b":  # a bullet card: never playable
            continue
        if first is None:
            if can_draw:
                return None
            first = card
        elif card != first:
            return None
    options = legal_plays(state, seat)
    return options[0] if len(options) == 1 else None


def apply_play(state: State, seat: int, option: dict[str, Any], events: list) -> None:
    """Play or draw (``option`` already validated), then pass the turn on."""
    if option["type"] == "draw":
        deck = state["deck"][seat]
        count = min(state["config"]["draw_count"], len(deck))
        drawn = deck[-count:]
        del deck[-count:]
        state["hand"][seat].extend(drawn)
        events.append(
            event(
                "draw",
                **plural_noop("%(name)s draws %(count)s card.", "%(name)s draws %(count)s cards."),
                name=name(state, seat),
                seat=seat,
                count=count,
            )
        )
        events.append(
            event(
                "cards_drawn",
                _("You draw %(cards)s."),
                private_to=[seat],
                seat=seat,
                cards=", ".join(map(card_english, drawn)),
                drawn=drawn,
            )
        )
    else:
        card, face_down = option["card"], option["face_down"]
        state["hand"][seat].remove(card)
        state["pile"].append([seat, card, face_down, state["turn"]])
        if face_down:
            events.append(
                event(
                    "card_played",
                    _("%(name)s plays a card face down."),
                    name=name(state, seat),
                    seat=seat,
                    face_down=True,
                )
            )
            events.append(
                event(
                    "card_played_secret",
                    _("You play %(card)s face down."),
                    private_to=[seat],
                    seat=seat,
                    card=card,
                )
            )
        else:
            events.append(
                event(
                    "card_played",
                    _("%(name)s plays %(card_label)s."),
                    name=name(state, seat),
                    seat=seat,
                    card=card,
                    card_label=CARD_LABELS[card],
                    face_down=False,
                )
            )
    state["turns_taken"][seat] += 1
    state["queue"].pop(0)


def next_turn(state: State) -> bool:
    """Move to the next turn symbol; False once the round card's turns are all played."""
    turns = current_turns(state)
    state["turn"] += 1
    if state["turn"] >= len(turns):
        return False
    state["queue"] = _turn_queue(state, turns[state["turn"]])
    return True


def end_schemin(state: State, events: list) -> None:
    """Unplayed cards go back on top of their owners' decks."""
    for seat in range(state["players"]):
        state["deck"][seat].extend(state["hand"][seat])
        state["hand"][seat] = []
    events.append(event("schemin_over", _("Schemin' is over: the pile is turned over.")))


_DRAW = {"type": "draw"}


def check_play(state: State, seat: int, action: dict[str, Any]) -> dict[str, Any]:
    """The matching legal option for ``action`` or IllegalAction saying why not."""
    wanted = {key: value for key, value in action.items() if key != "label"}
    # Fast paths for the common, well-formed cases; anything else is checked against the list.
    if wanted == _DRAW and state["deck"][seat]:
        return {"type": "draw"}
    if wanted.get("type") == "play" and len(wanted) == 3:
        card, face_down = wanted.get("card"), wanted.get("face_down")
        if card in ACTION_KINDS and card in state["hand"][seat] and face_down is not None:
            normal = face_down_now(state)
            if face_down is normal:
                return wanted
    for option in legal_plays(state, seat):
        if option == wanted:
            return option
    if wanted.get("type") == "draw":
        raise IllegalAction(_("Your deck is empty: you can't draw."))
    if wanted.get("type") == "play":
        card = wanted.get("card")
        if isinstance(card, str) and card.startswith("bullet"):
            raise IllegalAction(_("Bullet cards can't be played."))
        if card not in ACTION_KINDS:
            raise IllegalAction(_("Unknown card %(card)s."), card=repr(card))
        if card not in state["hand"][seat]:
            raise IllegalAction(
                _("You have no %(card_label)s card in your hand."), card_label=CARD_LABELS[card]
            )
        if face_down_now(state):
            raise IllegalAction(_("That card must be played face down."))
        raise IllegalAction(_("That card must be played face up."))
    raise IllegalAction(_("During Schemin' you may only play a card or draw."))
