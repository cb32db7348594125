"""End-of-round events of the round cards, and the three train stations.

``round_event`` runs after the last card of the pile. Pickpocketing is the one event with
choices: each bandit alone in his spot with a purse there may take one (blind) or not, asked in
turn order from the first player; ``pickpocket_queue`` holds who is still to be asked.
"""

from __future__ import annotations

from typing import Any

from ..base import gettext_noop as _
from .data import (
    ANGRY_MARSHAL,
    BRAKING,
    EVENT_TEXTS,
    HOSTAGE_RANSOM,
    INSIDE,
    MARSHALS_REVENGE,
    PICKPOCKETING,
    PURSE,
    REBELLION,
    ROOF,
    STRONGBOX,
    SWIVEL_ARM,
    TAKE_IT_ALL,
    TIME_MACHINE,
    TM_CAR,
    purse,
    token_value,
)
from .state import (
    State,
    bandits_at,
    car_label,
    car_name,
    event,
    give_neutral_bullets,
    marshal_rule,
    name,
    place_at,
    place_label,
    place_to,
    spot_loot,
    take_token,
)


def round_event(state: State, events: list) -> None:
    card = state["round_deck"][state["round"]]
    text = EVENT_TEXTS[card]
    if not text:
        return
    events.append(event("round_event", _("%(card)s: %(event_text)s"), card=card, event_text=text))
    if card == ANGRY_MARSHAL:
        _angry_marshal(state, events)
    elif card == SWIVEL_ARM:
        for seat in _on_roofs(state):
            _relocate(state, seat, len(state["cars"]) - 1, ROOF, events)
    elif card == BRAKING:
        _braking(state, events)
    elif card == TAKE_IT_ALL:
        _take_it_all(state, events)
    elif card == REBELLION:
        inside = [s for s in range(state["players"]) if state["level"][s] == INSIDE]
        give_neutral_bullets(state, inside, events, "the passengers")
    elif card == MARSHALS_REVENGE:
        _marshals_revenge(state, events)
    elif card == PICKPOCKETING:
        start = state["first_player"]
        order = [(start + i) % state["players"] for i in range(state["players"])]
        state["pickpocket_queue"] = order
        state["phase"] = "pickpocket"
    else:
        _hostage_taking(state, events)


def _on_roofs(state: State) -> list[int]:
    return [s for s in range(state["players"]) if state["level"][s] == ROOF]


def _relocate(state: State, seat: int, car: int, level: str, events: list) -> None:
    if (state["car"][seat], state["level"][seat]) == (car, level):
        return
    state["car"][seat] = car
    state["level"][seat] = level
    events.append(
        event(
            "bandit_moved",
            _("%(name)s ends up %(at_place)s."),
            name=name(state, seat),
            seat=seat,
            car=car,
            level=level,
            place=place_label(state, car, level),
            car_name=car_name(state, car),
            at_place=place_at(state, car, level),
        )
    )


def _angry_marshal(state: State, events: list) -> None:
    give_neutral_bullets(state, bandits_at(state, state["marshal"], ROOF), events, "the marshal")
    if state["marshal"] < len(state["cars"]) - 1:
        state["marshal"] += 1
        events.append(
            event(
                "marshal_moved",
                _("The marshal moves %(to_place)s."),
                car=state["marshal"],
                place=car_label(state, state["marshal"]),
                car_name=car_name(state, state["marshal"]),
                to_place=place_to(state, state["marshal"], INSIDE),
            )
        )
        marshal_rule(state, events)


def _braking(state: State, events: list) -> None:
    for seat in _on_roofs(state):
        car = state["car"][seat]
        if car > 0:
            _relocate(state, seat, car - 1, ROOF, events)
        elif state["tm"]:
            _relocate(state, seat, TM_CAR, TIME_MACHINE, events)


def _take_it_all(state: State, events: list) -> None:
    if STRONGBOX not in state["reserve"]:
        return
    state["reserve"].remove(STRONGBOX)
    state["inside"][state["marshal"]].append(STRONGBOX)
    events.append(
        event(
            "strongbox_placed",
            _("The second strongbox is put %(at_place)s."),
            car=state["marshal"],
            place=place_label(state, state["marshal"], INSIDE),
            car_name=car_name(state, state["marshal"]),
            at_place=place_at(state, state["marshal"], INSIDE),
        )
    )


def _marshals_revenge(state: State, events: list) -> None:
    for seat in bandits_at(state, state["marshal"], ROOF):
        loot = state["loot"][seat]
        purses = [token for token in loot if token[0] == "p"]
        if not purses:
            continue
        cheapest = min(purses, key=token_value)
        loot.remove(cheapest)
        state["reserve"].append(cheapest)
        events.append(
            event(
                "purse_lost",
                _("%(name)s loses his cheapest purse."),
                name=name(state, seat),
                seat=seat,
            )
        )


def _hostage_taking(state: State, events: list) -> None:
    for seat in range(state["players"]):
        if state["car"][seat] == 0 and state["level"][seat] in (INSIDE, ROOF):
            # The ransom is new money from the conductor's pocket: counted in state["ransom"]
            # so the loot total stays accountable.
            state["loot"][seat].append(purse(HOSTAGE_RANSOM))
            state["ransom"] += HOSTAGE_RANSOM
            events.append(
                event(
                    "ransom",
                    _("%(name)s collects a $250 ransom."),
                    name=name(state, seat),
                    seat=seat,
                    value=HOSTAGE_RANSOM,
                )
            )


# --- Pickpocketing ------------------------------------------------------------------------


def can_pickpocket(state: State, seat: int) -> bool:
    car, level = state["car"][seat], state["level"][seat]
    alone = len(bandits_at(state, car, level)) == 1
    return alone and any(token[0] == "p" for token in spot_loot(state, car, level))


def next_pickpocket(state: State) -> bool:
    """Ask the next eligible bandit; False once nobody is left to ask."""
    queue = state["pickpocket_queue"]
    while queue:
        seat = queue.pop(0)
        if can_pickpocket(state, seat):
            state["pending"] = {"seat": seat, "kind": "pickpocket", "card": None}
            return True
    return False


def pickpocket_options() -> list[dict[str, Any]]:
    return [{"type": "pickpocket", "take": True}, {"type": "pickpocket", "take": False}]


def pickpocket_label(option: dict[str, Any]) -> str:
    return PICKPOCKET_LABELS[option["take"]]


PICKPOCKET_LABELS = {True: _("Take a purse from here"), False: _("Leave the purses")}


def apply_pickpocket(state: State, seat: int, take: bool, events: list) -> None:
    state["pending"] = None
    if not take:
        events.append(
            event(
                "pickpocket_declined",
                _("%(name)s takes nothing."),
                name=name(state, seat),
                seat=seat,
            )
        )
        return
    tokens = spot_loot(state, state["car"][seat], state["level"][seat])
    token = take_token(state, tokens, PURSE)
    state["loot"][seat].append(token)
    events.append(
        event("pickpocket", _("%(name)s picks a purse."), name=name(state, seat), seat=seat)
    )
    events.append(
        event(
            "purse_value",
            _("The purse holds $%(value)s."),
            private_to=[seat],
            seat=seat,
            value=token_value(token),
        )
    )
