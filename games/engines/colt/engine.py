"""The Colt Express engine (with the Time Machine as a config switch): the contract's entry
points, gluing the phase modules together.

``apply`` validates against the legal options first (so an illegal action changes nothing),
then works on a structured copy of the state (``state.clone``, or in Schemin' the cheaper
``state.clone_schemin``) and lets ``flow.advance`` run everything that needs no decision:
forced choices are applied at once.

Where the spec leaves room, this engine decides:

- Cheyenne's "may take the purse" is part of her Punch choice (``"take": true/false``), so
  she answers once instead of twice.
- A purse taken blind (Robbery, a Punch's drop, Pickpocketing) is drawn at random from the
  seed (``blind-<n>`` streams).
- Hostage-Taking's $250 ransoms are new purses, counted in ``state["ransom"]``; the purse a
  bandit loses to Marshal's Revenge goes back to the reserve.
- Django shooting into the locomotive from inside car 1 does not push into the Time Machine
  (the seed sheet names only the roof); the Time Machine is neither "inside the train"
  (Passengers' Rebellion) nor "in or on the locomotive" (Hostage-Taking), but it is a spot
  (Robbery, Punch, Pickpocketing).
- A lone time traveller's hideout is asked for before the next round is dealt.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..base import Engine, IllegalAction, phrase
from ..base import gettext_noop as _
from . import flow, schemin, scoring, view
from .bots import BOTS
from .config import default_config, validate_config
from .data import CHARACTERS
from .scoring import TIE_BREAK
from .search import SEARCH_BOT
from .state import STATE_VERSION, State, clone, clone_schemin, new_game
from .wording import WORDING


class ColtEngine(Engine):
    kind = "colt"
    name = "Colt Express"
    min_players = 2
    max_players = 6

    bots = {**BOTS, "search": SEARCH_BOT}
    wording = WORDING

    # --- ruleset ---------------------------------------------------------------------------

    def default_config(self) -> dict[str, Any]:
        return default_config()

    def validate_config(self, config: Any) -> dict[str, Any]:
        return validate_config(config)

    def options(self, config: dict[str, Any]) -> list[dict[str, Any]]:
        return [
            {
                "key": "time_machine",
                "label": _("Time Machine"),
                "type": "bool",
                "help": _(
                    "Adds the Time Machine in front of the locomotive: a lone bandit in it "
                    "at the end of a round hides under a car of his choice, and one alone in "
                    "it at the end of the game gets $500 and the loot lying in it."
                ),
            },
            {
                "key": "round_deck",
                "label": _("Round cards"),
                "type": "choice",
                "choices": [
                    {"value": "published", "label": _("4 round cards + 1 train station")},
                    {"value": "guide", "label": _("5 of the 7 round cards, no station")},
                ],
                "help": _(
                    "The published game ends at a train station with its own event; the "
                    "rules guide plays five ordinary round cards."
                ),
            },
        ]

    def identities(self, config: dict[str, Any]) -> list[str]:
        return list(CHARACTERS)

    # --- a game ----------------------------------------------------------------------------

    def setup(
        self,
        config: dict[str, Any],
        players: int,
        seed: int | str,
        *,
        first_player: int | None = None,
        identities: Sequence[str] | None = None,
    ) -> State:
        state = new_game(config, players, seed, first_player, identities)
        flow.advance(state, [])
        return state

    def to_move(self, state: State) -> list[int]:
        return flow.to_move(state)

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        if seat not in flow.to_move(state):
            return []
        if state["phase"] == "schemin":
            return schemin.legal_plays(state, seat, labels=True)
        return [
            {**option, "label": flow.choice_label(state, option)}
            for option in flow.choice_options(state)
        ]

    def apply(self, state: State, seat: Any, action: Any) -> tuple[State, list[dict]]:
        if state["phase"] == "over":
            raise IllegalAction(_("The game is over."))
        if (
            not isinstance(seat, int)
            or isinstance(seat, bool)
            or seat not in range(state["players"])
        ):
            raise IllegalAction(_("There is no seat %(seat)s at this table."), seat=repr(seat))
        # flow.to_move, without building its list: the one seat that acts now.
        phase = state["phase"]
        if seat != (state["queue"][0] if phase == "schemin" else state["pending"]["seat"]):
            raise IllegalAction(_("It is not your turn to act."))
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction(_('An action must be an object with a "type".'))
        if state["phase"] == "schemin":
            option = schemin.check_play(state, seat, action)
        else:
            option = flow.check_choice(state, action)
        events: list[dict] = []
        if state["phase"] == "schemin":
            new_state = clone_schemin(state)
            schemin.apply_play(new_state, seat, option, events)
        else:
            new_state = clone(state)
            flow.apply_choice(new_state, seat, option, events)
        flow.advance(new_state, events)
        return new_state, events

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        if seat is not None and seat not in range(state["players"]):
            raise ValueError(f"there is no seat {seat!r} at this table")
        return view.view(state, seat)

    def is_over(self, state: State) -> bool:
        return state["phase"] == "over"

    def result(self, state: State) -> dict[str, Any]:
        if state["phase"] != "over":
            raise IllegalAction(_("The game is not over yet."))
        return scoring.result(state)

    def result_notes(self, state: State) -> list[dict[str, Any]]:
        return [phrase(TIE_BREAK)]

    def action_phrase(self, state: State, seat: int, action: dict[str, Any]) -> dict[str, Any]:
        option = {key: value for key, value in action.items() if key != "label"}
        if state["phase"] == "schemin":
            return schemin.label_phrase(state, option)
        return flow.choice_phrase(state, option)

    def seat_identity(self, state: State, seat: int) -> str:
        return state["characters"][seat]

    def timeout_action(self, state: State, seat: int) -> dict[str, Any]:
        """What the clock plays: in Schemin' a draw (or, with an empty deck, the first
        playable card in Move, Floor change, Fire, Robbery, Punch, Marshal order); for a
        Stealin' choice its first option in the order ``stealin`` documents; at
        Pickpocketing, taking the purse; for the Time Machine's hideout, the locomotive."""
        actions = self.legal_actions(state, seat)
        if not actions:
            raise IllegalAction(_("This seat has nothing to do now."))
        return actions[0]

    def to_json(self, state: State) -> dict[str, Any]:
        return json.loads(json.dumps(state))

    def from_json(self, data: dict[str, Any]) -> State:
        return json.loads(json.dumps(self.from_stored(data)))

    def to_stored(self, state: State) -> dict[str, Any]:
        return state  # already a plain JSON-able dict (to_json's copy is for sharing)

    def from_stored(self, data: dict[str, Any]) -> State:
        if not isinstance(data, dict) or data.get("game") != "colt":
            raise ValueError("not a Colt Express state")
        if data.get("version") != STATE_VERSION:
            raise ValueError(f"unsupported Colt Express state version {data.get('version')!r}")
        return data


ENGINE = ColtEngine()
