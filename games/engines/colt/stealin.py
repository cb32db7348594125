"""Stealin' (action): the pile resolves first played, first resolved; each card's owner makes
its choices when it resolves.

Every choice is an explicit, stable dict (the same shape standing orders can match later):

- ``{"type": "move", "to": {"car": 2, "level": "roof"}}`` (car -1 is the Time Machine)
- ``{"type": "floor", "to": {...}}`` (never a real choice: applied by the engine)
- ``{"type": "fire", "target": 3}``
- ``{"type": "rob", "loot": "jewel"}``
- ``{"type": "punch", "victim": 1, "loot": "purse" | None, "direction": "caboose"}``, plus
  ``"take": true/false`` when Cheyenne makes her victim drop a purse
- ``{"type": "marshal", "direction": "locomotive"}``

Options are listed in a fixed order, and the first one is what the clock plays when the owner
runs out of time: moves by distance, the locomotive side first; targets and victims by seat;
loot most valuable first (then "nothing" for a victim who has none); directions toward the
locomotive first; Cheyenne takes the purse first. An impossible action does nothing; an action
with one option is applied at once; otherwise the state's ``pending`` says who must choose
what: ``{"seat", "kind", "card"}`` (``card`` is the pile index).
"""

from __future__ import annotations

from typing import Any

from ..base import gettext_noop as _
from ..base import phrase
from . import timemachine, wording
from .data import (
    BELLE,
    CARD_LABELS,
    CHEYENNE,
    DJANGO,
    FIRE,
    FLOOR,
    INSIDE,
    LOOT_KINDS_BY_VALUE,
    LOOT_LABELS,
    MARSHAL,
    MOVE,
    PUNCH,
    PURSE,
    ROB,
    ROOF,
    TIME_MACHINE,
    TM_CAR,
    TO_CABOOSE,
    TO_LOCOMOTIVE,
    TUCO,
    token_kind,
    token_value,
)
from .state import (
    State,
    bandit_ref,
    bandits_at,
    car_label,
    car_name,
    event,
    kinds_in,
    marshal_rule,
    name,
    place_label,
    place_to,
    put_bandit,
    spot_loot,
    take_token,
)

# --- geometry -----------------------------------------------------------------------------


def move_destinations(state: State, seat: int) -> list[tuple[int, str]]:
    car, level = state["car"][seat], state["level"][seat]
    last = len(state["cars"]) - 1
    found: list[tuple[int, str]] = []
    if level == TIME_MACHINE:
        return timemachine.moves_out()
    reach = 1 if level == INSIDE else 3
    for distance in range(1, reach + 1):
        if car - distance >= 0:
            found.append((car - distance, level))
        elif car - distance == TM_CAR and state["tm"]:
            # Decision (spec): the Time Machine counts as one step beyond the locomotive.
            found.append((TM_CAR, TIME_MACHINE))
        if car + distance <= last:
            found.append((car + distance, level))
    return found


def floor_destination(state: State, seat: int) -> tuple[int, str] | None:
    level = state["level"][seat]
    if level == TIME_MACHINE:
        return None  # floor change is inert in the Time Machine
    return state["car"][seat], (ROOF if level == INSIDE else INSIDE)


def _nearest_roof(state: State, cars: range) -> list[int]:
    for car in cars:
        found = bandits_at(state, car, ROOF)
        if found:
            return found
    return []


def _without_belle(state: State, seats: list[int]) -> list[int]:
    """Belle can't be chosen if somebody else could be (she still blocks line of sight)."""
    if len(seats) > 1:
        others = [s for s in seats if state["characters"][s] != BELLE]
        if len(others) < len(seats):
            return others
    return seats


