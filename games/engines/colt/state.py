"""The Colt Express state: its layout, setup, the structured copy ``apply`` works on, and the
small board helpers every phase shares (loot, places, bullets, the marshal rule).

A state is a plain JSON dict (str keys, lists indexed by seat; see ``new_game``). Loot tokens
and cards are strings (see ``data``); pile entries ``[seat, card, face_down, turn]`` and the
``pending`` dict are never mutated once made, so ``clone`` only copies the lists that change.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..base import (
    ConfigError,
    phrase,
    rng_for,
    seat_ref,
    stable_choice,
    stable_randbelow,
    stable_shuffle,
    with_terms,
)
from ..base import gettext_noop as _
from . import wording
from .config import validate_config
from .data import (
    ACTION_CARDS,
    BULLETS_PER_BANDIT,
    CAR_LOOT,
    CAR_NAMES,
    CHARACTERS,
    INSIDE,
    JEWEL,
    JEWELS,
    LOCOMOTIVE,
    NEUTRAL_BULLET,
    NEUTRAL_BULLETS,
    PURSE,
    PURSE_VALUES,
    ROOF,
    ROUND_CARDS,
    ROUNDS,
    STARTING_PURSE,
    STATION_CARDS,
    STRONGBOX,
    TIME_MACHINE,
    purse,
    token_kind,
)

State = dict[str, Any]
STATE_VERSION = 1

# Lists of lists that ``clone`` copies one level deeper.
_NESTED = ("inside", "roof", "loot", "deck", "hand")
_FLAT = (
    "tm_loot",
    "reserve",
    "car",
    "level",
    "bullets",
    "received",
    "pile",
    "queue",
    "turns_taken",
    "pickpocket_queue",
    "tm_bonus",
)


# What a Schemin' play or draw can change until Schemin' ends (hands, decks, the pile, the turn
# order): the only lists ``clone_schemin`` copies. The rest (the board) stays shared until
# ``unshare_board`` copies it as Schemin' ends.
_SCHEMIN_NESTED = ("deck", "hand")
_SCHEMIN_FLAT = ("pile", "queue", "turns_taken")
_BOARD_NESTED = tuple(key for key in _NESTED if key not in _SCHEMIN_NESTED)
_BOARD_FLAT = tuple(key for key in _FLAT if key not in _SCHEMIN_FLAT)


def clone(state: State) -> State:
    """A copy that shares only what is never mutated (config, names, pile entries, pending)."""
    new = dict(state)
    for key in _NESTED:
        new[key] = list(map(list, state[key]))
    for key in _FLAT:
        new[key] = state[key][:]
    return new


def clone_schemin(state: State) -> State:
    """``clone`` for a Schemin' action: copies only what Schemin' changes, and shares the board
    with ``state`` until ``unshare_board`` (which ``flow.advance`` calls as Schemin' ends)."""
    new = dict(state)
    for key in _SCHEMIN_NESTED:
        new[key] = list(map(list, state[key]))
    for key in _SCHEMIN_FLAT:
        new[key] = state[key][:]
    return new


def unshare_board(state: State) -> None:
    """Give ``state`` its own copy of the board lists ``clone_schemin`` left shared."""
    for key in _BOARD_NESTED:
        state[key] = list(map(list, state[key]))
    for key in _BOARD_FLAT:
        state[key] = state[key][:]


def event(
    kind: str,
    text: str,
    private_to: Sequence[int] | None = None,
    plural: str | None = None,
    **args: Any,
) -> dict:
    """An event dict as the contract describes; ``private_to`` limits who may see it.

    ``plural`` is the English plural of ``text`` (``args["count"]`` chooses); arguments that
    are phrases or seat references go to the event's ``terms`` (``base.with_terms``)."""
    made: dict[str, Any] = {"type": kind, "text": text, "args": args}
    if plural is not None:
        made["plural"] = plural
    if private_to is not None:
        made["private_to"] = list(private_to)
    return with_terms(made)


def _check_identities(identities: Sequence[str], players: int) -> list[str]:
    problems = []
    names = list(identities)
    if len(names) != players:
        problems.append(
            (
                "identities",
                phrase(_("must name one character per seat (%(seats)s)"), seats=players),
            )
        )
    for index, name in enumerate(names):
        if name not in CHARACTERS:
            problems.append(
                (
                    f"identities[{index}]",
                    phrase(_("must be one of %(names)s"), names=", ".join(CHARACTERS)),
                )
            )
    if len(set(names)) != len(names):
        problems.append(("identities", phrase(_("each character can be played by one seat only"))))
    if problems:
        raise ConfigError(problems)
    return names


def new_game(
    config: dict[str, Any],
    players: int,
    seed: int | str,
    first_player: int | None = None,
    identities: Sequence[str] | None = None,
) -> State:
    """Setup (spec §Setup) up to, not including, the first round's Schemin'."""
    config = validate_config(config)
    if not isinstance(players, int) or not 2 <= players <= 6:
        raise ConfigError([("players", phrase(_("Colt Express is for 2 to 6 players")))])
    if first_player is not None and first_player not in range(players):
        raise ConfigError(
            [("first_player", phrase(_("must be a seat from 0 to %(last)s"), last=players - 1))]
        )

    car_count = players if players > 2 else config["two_player_cars"]
    cars = stable_shuffle(list(CAR_NAMES), rng_for(seed, "train"))[:car_count]
    # Each player's $250 purse comes out of the 18 first (as the guide says); the rest are
    # shuffled face down into the cars, and whatever is left stays in the reserve.
    purses = list(PURSE_VALUES)
    for _seat in range(players):
        purses.remove(STARTING_PURSE)
    stable_shuffle(purses, rng_for(seed, "purses"))
    inside: list[list[str]] = [[STRONGBOX]]
    jewels_used = 0
    for name in cars:
        purse_count, jewel_count = CAR_LOOT[name]
        inside.append([purse(purses.pop()) for _ in range(purse_count)] + [JEWEL] * jewel_count)
        jewels_used += jewel_count
    reserve = [purse(value) for value in purses] + [JEWEL] * (JEWELS - jewels_used) + [STRONGBOX]

    if identities is None:
        characters = stable_shuffle(list(CHARACTERS), rng_for(seed, "characters"))[:players]
    else:
        characters = _check_identities(identities, players)
    if first_player is None:
        first_player = stable_randbelow(players, rng_for(seed, "first-player"))

    last = car_count  # index of the caboose (0 is the locomotive)
    start_car = [0] * players
    for order in range(players):
        start_car[(first_player + order) % players] = last if order % 2 == 0 else last - 1

    deck_rng = rng_for(seed, "round-deck")
    round_cards = stable_shuffle(list(ROUND_CARDS), deck_rng)
    if config["round_deck"] == "published":
        round_deck = round_cards[: ROUNDS - 1] + [stable_choice(list(STATION_CARDS), deck_rng)]
    else:
        round_deck = round_cards[:ROUNDS]

    return {
        "version": STATE_VERSION,
        "game": "colt",
        "config": config,
        "seed": seed,
        "players": players,
        "tm": config["time_machine"],
        "cars": [LOCOMOTIVE, *cars],
        "characters": characters,
        "inside": inside,
        "roof": [[] for _ in range(car_count + 1)],
        "tm_loot": [],
        "reserve": reserve,
        "loot": [[purse(STARTING_PURSE)] for _ in range(players)],
        "car": start_car,
        "level": [INSIDE] * players,
        "marshal": 0,
        "bullets": [BULLETS_PER_BANDIT] * players,
        "received": [0] * players,
        "neutral": NEUTRAL_BULLETS,
        "deck": [list(ACTION_CARDS) for _ in range(players)],
        "hand": [[] for _ in range(players)],
        "pile": [],
        "round": -1,
        "round_deck": round_deck,
        "first_player": first_player,
        "phase": "setup",
        "turn": 0,
        "queue": [],
        "turns_taken": [0] * players,
        "resolving": 0,
        "pending": None,
        "pickpocket_queue": [],
        "ransom": 0,
        "tm_bonus": [0] * players,
        "blind": 0,
    }


# --- places -------------------------------------------------------------------------------


def car_name(state: State, car: int) -> str:
    """The car's letter ("Locomotive" for car 0; "" for the Time Machine)."""
    return state["cars"][car] if car >= 0 else ""


def place_to(state: State, car: int, level: str) -> str:
    """ "onto the roof of car E" (the site says it from the event's car, car_name, level)."""
    return wording.place_to_english(car, car_name(state, car), level)


def place_at(state: State, car: int, level: str) -> str:
    return wording.place_at_english(car, car_name(state, car), level)


def bandit_ref(state: State, seat: int) -> dict[str, Any]:
    return seat_ref(seat, state["characters"][seat])


def car_label(state: State, car: int) -> str:
    return "the locomotive" if car == 0 else f"car {state['cars'][car]}"


def place_label(state: State, car: int, level: str) -> str:
    if level == TIME_MACHINE:
        return "the Time Machine"
    if level == INSIDE:
        return f"inside {car_label(state, car)}"
    return f"the roof of {car_label(state, car)}"


def spot_loot(state: State, car: int, level: str) -> list[str]:
    """The (mutable, already cloned) loot list lying at a spot."""
    if level == TIME_MACHINE:
        return state["tm_loot"]
    return state["inside"][car] if level == INSIDE else state["roof"][car]


def bandits_at(state: State, car: int, level: str) -> list[int]:
    cars, levels = state["car"], state["level"]
    if level == TIME_MACHINE:
        return [s for s in range(state["players"]) if levels[s] == TIME_MACHINE]
    return [s for s in range(state["players"]) if cars[s] == car and levels[s] == level]


def name(state: State, seat: int) -> str:
    return state["characters"][seat]


# --- loot ---------------------------------------------------------------------------------


def kinds_in(tokens: Sequence[str]) -> set[str]:
    return {token_kind(token) for token in tokens}


def take_token(state: State, tokens: list[str], kind: str) -> str:
    """Remove one token of ``kind``; a purse is taken blind (at random, from the seed)."""
    if kind == PURSE:
        positions = [i for i, token in enumerate(tokens) if token[0] == "p"]
        rng = rng_for(state["seed"], f"blind-{state['blind']}")
        state["blind"] += 1
        return tokens.pop(stable_choice(positions, rng))
    return tokens.pop(tokens.index(kind))


# --- bullets and the marshal --------------------------------------------------------------


def give_neutral_bullets(state: State, seats: Sequence[int], events: list, why: str) -> None:
    """Neutral bullets to a group hit at once. Decision (spec): if there aren't enough for the
    whole group, none of them gets one; once the 13 are gone, no more are given."""
    if not seats:
        return
    if state["neutral"] < len(seats):
        events.append(
            event(
                "neutral_bullets_out",
                _("No neutral bullets are left for %(bandits)s."),
                names=", ".join(name(state, s) for s in seats),
                seats=list(seats),
                bandits=[bandit_ref(state, s) for s in seats],
            )
        )
        return
    for seat in seats:
        state["neutral"] -= 1
        state["deck"][seat].insert(0, NEUTRAL_BULLET)
        state["received"][seat] += 1
        events.append(
            event(
                "neutral_bullet",
                _("%(name)s takes a neutral bullet (%(why)s)."),
                name=name(state, seat),
                seat=seat,
                why=why,
            )
        )


def marshal_rule(state: State, events: list) -> None:
    """Nobody may be inside the marshal's car: whoever is takes a neutral bullet and climbs to
    the roof. Called after anything that can put a bandit there, or move the marshal."""
    car = state["marshal"]
    caught = bandits_at(state, car, INSIDE)
    if not caught:
        return
    give_neutral_bullets(state, caught, events, "the marshal")
    for seat in caught:
        state["level"][seat] = ROOF
        events.append(
            event(
                "flee_marshal",
                _("%(name)s flees the marshal %(to_place)s."),
                name=name(state, seat),
                seat=seat,
                car=car,
                level=ROOF,
                place=place_label(state, car, ROOF),
                car_name=car_name(state, car),
                to_place=place_to(state, car, ROOF),
            )
        )


def put_bandit(
    state: State, seat: int, car: int, level: str, events: list, kind: str, text: str
) -> None:
    """Place a bandit (moved, pushed, punched...), tell the table, apply the marshal rule.

    ``text`` may say ``%(to_place)s`` (onto the roof of car E) or ``%(at_place)s`` (on the
    roof of car E)."""
    state["car"][seat] = car
    state["level"][seat] = level
    events.append(
        event(
            kind,
            text,
            name=name(state, seat),
            seat=seat,
            car=car,
            level=level,
            place=place_label(state, car, level),
            car_name=car_name(state, car),
            to_place=place_to(state, car, level),
            at_place=place_at(state, car, level),
        )
    )
    if level == INSIDE and car == state["marshal"]:
        marshal_rule(state, events)
