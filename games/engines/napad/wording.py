"""To jest napad!'s words: its game terms, and how its log reads (a ``base.Wording``).

The English terms are the rulebook's (``../shared/seeds/``); ``docs/glossary.md`` lists them
with their Polish and Portuguese. Every text here is marked for translation.
"""

from __future__ import annotations

from ..base import Wording, plural_noop
from ..base import gettext_noop as _
from .events import derived_terms

GANG_NAMES = {
    "cowboys": _("cowboys"),
    "mexicans": _("Mexicans"),
    "deserters": _("deserters"),
    "indians": _("Indians"),
}
CARGO_NAMES = {"gold": _("gold"), "dynamite": _("dynamite"), "money": _("money")}
# The log speaks of what a colour of card bids for: its cargo (a "yellow card" goes for gold).
COLOUR_CARGO_NAMES = {
    "yellow": CARGO_NAMES["gold"],
    "red": CARGO_NAMES["dynamite"],
    "green": CARGO_NAMES["money"],
}
PHASE_NAMES = {
    "attach": _("Attach 3 new wagons"),
    "robbery": _("It's a robbery!"),
    "division": _("Divide the loot"),
    "reinforcements": _("Arrival of reinforcements"),
    "end": _("End of the game"),
    "over": _("game over"),
}

WORDING = Wording(
    terms={
        "gang": GANG_NAMES,
        "cargo": CARGO_NAMES,
        "other_cargo": CARGO_NAMES,
        "colour": COLOUR_CARGO_NAMES,
        "other_colour": COLOUR_CARGO_NAMES,
    },
    seat_args={"gang": "seat"},
    identity_key="gang",
    phases={
        "round_started": "attach",
        "wagons_attached": "attach",
        "card_played": "robbery",
        "passed": "robbery",
        "captured": "division",
        "tie": "division",
        "unclaimed": "division",
        "loot_taken": "division",
        "reinforcements": "reinforcements",
        "cards_drawn": "reinforcements",
        "marker_passed": "reinforcements",
        "game_over": "end",
    },
    phase_names=PHASE_NAMES,
    round_starts={"round_started": "round"},
    others_texts={
        "cards_drawn": _("%(who)s draws %(cards_text)s."),
        "loot_taken": _("%(who)s captures %(wagons_text)s."),
    },
    # What the log said before the texts were reworded (games started before then keep
    # their events): said with the new words, from the arguments those events have. A new
    # text never equals an old one, so an event is either old or new.
    legacy_texts={
        "Round %(round)s begins; %(gang)s hold the starting player marker.": {
            "text": _("Round %(round)s begins; %(gang)s holds the starting player marker.")
        },
        "%(gang)s send card %(card)s with %(colour)s %(value)s up.": {
            "text": _("%(gang)s sends %(colour)s %(value)s.")
        },
        "%(gang)s have no cards in hand and pass.": {
            "text": _("%(gang)s has no cards in hand and passes.")
        },
        "%(gang)s pass.": {"text": _("%(gang)s passes.")},
        "%(gang)s win the %(cargo)s with %(colour)s total %(total)s "
        "and capture %(count)s wagon(s).": plural_noop(
            "%(gang)s wins the %(cargo)s with %(total)s and captures %(count)s wagon.",
            "%(gang)s wins the %(cargo)s with %(total)s and captures %(count)s wagons.",
        ),
        "Tie on %(cargo)s at %(total)s between %(gangs_text)s: the wagons stay on the train.": {
            "text": _("Tie on %(cargo)s at %(total)s: the wagons stay on the train.")
        },
        "%(gang)s draw %(count)s card(s) from the hideout (%(hideout_left)s left).": plural_noop(
            "%(gang)s draws %(count)s card from the hideout (%(hideout_left)s left).",
            "%(gang)s draws %(count)s cards from the hideout (%(hideout_left)s left).",
        ),
        "Game over: %(gangs_text)s win with %(score)s points.": {
            "text": _("Game over. The winning score: %(score)s.")
        },
    },
    derive_terms=derived_terms,
)
