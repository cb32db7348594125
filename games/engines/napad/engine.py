"""The To jest napad! rules engine: setup, bidding, division of the loot, reinforcements.

The state is one JSON-able dict. ``apply`` never mutates it: it makes a shallow copy and
replaces only the lists it changes (copy-on-write), which keeps a step cheap enough for
thousands of simulated games a second. Static data (the decks, the wagon table, the rules)
is shared between successive states and never written to.

Phases 1, 3 and 4 of a round need no decision, so they run inside ``apply`` as soon as the
last bidder passes; a player with an empty hand is passed for automatically. The only phase
anyone waits on is ``"robbery"`` (the bidding); ``"over"`` marks the end of the game.

Choices where the rulebook is silent (see also ``rules/napad.md``):
- a gang with an empty hand is passed for when its turn comes, and an empty-handed marker
  holder passes too (the "must play first" rule applies only to someone holding cards);
- round 6 ends with its reinforcements like every round (it matters only for rulesets whose
  hideouts are not empty by then: cards in hand break ties), but the marker does not move;
- who won which colour is announced at the table, so captured counts per colour are public;
  the values stay with the owner unless ``public_captures`` is on or the game is over.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..base import (
    Action,
    ConfigError,
    Engine,
    Event,
    IllegalAction,
    State,
    phrase,
    plural_noop,
    rng_for,
    stable_randbelow,
    stable_shuffle,
)
from ..base import gettext_noop as _
from . import events as ev
from . import scoring, views
from .bots import BOTS
from .config import (
    CARDS_PER_GANG,
    CARGO_OF_COLOUR,
    CARGOES,
    COLOURS,
    VARIANT_FLAGS,
    deck_for,
)
from .config import default_config as _default_config
from .config import validate_config as _validate_config
from .search import SEARCH_BOT
from .wording import WORDING

PASS_LABEL = _("Pass")
# The two play actions of every card of a deck, by id(deck). legal_actions is on every bot's
# hot path. Each entry holds its deck, so the id cannot be reused while the entry lives.
_PLAY_TABLES: dict[int, tuple[list[Any], list[tuple[dict[str, Any], dict[str, Any]]]]] = {}
_PLAY_TABLES_MAX = 256
_PASS_KEYS = frozenset(("type", "label"))
_PLAY_KEYS = frozenset(("type", "card", "colour", "label"))
_OPTIONS = (
    (
        "variant_a_bullets",
        _("Variant A: scoring with bullets"),
        _(
            "Each colour scores wagons × highest value; the most bullets of a colour adds 1 to "
            "that highest value. Bullets come from the cards that captured and from the wagons."
        ),
    ),
    (
        "variant_b_twos",
        _("Variant B: bonus for wagons of value 2"),
        _("Whoever captured the most wagons of value 2 scores 1 extra point for each of them."),
    ),
    (
        "public_captures",
        _("Captured wagons are public"),
        _("Everyone sees the values of every captured wagon, as they all saw them on the train."),
    ),
)
_SEND_PHRASE = _("Send %(cargo)s %(value)s (card %(card_text)s)")


def _play_table(deck: list[list[list[Any]]]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """For each card of ``deck``, its two play actions (templates: copy before handing out)."""
    entry = _PLAY_TABLES.get(id(deck))
    if entry is None or entry[0] is not deck:
        if len(_PLAY_TABLES) >= _PLAY_TABLES_MAX:
            _PLAY_TABLES.clear()
        table = []
        for card, halves in enumerate(deck):
            printed = " / ".join(f"{CARGO_OF_COLOUR[c]} {v}" for c, v, _bullets in halves)
            first, second = (
                {
                    "type": "play",
                    "card": card,
                    "colour": colour,
                    "label": f"Send {CARGO_OF_COLOUR[colour]} {value} (card {printed})",
                }
                for colour, value, _bullets in halves
            )
            table.append((first, second))
        entry = _PLAY_TABLES[id(deck)] = (deck, table)
    return entry[1]


def _half_in(card: list[list[Any]], colour: str) -> list[Any] | None:
    """The half of a card that has ``colour``, or None."""
    first, second = card
    if first[0] == colour:
        return first
    if second[0] == colour:
        return second
    return None


class NapadEngine(Engine):
    kind = "napad"
    name = "To jest napad!"
    min_players = 2
    max_players = 4
    bots = {**BOTS, "search": SEARCH_BOT}
    wording = WORDING
    # (the config object last set up from, a snapshot of it, its validated form)
    _last_config: tuple[Any, Any, dict[str, Any]] | None = None

    # -- ruleset ---------------------------------------------------------------------------

    def default_config(self) -> dict[str, Any]:
        return _default_config()

    def validate_config(self, config: Any) -> dict[str, Any]:
        return _validate_config(config)

    def options(self, config: dict[str, Any]) -> list[dict[str, Any]]:
        return [
            {
                "key": key,
                "label": label,
                "type": "bool",
                "help": help_text,
                "default": bool(config.get(key, False)),
            }
            for key, label, help_text in _OPTIONS
        ]

    def identities(self, config: dict[str, Any]) -> list[str]:
        return list(config["gangs"])

    # -- setup -----------------------------------------------------------------------------

    def _validated(self, config: Any) -> dict[str, Any]:
        """The validated config, reused while the caller keeps passing an unchanged config.

        A simulation sets up thousands of games from one config; validating it every time
        would cost more than playing. Sharing is safe: states only read the data they take.
        """
        cached = self._last_config
        if cached is not None and cached[0] is config and cached[1] == config:
            return cached[2]
        validated = _validate_config(config)
        self._last_config = (config, json.loads(json.dumps(config)), validated)
        return validated

    def setup(
        self,
        config: dict[str, Any],
        players: int,
        seed: int | str,
        *,
        first_player: int | None = None,
        identities: Sequence[str] | None = None,
    ) -> State:
        config = self._validated(config)
        problems = []
        if not isinstance(players, int) or not self.min_players <= players <= self.max_players:
            raise ConfigError(
                [
                    (
                        "players",
                        phrase(
                            _("must be %(low)s..%(high)s"),
                            low=self.min_players,
                            high=self.max_players,
                        ),
                    )
                ]
            )
        if first_player is not None and (
            not isinstance(first_player, int) or not 0 <= first_player < players
        ):
            problems.append(
                ("first_player", phrase(_("must be a seat 0..%(last)s"), last=players - 1))
            )
        if identities is None:
            gangs = stable_shuffle(list(config["gangs"]), rng_for(seed, "gangs"))[:players]
        else:
            gangs = list(identities)
            if len(gangs) != players:
                problems.append(
                    (
                        "identities",
                        phrase(
                            **plural_noop(
                                "must name %(count)s gang, one per seat",
                                "must name %(count)s gangs, one per seat",
                            ),
                            count=players,
                        ),
                    )
                )
            unknown = [gang for gang in gangs if gang not in config["gangs"]]
            if unknown:
                problems.append(
                    (
                        "identities",
                        phrase(_("unknown gangs: %(names)s"), names=", ".join(map(str, unknown))),
                    )
                )
            if len(set(gangs)) != len(gangs):
                problems.append(("identities", phrase(_("two seats cannot play the same gang"))))
        if problems:
            raise ConfigError(problems)
        if first_player is None:
            first_player = stable_randbelow(players, rng_for(seed, "first-player"))

        # One stream deals the treasury and the hideouts, in a fixed order.
        deal = rng_for(seed, "deal")
        wagons = []
        treasury = []
        for colour, cargo in zip(COLOURS, CARGOES):
            ids = list(range(len(wagons), len(wagons) + len(config["wagons"][cargo])))
            wagons.extend(
                [colour, value, bullets]
                for value, bullets in zip(config["wagons"][cargo], config["wagon_bullets"][cargo])
            )
            treasury.append(stable_shuffle(ids, deal))

        hand_size = config["hand_size"]
        hands, hideouts = [], []
        for _seat in range(players):
            hideout = stable_shuffle(list(range(CARDS_PER_GANG)), deal)
            hands.append(hideout[:hand_size])
            hideouts.append(hideout[hand_size:])

        state: State = {
            "game": "napad",
            "seed": seed,
            "players": players,
            "gangs": gangs,
            "rules": {
                "rounds": config["rounds"],
                "hand_size": hand_size,
                "reinforcements": config["reinforcements"],
                **{flag: config[flag] for flag in VARIANT_FLAGS},
            },
            "decks": [deck_for(config, gang) for gang in gangs],
            "wagons": wagons,
            "treasury": treasury,
            "train": [],
            "hands": hands,
            "hideouts": hideouts,
            "played": [[] for _ in range(players)],
            "out": [[] for _ in range(players)],
            "captured": [[] for _ in range(players)],
            "captures": [[] for _ in range(players)],
            "round": 0,
            "phase": "robbery",
            "marker": first_player,
            "marker_must_play": True,
            "turn": first_player,
            "passed": [False] * players,
        }
        # Setup has no one to report to: the view shows the first train and hands.
        self._start_round(state, 1, first_player, [])
        self._advance(state, (first_player - 1) % players, [])
        return state

    # -- whose turn, what is legal ---------------------------------------------------------

    def to_move(self, state: State) -> list[int]:
        turn = state["turn"]
        return [] if turn is None else [turn]

    def _may_pass(self, state: State, seat: int) -> bool:
        # The marker holder must send someone on their first turn, if they have anyone to send.
        return not (seat == state["marker"] and state["marker_must_play"] and state["hands"][seat])

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if state["turn"] != seat:
            return []
        deck = state["decks"][seat]
        table = _play_table(deck)
        # Copies, so a caller that edits an action cannot change the next answer.
        actions = [action.copy() for card in state["hands"][seat] for action in table[card]]
        if self._may_pass(state, seat):
            actions.append({"type": "pass", "label": PASS_LABEL})
        return actions

    def timeout_action(self, state: State, seat: int) -> Action:
        """Pass; where passing is not allowed, play the lowest half in hand."""
        actions = self.legal_actions(state, seat)
        if not actions:
            raise IllegalAction(_("Seat %(seat)s is not to move."), seat=seat)
        if actions[-1]["type"] == "pass":
            return actions[-1]
        deck = state["decks"][seat]
        return min(
            actions,
            key=lambda a: (_half_in(deck[a["card"]], a["colour"])[1], a["card"], a["colour"]),
        )

    # -- applying an action ----------------------------------------------------------------

    def apply(self, state: State, seat: int, action: Any) -> tuple[State, list[Event]]:
        turn = state["turn"]
        if seat != turn or turn is None:
            if turn is None:
                raise IllegalAction(_("The game is over; no more actions."))
            raise IllegalAction(
                _("It is not seat %(seat)s's turn; seat %(turn)s is to move."),
                seat=seat,
                turn=turn,
            )
        if not isinstance(action, dict):
            raise IllegalAction(_('An action must be an object like {"type": "pass"}.'))
        kind = action.get("type")
        if kind == "play":
            return self._play(state, seat, action)
        if kind == "pass":
            if not _PASS_KEYS.issuperset(action):
                extra = set(action) - _PASS_KEYS
                raise IllegalAction(
                    _("A pass takes no other fields (got %(fields)s)."),
                    fields=", ".join(sorted(map(str, extra))),
                )
            if not self._may_pass(state, seat):
                raise IllegalAction(
                    _("The starting player may not pass on their first turn: send a gang member.")
                )
            new = dict(state)
            passed = state["passed"][:]
            passed[seat] = True
            new["passed"] = passed
            events = [ev.passed(seat, state["gangs"][seat], automatic=False)]
            self._advance(new, seat, events)
            return new, events
        raise IllegalAction(
            _('Unknown action type %(kind)s: use "play" or "pass".'), kind=repr(kind)
        )

    def _play(self, state: State, seat: int, action: dict[str, Any]) -> tuple[State, list[Event]]:
        if not _PLAY_KEYS.issuperset(action):
            extra = set(action) - _PLAY_KEYS
            raise IllegalAction(
                _("A play takes card and colour only (got %(fields)s)."),
                fields=", ".join(sorted(map(str, extra))),
            )
        card = action.get("card")
        colour = action.get("colour")
        hand = state["hands"][seat]
        # type() rather than isinstance(): True == 1 must not pass for card 1.
        if type(card) is not int or card not in hand:
            raise IllegalAction(_("Card %(card)s is not in your hand."), card=repr(card))
        first, second = state["decks"][seat][card]
        if first[0] == colour:
            half = first
        elif second[0] == colour:
            half = second
        else:
            raise IllegalAction(
                _(
                    "Card %(card)s can be sent %(cargo)s or %(other_cargo)s side up, "
                    "not %(colour)s."
                ),
                card=card,
                cargo=CARGO_OF_COLOUR[first[0]],
                other_cargo=CARGO_OF_COLOUR[second[0]],
                colour=repr(colour),
            )
        new = dict(state)
        hands = state["hands"][:]
        hand = hand[:]
        hand.remove(card)
        hands[seat] = hand
        new["hands"] = hands
        played = state["played"][:]
        played[seat] = played[seat] + [[card, colour]]
        new["played"] = played
        if seat == state["marker"]:
            new["marker_must_play"] = False
        other = second if half is first else first
        events = [ev.card_played(seat, state["gangs"][seat], card, colour, half[1], half[2], other)]
        self._advance(new, seat, events)
        return new, events

    def _advance(self, new: State, after_seat: int, events: list[Event]) -> None:
        """Give the turn to the next bidder after ``after_seat``; run the round's end if none.

        ``new`` is a fresh copy owned by the caller; any list changed here is replaced, never
        written in place, because it may still be shared with the previous state.
        """
        players = new["players"]
        while True:
            passed = new["passed"]
            hands = new["hands"]
            copied = False
            for step in range(1, players + 1):
                seat = (after_seat + step) % players
                if passed[seat]:
                    continue
                if hands[seat]:
                    new["turn"] = seat
                    return
                # Nobody waits on an empty hand: it passes by itself.
                if not copied:
                    passed = passed[:]
                    new["passed"] = passed
                    copied = True
                passed[seat] = True
                events.append(ev.passed(seat, new["gangs"][seat], automatic=True))
            self._divide_loot(new, events)
            self._reinforce(new, events)
            if new["round"] >= new["rules"]["rounds"]:
                self._finish(new, events)
                return
            marker = (new["marker"] + 1) % players
            events.append(ev.marker_passed(marker, new["gangs"][marker]))
            self._start_round(new, new["round"] + 1, marker, events)
            after_seat = (marker - 1) % players

    def _start_round(self, new: State, round_number: int, marker: int, events: list[Event]) -> None:
        """Phase 1: attach the top wagon of each treasury stack to the train."""
        players = new["players"]
        new["round"] = round_number
        new["marker"] = marker
        new["marker_must_play"] = True
        new["passed"] = [False] * players
        new["played"] = [[] for _ in range(players)]
        train = new["train"][:]
        treasury = []
        attached = []
        for stack in new["treasury"]:
            if stack:
                wagon_id = stack[0]
                train.append(wagon_id)
                attached.append(views.wagon_public(new, wagon_id))
                stack = stack[1:]
            treasury.append(stack)
        new["train"] = train
        new["treasury"] = treasury
        events.append(ev.round_started(round_number, new["gangs"][marker], marker))
        events.append(ev.wagons_attached(round_number, attached))

    def _divide_loot(self, new: State, events: list[Event]) -> None:
        """Phase 3: per colour, an exclusive highest total captures all its wagons."""
        players = new["players"]
        decks = new["decks"]
        wagons = new["wagons"]
        played = new["played"]
        gangs = new["gangs"]
        public = new["rules"]["public_captures"]
        # Copy-on-write: new outer lists, and new inner lists only for the seats that change.
        hands = new["hands"][:]
        out = new["out"][:]
        captured = new["captured"][:]
        captures = new["captures"][:]
        train = new["train"]
        totals_by_colour = {colour: [0] * players for colour in COLOURS}
        for seat in range(players):
            deck = decks[seat]
            for card, colour in played[seat]:
                totals_by_colour[colour][seat] += _half_in(deck[card], colour)[1]
        winner_of: dict[str, int] = {}
        for colour in COLOURS:
            totals = totals_by_colour[colour]
            best = max(totals)
            cargo = CARGO_OF_COLOUR[colour]
            if best == 0:
                events.append(ev.unclaimed(colour, cargo))
                continue
            leaders = [seat for seat in range(players) if totals[seat] == best]
            if len(leaders) > 1:
                events.append(ev.tied(colour, cargo, best, leaders, [gangs[s] for s in leaders]))
                continue
            winner = leaders[0]
            winner_of[colour] = winner
            loot = [w for w in train if wagons[w][0] == colour]
            train = [w for w in train if wagons[w][0] != colour]
            cards = [card for card, card_colour in played[winner] if card_colour == colour]
            captured[winner] = captured[winner] + loot
            out[winner] = out[winner] + cards
            # Variant A counts the bullets of these cards, so remember them after they leave.
            record = {
                "round": new["round"],
                "colour": colour,
                "total": best,
                "wagons": loot,
                "cards": cards,
            }
            captures[winner] = captures[winner] + [record]
            taken = [views.wagon_public(new, w) for w in loot]
            shown = taken if public else None
            events.append(ev.captured(winner, gangs[winner], colour, cargo, best, len(loot), shown))
            if not public:
                events.append(ev.loot_taken(winner, taken))
        for seat in range(players):
            returning = [card for card, colour in played[seat] if winner_of.get(colour) != seat]
            if returning:
                hands[seat] = hands[seat] + returning
        new["hands"] = hands
        new["out"] = out
        new["captured"] = captured
        new["captures"] = captures
        new["train"] = train
        new["played"] = [[] for _ in range(players)]

    def _reinforce(self, new: State, events: list[Event]) -> None:
        """Phase 4: each gang draws up to ``reinforcements`` cards from the top of its hideout."""
        count = new["rules"]["reinforcements"]
        hands = new["hands"][:]
        hideouts = new["hideouts"][:]
        for seat in range(new["players"]):
            hideout = hideouts[seat]
            drawn = hideout[:count]
            if not drawn:
                continue
            hideouts[seat] = hideout[len(drawn) :]
            hands[seat] = hands[seat] + drawn
            events.append(
                ev.reinforcements(seat, new["gangs"][seat], len(drawn), len(hideouts[seat]))
            )
            deck = new["decks"][seat]
            events.append(ev.cards_drawn(seat, [views.card_public(deck, card) for card in drawn]))
        new["hands"] = hands
        new["hideouts"] = hideouts

    def _finish(self, new: State, events: list[Event]) -> None:
        new["phase"] = "over"
        new["turn"] = None
        outcome = scoring.ranking(new)
        winners = [row["seat"] for row in outcome["ranking"] if row["place"] == 1]
        events.append(
            ev.game_over(
                winners, [new["gangs"][s] for s in winners], outcome["ranking"][0]["score"]
            )
        )

    # -- reading a state -------------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return views.view(self, state, seat)

    def board_view(self, state: State, seat: int | None) -> dict[str, Any]:
        # Without the out-of-game cards' faces and the components: every page, move answer
        # and push drew the board from a view that built them (and some two hundred lists
        # for the garbage collector) for no one to read.
        return views.view(self, state, seat, for_board=True)

    def is_over(self, state: State) -> bool:
        return state["phase"] == "over"

    def result(self, state: State) -> dict[str, Any]:
        if state["phase"] != "over":
            raise IllegalAction(_("The game is not over yet."))
        return scoring.ranking(state)

    def result_notes(self, state: State) -> list[dict[str, Any]]:
        if state["phase"] != "over":
            raise IllegalAction(_("The game is not over yet."))
        return scoring.tie_break_phrases(state)

    def action_phrase(self, state: State, seat: int, action: Action) -> dict[str, Any]:
        if action.get("type") == "play":
            card = views.card_public(state["decks"][seat], action["card"])
            up = next(h for h in card["halves"] if h["colour"] == action["colour"])
            return phrase(
                _SEND_PHRASE, cargo=up["cargo"], value=up["value"], card_text=ev.card_phrase(card)
            )
        return phrase(PASS_LABEL)

    def seat_identity(self, state: State, seat: int) -> str:
        return state["gangs"][seat]

    def to_json(self, state: State) -> dict[str, Any]:
        # Through json so the stored copy shares nothing with the live state.
        return json.loads(json.dumps(state))

    def from_json(self, data: dict[str, Any]) -> State:
        return json.loads(json.dumps(self.from_stored(data)))

    def to_stored(self, state: State) -> dict[str, Any]:
        return state  # already a plain JSON-able dict (to_json's copy is for sharing)

    def from_stored(self, data: dict[str, Any]) -> State:
        if not isinstance(data, dict) or data.get("game") != "napad":
            raise ValueError("not a To jest napad! state")
        return data


ENGINE = NapadEngine()
