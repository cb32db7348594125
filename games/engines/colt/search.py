"""The Colt Express search bot: sampled worlds from one seat's view, heuristic playouts.

A *world* is a full engine state built from ``view(state, seat)`` alone:

- public as the view shows it: the train, the marshal, where every bandit stands (but a
  hidden time traveller), loot counts per spot and per bandit, bullets, deck and hand sizes,
  the pile (who played each card, face-up kinds), the round card and the ones played, the
  turn order, the pending choice, the ruleset config, the seat's own hand and purse values;
- drawn at random, consistently with it: the purse values on the floors and in other
  bandits' loot (from the purses not in the seat's own loot), the kind of every face-down
  card still hidden and the hands and deck orders of the others (from each bandit's cards:
  his ten action cards and the bullets he received, minus what lies face up in the pile),
  the order of the seat's own deck, a hidden traveller's car, the round cards to come (from
  those not played yet), and a fresh seed for the shuffles and blind picks still to come.

The search does not remember earlier decisions: a purse value it once saw fall is sampled as
unknown again (honest, a little less informed).

Playouts run the world forward in place (the world is the bot's own copy) with the medium
bot's rules for every bandit, to the end of the game.
"""

from __future__ import annotations

import random
from typing import Any

from ..base import stable_choice, stable_shuffle
from ..search import Budget, Observation, SearchBot, win_reward
from . import flow, schemin
from .bots import _choice_score, _schemin_choice
from .data import (
    ACTION_CARDS,
    HIDDEN,
    JEWEL,
    NEUTRAL_BULLET,
    PURSE_VALUES,
    ROUND_CARDS,
    ROUNDS,
    STATION_CARDS,
    STRONGBOX,
    TIME_MACHINE,
    TM_CAR,
    purse,
    round_turns,
)
from .scoring import result
from .state import STATE_VERSION

State = dict[str, Any]
# Rewards squash the margin over the best rival with this many dollars.
MARGIN_SCALE = 1000.0
BUDGET = Budget(playouts=80, cpu_seconds=0.8)


def _tokens(counts: dict[str, int], purses: list[int]) -> list[str]:
    """A spot's loot from the view's counts; its purses take values from ``purses``."""
    tokens = [purse(purses.pop() if purses else 250) for _ in range(counts["purse"])]
    return tokens + [JEWEL] * counts["jewel"] + [STRONGBOX] * counts["strongbox"]