def fire_targets(state: State, seat: int) -> list[int]:
    if state["bullets"][seat] == 0:
        return []
    car, level = state["car"][seat], state["level"][seat]
    last = len(state["cars"]) - 1
    targets: list[int] = []
    if level == TIME_MACHINE:
        targets = timemachine.fire_targets_from_machine(state)
    elif level == INSIDE:
        for other in (car - 1, car + 1):
            if 0 <= other <= last:
                targets += bandits_at(state, other, INSIDE)
        if car == 0 and state["tm"]:
            targets += bandits_at(state, TM_CAR, TIME_MACHINE)
    else:
        targets += _nearest_roof(state, range(car + 1, last + 1))
        ahead = _nearest_roof(state, range(car - 1, -1, -1))
        if not ahead and state["tm"]:
            ahead = bandits_at(state, TM_CAR, TIME_MACHINE)
        targets += ahead
    if state["characters"][seat] == TUCO and level != TIME_MACHINE:
        targets += bandits_at(state, car, ROOF if level == INSIDE else INSIDE)
    targets = [t for t in targets if t != seat]
    return sorted(_without_belle(state, targets))


def punch_directions(state: State, victim: int) -> list[str]:
    car, level = state["car"][victim], state["level"][victim]
    if level == TIME_MACHINE:
        return [TO_CABOOSE]  # out of the Time Machine only into the locomotive
    directions = []
    if car > 0 or (state["tm"] and car == 0):
        directions.append(TO_LOCOMOTIVE)
    if car < len(state["cars"]) - 1:
        directions.append(TO_CABOOSE)
    return directions


def step(state: State, car: int, level: str, direction: str) -> tuple[int, str]:
    """One car along the train, same level; off the locomotive's front is the Time Machine."""
    if level == TIME_MACHINE:
        return 0, INSIDE
    target = car - 1 if direction == TO_LOCOMOTIVE else car + 1
    if target == TM_CAR:
        return TM_CAR, TIME_MACHINE
    return target, level


# --- options ------------------------------------------------------------------------------


def card_options(state: State, seat: int, card: str) -> list[dict[str, Any]]:
    """Every legal way to carry out ``card`` for ``seat`` now (empty: it does nothing)."""
    if card == MOVE:
        return [
            {"type": "move", "to": {"car": car, "level": level}}
            for car, level in move_destinations(state, seat)
        ]
    if card == FLOOR:
        spot = floor_destination(state, seat)
        return [] if spot is None else [{"type": "floor", "to": {"car": spot[0], "level": spot[1]}}]
    if card == FIRE:
        return [{"type": "fire", "target": target} for target in fire_targets(state, seat)]
    if card == ROB:
        here = kinds_in(spot_loot(state, state["car"][seat], state["level"][seat]))
        return [{"type": "rob", "loot": kind} for kind in LOOT_KINDS_BY_VALUE if kind in here]
    if card == PUNCH:
        return _punch_options(state, seat)
    if card == MARSHAL:
        marshal = state["marshal"]
        options = []
        if marshal > 0:
            options.append({"type": "marshal", "direction": TO_LOCOMOTIVE})
        if marshal < len(state["cars"]) - 1:
            options.append({"type": "marshal", "direction": TO_CABOOSE})
        return options
    raise ValueError(f"not an action card: {card!r}")


def _punch_options(state: State, seat: int) -> list[dict[str, Any]]:
    car, level = state["car"][seat], state["level"][seat]
    victims = [s for s in bandits_at(state, car, level) if s != seat]
    options = []
    cheyenne = state["characters"][seat] == CHEYENNE
    for victim in _without_belle(state, victims):
        owned = kinds_in(state["loot"][victim])
        drops: list[str | None] = [kind for kind in LOOT_KINDS_BY_VALUE if kind in owned]
        for loot in drops or [None]:
            for direction in punch_directions(state, victim):
                option = {"type": "punch", "victim": victim, "loot": loot, "direction": direction}
                if cheyenne and loot == PURSE:
                    options.append({**option, "take": True})
                    options.append({**option, "take": False})
                else:
                    options.append(option)
    return options


