"""The game's progress between decisions: who must act, and everything that happens on its own
(forced moves, card resolution, events, round changes) until the next real decision.

Phases: ``schemin`` (``queue`` says who plays), ``stealin`` (``pending`` is the owner's choice
for the resolving card), ``pickpocket`` and ``hide`` (a ``pending`` choice for one seat), and
``over``.
"""

from __future__ import annotations

from typing import Any

from ..base import IllegalAction, phrase
from ..base import gettext_noop as _
from . import events as round_events
from . import schemin, stealin, timemachine
from .data import CARD_LABELS, ROUNDS
from .state import State, event, unshare_board


def to_move(state: State) -> list[int]:
    phase = state["phase"]
    if phase == "schemin":
        return [state["queue"][0]]
    if phase == "over":
        return []
    return [state["pending"]["seat"]]


def choice_options(state: State) -> list[dict[str, Any]]:
    """The options (without labels) of the pending choice."""
    pending = state["pending"]
    kind = pending["kind"]
    if kind == "pickpocket":
        return round_events.pickpocket_options()
    if kind == "hide":
        return timemachine.hide_options(state)
    return stealin.card_options(state, pending["seat"], kind)


def choice_label(state: State, option: dict[str, Any]) -> str:
    kind = option["type"]
    if kind == "pickpocket":
        return round_events.pickpocket_label(option)
    if kind == "hide":
        return timemachine.hide_label(state, option)
    return stealin.option_label(state, state["pending"]["seat"], option)


def choice_phrase(state: State, option: dict[str, Any]) -> dict[str, Any]:
    kind = option["type"]
    if kind == "pickpocket":
        return phrase(round_events.PICKPOCKET_LABELS[option["take"]])
    if kind == "hide":
        return timemachine.hide_phrase(state, option)
    return stealin.option_phrase(state, state["pending"]["seat"], option)


# What each pending choice is about, for "Now you must choose..." (the card or the event).
_CHOICE_NAMES = {**CARD_LABELS, "pickpocket": _("Pickpocketing"), "hide": _("Time Machine")}


def check_choice(state: State, action: dict[str, Any]) -> dict[str, Any]:
    wanted = {key: value for key, value in action.items() if key != "label"}
    options = choice_options(state)
    for option in options:
        if option == wanted:
            return option
    expected = state["pending"]["kind"]
    expected_type = {"pickpocket": "pickpocket", "hide": "hide"}.get(expected, expected)
    if wanted.get("type") != expected_type:
        if expected in CARD_LABELS:
            raise IllegalAction(
                _("Now you must choose how your %(card_label)s card resolves."),
                card_label=CARD_LABELS[expected],
            )
        raise IllegalAction(
            _("Now you must make your choice for %(card)s."), card=phrase(_CHOICE_NAMES[expected])
        )
    raise IllegalAction(
        _("That choice for %(card)s is not possible now."), card=phrase(_CHOICE_NAMES[expected])
    )


def apply_choice(state: State, seat: int, option: dict[str, Any], events: list) -> None:
    kind = option["type"]
    if kind == "pickpocket":
        round_events.apply_pickpocket(state, seat, option["take"], events)
    elif kind == "hide":
        timemachine.apply_hide(state, seat, option["car"], events)
        _start_next_round(state, events)
    else:
        state["pending"] = None
        stealin.carry_out(state, seat, option, events)
        state["resolving"] += 1


def advance(state: State, events: list) -> None:
    """Run everything that needs nobody's decision, up to the next decision or the end."""
    while True:
        phase = state["phase"]
        if phase == "schemin":
            if not state["queue"]:
                if not schemin.next_turn(state):
                    # Stealin' changes the board, which a Schemin' action's copy still shares
                    # with the state it came from (state.clone_schemin).
                    unshare_board(state)
                    schemin.end_schemin(state, events)
                    stealin.begin(state, events)
                continue
            forced = schemin.forced_option(state)
            if forced is None:
                return
            schemin.apply_play(state, state["queue"][0], forced, events)
        elif phase == "stealin":
            if state["pending"] is not None:
                return
            if state["resolving"] < len(state["pile"]):
                stealin.resolve_next(state, events)
            else:
                round_events.round_event(state, events)
                if state["phase"] == "stealin":
                    _end_round(state, events)
        elif phase == "pickpocket":
            if state["pending"] is not None:
                return
            if not round_events.next_pickpocket(state):
                _end_round(state, events)
        elif phase == "setup":
            _start_next_round(state, events)
        else:  # "hide" waits on its pending choice, "over" on nothing
            return


def _end_round(state: State, events: list) -> None:
    """Played cards go home; then the game ends, a lone time traveller hides, or a new round."""
    for seat, card, _face_down, _turn in state["pile"]:
        state["deck"][seat].append(card)
    state["pile"] = []
    state["pending"] = None
    events.append(event("round_over", _("Round %(number)s is over."), number=state["round"] + 1))
    if state["round"] == ROUNDS - 1:
        if state["tm"]:
            timemachine.final_bonus(state, events)
        state["phase"] = "over"
        events.append(event("game_over", _("The train reaches the station: the game is over.")))
        return
    state["first_player"] = (state["first_player"] + 1) % state["players"]
    if state["tm"]:
        traveller = timemachine.lone_traveller(state)
        if traveller is not None:
            timemachine.start_travel(state, traveller, events)
            return
    _start_next_round(state, events)


def _start_next_round(state: State, events: list) -> None:
    schemin.start_round(state, events)
