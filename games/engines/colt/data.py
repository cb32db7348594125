"""Colt Express components as data: cars, loot, round cards, stations, characters, cards.

Everything here is constant; the engine reads it and never mutates it. Loot tokens are short
strings so a spot's loot is a plain list that copies in one C call: ``"purse:300"`` (a purse
and its value), ``"jewel"`` ($500) and ``"strongbox"`` ($1000).
"""

from __future__ import annotations

from ..base import gettext_noop as _

ROUNDS = 5
LOCOMOTIVE = "Locomotive"

# Loot printed inside each car: (purses, jewels).
CAR_LOOT = {
    "A": (1, 0),
    "B": (1, 1),
    "C": (0, 3),
    "D": (3, 0),
    "E": (4, 1),
    "F": (3, 1),
}
CAR_NAMES = tuple(CAR_LOOT)

PURSE_VALUES = (250,) * 8 + (300, 300, 350, 350, 400, 400, 450, 450, 500, 500)
JEWELS = 6
STRONGBOXES = 2
STARTING_PURSE = 250
HOSTAGE_RANSOM = 250
TIME_MACHINE_BONUS = 500
GUNSLINGER_BONUS = 1000

JEWEL = "jewel"
STRONGBOX = "strongbox"
PURSE = "purse"
LOOT_KINDS = (PURSE, JEWEL, STRONGBOX)
# Most valuable kind first: the order in which choices between kinds are listed.
LOOT_KINDS_BY_VALUE = (STRONGBOX, JEWEL, PURSE)
LOOT_LABELS = {PURSE: _("a purse"), JEWEL: _("a jewel"), STRONGBOX: _("a strongbox")}


def purse(value: int) -> str:
    return f"purse:{value}"


def token_kind(token: str) -> str:
    return PURSE if token[0] == "p" else token


def token_value(token: str) -> int:
    if token[0] == "p":
        return int(token[6:])
    return 500 if token == JEWEL else 1000


# Action cards: every bandit owns these ten.
MOVE, FLOOR, FIRE, ROB, PUNCH, MARSHAL = "move", "floor", "fire", "rob", "punch", "marshal"
ACTION_CARDS = (MOVE, MOVE, FLOOR, FLOOR, FIRE, FIRE, ROB, ROB, PUNCH, MARSHAL)
ACTION_KINDS = (MOVE, FLOOR, FIRE, ROB, PUNCH, MARSHAL)
CARD_LABELS = {
    MOVE: _("Move"),
    FLOOR: _("Floor change"),
    FIRE: _("Fire"),
    ROB: _("Robbery"),
    PUNCH: _("Punch"),
    MARSHAL: _("Marshal"),
}
# Bullet cards are "bullet:<seat of the shooter>" or "bullet:neutral" (from the marshal and the
# passengers); they sit in decks and hands and can never be played.
BULLET_PREFIX = "bullet:"
NEUTRAL_BULLET = "bullet:neutral"
BULLETS_PER_BANDIT = 6
NEUTRAL_BULLETS = 13


def is_bullet(card: str) -> bool:
    return card[0] == "b"


# Characters, in the order identities() lists them.
BELLE, CHEYENNE, DJANGO, DOC, GHOST, TUCO = "Belle", "Cheyenne", "Django", "Doc", "Ghost", "Tuco"
CHARACTERS = (BELLE, CHEYENNE, DJANGO, DOC, GHOST, TUCO)
CHARACTER_POWERS = {
    BELLE: _("Can't be the target of a Fire or a Punch if another bandit could be."),
    CHEYENNE: _("When she punches a bandit who drops a purse, she may take that purse."),
    DJANGO: _("A bandit he shoots is pushed one car away from him, on the same level."),
    DOC: _("Draws 7 cards at the start of each round."),
    GHOST: _("On his first turn of each round he may play his card face down."),
    TUCO: _("May also shoot a bandit in his own car on the other level."),
}

# Turn types on round cards: Normal, Tunnel, Speeding-up, Switching.
NORMAL, TUNNEL, SPEEDING, SWITCHING = "N", "T", "S", "R"
TURN_TYPES = (NORMAL, TUNNEL, SPEEDING, SWITCHING)
TURN_LABELS = {
    NORMAL: _("Normal"),
    TUNNEL: _("Tunnel"),
    SPEEDING: _("Speeding-up"),
    SWITCHING: _("Switching"),
}

# Round cards: name -> (turns for 2-4 players, turns for 5-6 players, event).
ANGRY_MARSHAL = "Angry Marshal"
SWIVEL_ARM = "Swivel Arm"
BRAKING = "Braking"
TAKE_IT_ALL = "Take It All!"
REBELLION = "Passengers' Rebellion"
TUNNELS = "Tunnels"
SPEED_UP = "Speed-up"
ROUND_CARDS = {
    ANGRY_MARSHAL: ("NNTR", "NNR"),
    SWIVEL_ARM: ("NTNN", "NTN"),
    BRAKING: ("NNNN", "NTNN"),
    TAKE_IT_ALL: ("NTSN", "NSR"),
    REBELLION: ("NNTNN", "NTNR"),
    TUNNELS: ("NTNTN", "NTNT"),
    SPEED_UP: ("NSN", "NS"),
}
MARSHALS_REVENGE = "Marshal's Revenge"
PICKPOCKETING = "Pickpocketing"
HOSTAGE_TAKING = "Hostage-Taking of the Conductor"
STATION_CARDS = {name: "NNTN" for name in (MARSHALS_REVENGE, PICKPOCKETING, HOSTAGE_TAKING)}
EVENT_TEXTS = {
    ANGRY_MARSHAL: _(
        "The marshal shoots every bandit on his car's roof, then moves one car toward the caboose."
    ),
    SWIVEL_ARM: _("Every bandit on a roof is swept to the caboose's roof."),
    BRAKING: _("Every bandit on a roof moves one car toward the locomotive."),
    TAKE_IT_ALL: _("The second strongbox is put inside the marshal's car."),
    REBELLION: _("Every bandit inside the train takes a neutral bullet."),
    TUNNELS: "",
    SPEED_UP: "",
    MARSHALS_REVENGE: _("Each bandit on the roof of the marshal's car loses his cheapest purse."),
    PICKPOCKETING: _("Each bandit alone in his spot may take a purse from that spot."),
    HOSTAGE_TAKING: _("Each bandit in or on the locomotive gets a $250 ransom."),
}


def round_turns(card: str, players: int) -> str:
    """The turn sequence of a round card for a table of ``players``."""
    if card in STATION_CARDS:
        return STATION_CARDS[card]
    small, large = ROUND_CARDS[card]
    return small if players <= 4 else large


# Positions: a bandit is inside or on the roof of a car (0 = the locomotive, the last one is the
# caboose), in the Time Machine (car -1, in front of the locomotive), or hidden under a car
# after travelling in it (the car is secret until Stealin' starts).
INSIDE, ROOF, TIME_MACHINE, HIDDEN = "inside", "roof", "time_machine", "hidden"
TM_CAR = -1
# Directions are named after the end of the train they point to.
TO_LOCOMOTIVE, TO_CABOOSE = "locomotive", "caboose"