def option_label(state: State, seat: int, option: dict[str, Any]) -> str:
    kind = option["type"]
    if kind in ("move", "floor"):
        to = option["to"]
        verb = "Move to " if kind == "move" else "Change floor to "
        return verb + place_label(state, to["car"], to["level"])
    if kind == "fire":
        target = option["target"]
        return f"Shoot {name(state, target)} (seat {target + 1})"
    if kind == "rob":
        return f"Take {LOOT_LABELS[option['loot']]}"
    if kind == "punch":
        victim = option["victim"]
        loot = option["loot"]
        drop = f"drops {LOOT_LABELS[loot]}" if loot else "has nothing to drop"
        to = step(state, state["car"][victim], state["level"][victim], option["direction"])
        text = f"Punch {name(state, victim)} ({drop}) to {place_label(state, *to)}"
        if "take" in option:
            text += ", and take the purse" if option["take"] else ", leaving the purse"
        return text
    if kind == "marshal":
        to = state["marshal"] + (-1 if option["direction"] == TO_LOCOMOTIVE else 1)
        return f"Move the marshal to {car_label(state, to)}"
    raise ValueError(kind)


def option_phrase(state: State, seat: int, option: dict[str, Any]) -> dict[str, Any]:
    """``option_label`` as a phrase, for the site to say in the player's language."""
    kind = option["type"]
    if kind in ("move", "floor"):
        to = option["to"]
        text = _("Move %(to_place)s") if kind == "move" else _("Change floor %(to_place)s")
        return phrase(text, to_place=wording.place_to(state["cars"], to["car"], to["level"]))
    if kind == "fire":
        target = option["target"]
        return phrase(
            _("Shoot %(target)s (seat %(number)s)"),
            target=bandit_ref(state, target),
            number=target + 1,
        )
    if kind == "rob":
        return phrase(_("Take %(loot_label)s"), loot_label=LOOT_LABELS[option["loot"]])
    if kind == "punch":
        victim, loot = option["victim"], option["loot"]
        to = step(state, state["car"][victim], state["level"][victim], option["direction"])
        args = {
            "victim": bandit_ref(state, victim),
            "to_place": wording.place_to(state["cars"], *to),
        }
        if loot is None:
            return phrase(
                _("Punch %(victim)s, who has nothing to drop and goes %(to_place)s"), **args
            )
        args["loot_label"] = LOOT_LABELS[loot]
        if "take" not in option:
            return phrase(
                _("Punch %(victim)s, who drops %(loot_label)s and goes %(to_place)s"), **args
            )
        if option["take"]:
            text = _(
                "Punch %(victim)s, who drops %(loot_label)s and goes %(to_place)s; "
                "you take the purse"
            )
        else:
            text = _(
                "Punch %(victim)s, who drops %(loot_label)s and goes %(to_place)s; "
                "the purse stays on the floor"
            )
        return phrase(text, **args)
    if kind == "marshal":
        to = state["marshal"] + (-1 if option["direction"] == TO_LOCOMOTIVE else 1)
        return phrase(
            _("Move the marshal %(to_place)s"), to_place=wording.place_to(state["cars"], to, INSIDE)
        )
    raise ValueError(kind)


# --- resolution ---------------------------------------------------------------------------


def begin(state: State, events: list) -> None:
    state["phase"] = "stealin"
    state["resolving"] = 0
    state["pending"] = None
    if state["tm"]:
        timemachine.reveal_hider(state, events)


def resolve_next(state: State, events: list) -> None:
    """Reveal the next card of the pile and carry it out, or leave a pending choice."""
    index = state["resolving"]
    seat, card, face_down, _turn = state["pile"][index]
    events.append(
        event(
            "card_resolved",
            _("%(name)s's %(card_label)s resolves."),
            name=name(state, seat),
            seat=seat,
            card=card,
            card_label=CARD_LABELS[card],
            revealed=face_down,
            index=index,
        )
    )
    options = card_options(state, seat, card)
    if len(options) > 1:
        state["pending"] = {"seat": seat, "kind": card, "card": index}
        return
    if options:
        carry_out(state, seat, options[0], events)
    else:
        events.append(
            event(
                "nothing_happens",
                _("%(name)s's %(card_label)s can't be carried out: nothing happens."),
                name=name(state, seat),
                seat=seat,
                card=card,
                card_label=CARD_LABELS[card],
            )
        )
    state["resolving"] = index + 1