def sample_world(observation: Observation, rng: random.Random) -> State:
    """A full state consistent with the observation; hidden parts drawn from ``rng``."""
    view = observation["view"]
    me = observation["seat"]
    players = view["players"]
    config = view["config"]
    bandits = view["bandits"]
    mine = bandits[me]

    # Purses whose values the seat does not know, in random order (popped from the end).
    pool = list(PURSE_VALUES)
    for value in mine.get("purse_values", ()):
        if value in pool:
            pool.remove(value)
    stable_shuffle(pool, rng)

    inside = [_tokens(car["inside"]["loot"], pool) for car in view["train"]]
    roof = [_tokens(car["roof"]["loot"], pool) for car in view["train"]]
    tm_loot = _tokens(view["time_machine"]["loot"], pool) if view["time_machine"] else []
    loot = []
    for bandit in bandits:
        if bandit["seat"] == me:
            counts = bandit["loot"]
            own = [purse(value) for value in bandit["purse_values"]]
            loot.append(own + [JEWEL] * counts["jewel"] + [STRONGBOX] * counts["strongbox"])
        else:
            loot.append(_tokens(bandit["loot"], pool))

    cars_count = len(view["train"])
    car, level = [], []
    for bandit in bandits:
        if bandit["level"] == HIDDEN and bandit["car"] is None:
            car.append(int(rng.random() * cars_count))
        elif bandit["level"] == TIME_MACHINE:
            car.append(TM_CAR)
        else:
            car.append(bandit["car"])
        level.append(bandit["level"])

    pile = []
    known_in_pile: list[list[str]] = [[] for _ in range(players)]
    hidden_pile: list[list[int]] = [[] for _ in range(players)]
    for index, entry in enumerate(view["pile"]):
        seat = entry["seat"]
        pile.append([seat, entry["card"], entry["face_down"], entry["turn"]])
        if entry["card"] is None:
            hidden_pile[seat].append(index)
        else:
            known_in_pile[seat].append(entry["card"])

    hands, decks = [], []
    for bandit in bandits:
        seat = bandit["seat"]
        cards = list(ACTION_CARDS) + [NEUTRAL_BULLET] * bandit["bullets_received"]
        for card in known_in_pile[seat]:
            cards.remove(card)
        if seat == me:
            hand = list(view["hand"])
            for card in hand:
                # A bullet in hand is a bullet card like any other for the deck's count.
                cards.remove(NEUTRAL_BULLET if card[0] == "b" else card)
            decks.append(stable_shuffle(cards, rng))
            hands.append(hand)
            continue
        stable_shuffle(cards, rng)
        for index in hidden_pile[seat]:
            # A face-down card is an action card: the first one in this random order.
            pick = next(i for i, card in enumerate(cards) if card[0] != "b")
            pile[index][1] = cards.pop(pick)
        hands.append(cards[: bandit["hand_size"]])
        decks.append(cards[bandit["hand_size"] :])

    round_index = view["round"] - 1
    played = list(view["round_cards_played"])
    current = view["round_card"]["name"] if view["round_card"] else None
    round_deck = played + ([current] if current is not None else [])
    left = view["round_cards_left"]
    if left:
        used = set(round_deck)
        unused = stable_shuffle([card for card in ROUND_CARDS if card not in used], rng)
        if config["round_deck"] == "published":
            round_deck += unused[: left - 1] + [stable_choice(list(STATION_CARDS), rng)]
        else:
            round_deck += unused[:left]

    phase = view["phase"]
    turns = round_turns(current, players) if current is not None else ""
    if phase == "schemin":
        turn = view["round_card"]["turn_index"]
    else:
        turn = len(turns)
    order = view["turn_order"]
    pending = view["pending"]
    return {
        "version": STATE_VERSION,
        "game": "colt",
        "config": config,
        # A fresh seed per world: the shuffles and blind picks still to come are unknown.
        "seed": f"world-{rng.random()}",
        "players": players,
        "tm": config["time_machine"],
        "cars": [car_view["name"] for car_view in view["train"]],
        "characters": [bandit["character"] for bandit in bandits],
        "inside": inside,
        "roof": roof,
        "tm_loot": tm_loot,
        "reserve": [STRONGBOX] if view["strongbox_in_reserve"] else [],
        "loot": loot,
        "car": car,
        "level": level,
        "marshal": view["marshal"],
        "bullets": [bandit["bullets_left"] for bandit in bandits],
        "received": [bandit["bullets_received"] for bandit in bandits],
        "neutral": view["neutral_bullets_left"],
        "deck": decks,
        "hand": hands,
        "pile": pile,
        "round": round_index,
        "round_deck": round_deck,
        "first_player": view["first_player"],
        "phase": phase,
        "turn": turn,
        "queue": list(order["queue"]),
        "turns_taken": list(order["turns_taken"]),
        "resolving": view["resolving"] if phase == "stealin" else len(pile),
        "pending": dict(pending) if pending is not None else None,
        "pickpocket_queue": list(order["pickpocket_queue"]),
        "ransom": 0,
        "tm_bonus": [0] * players,
        "blind": 0,
    }


def fast_choice(world: State, seat: int, rng: random.Random) -> dict[str, Any]:
    """The medium bot's choice (``bots.heuristic_bot``) on a world, without labels."""
    if world["phase"] == "schemin":
        return _schemin_choice(world, seat, schemin.legal_plays(world, seat))
    options = flow.choice_options(world)
    if len(options) == 1:
        return options[0]
    scores = [_choice_score(world, seat, option) for option in options]
    best = max(scores)
    return stable_choice([o for o, score in zip(options, scores) if score == best], rng)


def step(world: State, seat: int, option: dict[str, Any]) -> None:
    """``engine.apply`` without its checks and its copy: ``option`` is one of the legal
    options and the world is the search's own, changed in place."""
    events: list = []
    if world["phase"] == "schemin":
        schemin.apply_play(world, seat, option, events)
    else:
        flow.apply_choice(world, seat, option, events)
    flow.advance(world, events)


def effective_scores(world: State) -> list[float]:
    """Final scores with the tie-break folded in (fewest bullets received wins a tie)."""
    scores = result(world)["scores"]
    return [score - received * 0.01 for score, received in zip(scores, world["received"])]


class ColtAdapter:
    """What the generic search needs from Colt Express."""

    def sample_world(self, observation: Observation, rng: random.Random) -> State:
        return sample_world(observation, rng)

    def prior_action(self, observation: Observation, rng: random.Random) -> dict[str, Any]:
        # The heuristic on one sampled world: it reads only the seat's own cards, the board
        # and counts, which every world shares with the observation.
        return fast_choice(sample_world(observation, rng), observation["seat"], rng)

    def playout(
        self, engine: Any, world: State, seat: int, action: dict[str, Any], rng: random.Random
    ) -> float:
        step(world, seat, action)
        while world["phase"] != "over":
            mover = flow.to_move(world)[0]
            step(world, mover, fast_choice(world, mover, rng))
        return win_reward(effective_scores(world), seat, MARGIN_SCALE)


SEARCH_BOT = SearchBot(ColtAdapter(), BUDGET)

__all__ = ["ROUNDS", "SEARCH_BOT", "fast_choice", "sample_world"]
