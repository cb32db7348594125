"""The Time Machine expansion, switched on by ``config["time_machine"]``.

The machine stands in front of the locomotive as one spot (car -1, level ``"time_machine"``).
What the rest of the engine asks of it lives here: moves out of it, shots from it, the lone
bandit's travel at the end of a round (a secret ``hide`` choice), his reappearance at the start
of the next Stealin', and the end-of-game bonus. Moves into it, shots at it, punches and
Braking into it are the one-step-beyond-the-locomotive cases in ``stealin`` and ``events``.

While a traveller is hidden his level is ``"hidden"`` and his ``car`` is the secret hideout;
``view`` shows that car to his owner only.
"""

from __future__ import annotations

from typing import Any

from ..base import gettext_noop as _
from ..base import phrase, plural_noop
from .data import HIDDEN, INSIDE, ROOF, TIME_MACHINE, TIME_MACHINE_BONUS, TM_CAR, token_kind
from .state import State, bandits_at, car_label, car_name, event, name, put_bandit
from .wording import under_car, under_english


def moves_out() -> list[tuple[int, str]]:
    """A Move from the machine goes into the locomotive or onto its roof."""
    return [(0, INSIDE), (0, ROOF)]


def fire_targets_from_machine(state: State) -> list[int]:
    """From the machine: a bandit inside the locomotive, or on the nearest occupied roof."""
    targets = bandits_at(state, 0, INSIDE)
    for car in range(len(state["cars"])):
        on_roof = bandits_at(state, car, ROOF)
        if on_roof:
            return targets + on_roof
    return targets


def occupants(state: State) -> list[int]:
    return bandits_at(state, TM_CAR, TIME_MACHINE)


def lone_traveller(state: State) -> int | None:
    inside = occupants(state)
    return inside[0] if len(inside) == 1 else None


def start_travel(state: State, seat: int, events: list) -> None:
    """The lone bandit travels: his owner now secretly picks a car to hide under."""
    state["phase"] = "hide"
    state["pending"] = {"seat": seat, "kind": "hide", "card": None}
    events.append(
        event(
            "time_travel",
            _("%(name)s is alone in the Time Machine and travels in time."),
            name=name(state, seat),
            seat=seat,
        )
    )


def hide_options(state: State) -> list[dict[str, Any]]:
    return [{"type": "hide", "car": car} for car in range(len(state["cars"]))]


def hide_label(state: State, option: dict[str, Any]) -> str:
    return f"Hide under {car_label(state, option['car'])}"


def hide_phrase(state: State, option: dict[str, Any]) -> dict[str, Any]:
    return phrase(_("Hide %(under)s"), under=under_car(state["cars"], option["car"]))


def apply_hide(state: State, seat: int, car: int, events: list) -> None:
    state["car"][seat] = car
    state["level"][seat] = HIDDEN
    state["pending"] = None
    events.append(
        event(
            "hidden",
            _("%(name)s vanishes to a secret place under the train."),
            name=name(state, seat),
            seat=seat,
        )
    )
    events.append(
        event(
            "hideout",
            _("You hide %(under)s."),
            private_to=[seat],
            seat=seat,
            car=car,
            place=car_label(state, car),
            car_name=car_name(state, car),
            under=under_english(car, car_name(state, car)),
        )
    )


def reveal_hider(state: State, events: list) -> None:
    """At the start of Stealin' the traveller appears inside his car (marshal rule applies)."""
    for seat in range(state["players"]):
        if state["level"][seat] == HIDDEN:
            put_bandit(
                state,
                seat,
                state["car"][seat],
                INSIDE,
                events,
                "reappears",
                _("%(name)s reappears %(at_place)s."),
            )


def final_bonus(state: State, events: list) -> None:
    """After the last event, a lone bandit in the machine gets $500 and the loot lying in it."""
    seat = lone_traveller(state)
    if seat is None:
        return
    state["tm_bonus"][seat] = TIME_MACHINE_BONUS
    kinds = [token_kind(token) for token in state["tm_loot"]]
    state["loot"][seat].extend(state["tm_loot"])
    state["tm_loot"] = []
    events.append(
        event(
            "time_machine_bonus",
            **plural_noop(
                "%(name)s is alone in the Time Machine: $500 and %(count)s loot token.",
                "%(name)s is alone in the Time Machine: $500 and %(count)s loot tokens.",
            ),
            name=name(state, seat),
            seat=seat,
            count=len(kinds),
            kinds=kinds,
        )
    )