def carry_out(state: State, seat: int, option: dict[str, Any], events: list) -> None:
    """Apply one validated option of the resolving card."""
    kind = option["type"]
    if kind == "move":
        to = option["to"]
        put_bandit(
            state, seat, to["car"], to["level"], events, "move", _("%(name)s moves %(to_place)s.")
        )
    elif kind == "floor":
        to = option["to"]
        if to["level"] == ROOF:
            text = _("%(name)s climbs %(to_place)s.")
        else:
            text = _("%(name)s climbs down %(to_place)s.")
        put_bandit(state, seat, to["car"], to["level"], events, "floor", text)
    elif kind == "fire":
        _fire(state, seat, option["target"], events)
    elif kind == "rob":
        _rob(state, seat, option["loot"], events)
    elif kind == "punch":
        _punch(state, seat, option, events)
    elif kind == "marshal":
        state["marshal"] += -1 if option["direction"] == TO_LOCOMOTIVE else 1
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
    else:
        raise ValueError(kind)


def _fire(state: State, seat: int, target: int, events: list) -> None:
    state["bullets"][seat] -= 1
    state["deck"][target].insert(0, f"bullet:{seat}")
    state["received"][target] += 1
    events.append(
        event(
            "fire",
            _("%(name)s shoots %(target_name)s."),
            name=name(state, seat),
            seat=seat,
            target=target,
            target_name=name(state, target),
        )
    )
    if state["characters"][seat] == DJANGO:
        _django_push(state, seat, target, events)


def _django_push(state: State, seat: int, target: int, events: list) -> None:
    """Push the target one car away from Django, same level, never off the train. From the
    roof, a bandit on the locomotive's roof goes into the Time Machine (seed sheet)."""
    car, level = state["car"][target], state["level"][target]
    if level == TIME_MACHINE:
        return  # away from Django is off the front of the train
    origin = state["car"][seat] if state["level"][seat] != TIME_MACHINE else TM_CAR
    if car > origin:
        if car == len(state["cars"]) - 1:
            return
        to = (car + 1, level)
    else:
        if car == 0:
            if not (state["tm"] and level == ROOF and state["level"][seat] == ROOF):
                return
            to = (TM_CAR, TIME_MACHINE)
        else:
            to = (car - 1, level)
    put_bandit(state, target, *to, events, "pushed", _("%(name)s is pushed %(to_place)s."))


def _rob(state: State, seat: int, kind: str, events: list) -> None:
    tokens = spot_loot(state, state["car"][seat], state["level"][seat])
    token = take_token(state, tokens, kind)
    state["loot"][seat].append(token)
    events.append(
        event(
            "rob",
            _("%(name)s takes %(loot_label)s."),
            name=name(state, seat),
            seat=seat,
            loot=kind,
            loot_label=LOOT_LABELS[kind],
        )
    )
    if kind == PURSE:
        events.append(_purse_secret(seat, token))


def _purse_secret(seat: int, token: str) -> dict:
    return event(
        "purse_value",
        _("The purse holds $%(value)s."),
        private_to=[seat],
        seat=seat,
        value=token_value(token),
    )


def _punch(state: State, seat: int, option: dict[str, Any], events: list) -> None:
    victim, loot = option["victim"], option["loot"]
    car, level = state["car"][victim], state["level"][victim]
    events.append(
        event(
            "punch",
            _("%(name)s punches %(victim_name)s."),
            name=name(state, seat),
            seat=seat,
            victim=victim,
            victim_name=name(state, victim),
        )
    )
    if loot is not None:
        token = take_token(state, state["loot"][victim], loot)
        if option.get("take"):
            state["loot"][seat].append(token)
            events.append(
                event(
                    "cheyenne_takes",
                    _("%(name)s grabs the purse %(victim_name)s drops."),
                    name=name(state, seat),
                    seat=seat,
                    victim=victim,
                    victim_name=name(state, victim),
                )
            )
            events.append(_purse_secret(seat, token))
        else:
            spot_loot(state, car, level).append(token)
            events.append(
                event(
                    "drop",
                    _("%(name)s drops %(loot_label)s."),
                    name=name(state, victim),
                    seat=victim,
                    loot=token_kind(token),
                    loot_label=LOOT_LABELS[loot],
                )
            )
    to = step(state, car, level, option["direction"])
    put_bandit(state, victim, *to, events, "punched", _("%(name)s is knocked %(to_place)s."))
