"""The To jest napad! search bot: sampled worlds from one seat's view, heuristic playouts.

A *world* is a full engine state built from ``view(state, seat)`` alone:

- public as the view shows it: the train, the cards on the table (and the half that is up),
  the cards in the box, passes, the marker, the round, hand and hideout sizes, the counts of
  captured wagons per colour, the seat's own hand and its own captured wagons (and everyone's
  when captures are public), the printed cards of every gang and the wagon table
  (``view["components"]``);
- drawn at random, consistently with it: which of another gang's unseen cards are in its hand
  (the rest are in its hideout), the order of every hideout (the seat's own too: it is face
  down), which unseen wagons another gang captured (as many of each colour as the view
  counts), and which wagons are left in each treasury stack, in what order.

The search does not remember earlier decisions, so what a perfect memory would add (a card
that went back to a rival's hand after a lost bid, a rival's captured wagon values when
captures are private) is sampled as unknown too: honest, a little less informed.

Playouts finish the game with :func:`fast_choice`, the medium bot's rules computed straight
from a world (no view to build), for every gang.
"""

from __future__ import annotations

import random
from typing import Any

from ..base import stable_shuffle
from ..search import Budget, Observation, SearchBot, win_reward
from . import scoring
from .bots import CARD_POINT_COST, SAFE_LEAD_PER_RIVAL, heuristic_choice
from .config import CARGOES, COLOURS

State = dict[str, Any]
# Rewards squash the margin over the best rival with this many points.
MARGIN_SCALE = 6.0
# What a hard decision may spend: playouts first; the CPU cap is the safety net.
BUDGET = Budget(playouts=100, cpu_seconds=0.8)


def sample_world(observation: Observation, rng: random.Random) -> State:
    """A full state consistent with the observation; hidden parts drawn from ``rng``."""
    view = observation["view"]
    me = observation["seat"]
    components = view["components"]
    decks = components["gang_cards"]
    wagons = components["wagons"]
    players = view["players"]
    rules = dict(view["rules"])
    seats = view["seats"]

    hands, hideouts, played, out, passed = [], [], [], [], []
    for seat, info in enumerate(seats):
        seat_played = [[card["id"], card["colour"]] for card in info["played"]]
        seat_out = [card["id"] for card in info["out_of_game"]]
        gone = {card for card, _colour in seat_played}.union(seat_out)
        if seat == me:
            hand = [card["id"] for card in view["hand"]]
            gone.update(hand)
            hideout = stable_shuffle([c for c in range(len(decks[seat])) if c not in gone], rng)
        else:
            unseen = stable_shuffle([c for c in range(len(decks[seat])) if c not in gone], rng)
            hand = unseen[: info["hand_size"]]
            hideout = unseen[info["hand_size"] :]
        hands.append(hand)
        hideouts.append(hideout)
        played.append(seat_played)
        out.append(seat_out)
        passed.append(info["passed"])

    train = [wagon["id"] for wagon in view["train"]]
    known = set(train)
    captured: list[list[int] | None] = []
    for info in seats:
        seen = info["captured"]
        if seen is None:
            captured.append(None)
        else:
            ids = [wagon["id"] for wagon in seen]
            known.update(ids)
            captured.append(ids)
    pools = {
        colour: stable_shuffle(
            [w for w, (c, _v, _b) in enumerate(wagons) if c == colour and w not in known], rng
        )
        for colour in COLOURS
    }
    for seat, info in enumerate(seats):
        if captured[seat] is None:
            ids = []
            for colour in COLOURS:
                count = info["captured_by_colour"][colour]
                ids += pools[colour][:count]
                del pools[colour][:count]
            captured[seat] = ids
    treasury = [pools[colour][: view["treasury"][cargo]] for colour, cargo in zip(COLOURS, CARGOES)]

    return {
        "game": "napad",
        "seed": 0,
        "players": players,
        "gangs": [info["gang"] for info in seats],
        "rules": rules,
        "decks": decks,
        "wagons": wagons,
        "treasury": treasury,
        "train": train,
        "hands": hands,
        "hideouts": hideouts,
        "played": played,
        "out": out,
        "captured": captured,
        "captures": [
            _capture_records(decks[seat], wagons, captured[seat], out[seat])
            for seat in range(players)
        ],
        "round": view["round"],
        "phase": view["phase"],
        "marker": view["marker"],
        "marker_must_play": view["marker_must_play"],
        "turn": view["turn"],
        "passed": passed,
    }


def _capture_records(
    deck: list[list[list[Any]]], wagons: list[list[Any]], captured: list[int], out: list[int]
) -> list[dict[str, Any]]:
    """Capture records (variant A counts the bullets of the cards that captured) rebuilt per
    colour: each boxed card is credited to a colour of its halves that the gang captured."""
    colours = {wagons[w][0] for w in captured}
    records = {
        colour: {
            "round": 0,
            "colour": colour,
            "total": 0,
            "wagons": [w for w in captured if wagons[w][0] == colour],
            "cards": [],
        }
        for colour in COLOURS
        if colour in colours
    }
    for card in out:
        for colour, _value, _bullets in deck[card]:
            if colour in records:
                records[colour]["cards"].append(card)
                break
    return list(records.values())


# Per deck (by id, holding the deck so the id stays its own): for each card, its two halves as
# (colour, value, both halves' values), the first half first.
_HALVES: dict[int, tuple[list[Any], list[tuple[tuple[str, int, int], ...]]]] = {}


def _halves(deck: list[list[list[Any]]]) -> list[tuple[tuple[str, int, int], ...]]:
    entry = _HALVES.get(id(deck))
    if entry is None or entry[0] is not deck:
        if len(_HALVES) > 256:
            _HALVES.clear()
        table = []
        for first, second in deck:
            both = first[1] + second[1]
            table.append(((first[0], first[1], both), (second[0], second[1], both)))
        entry = _HALVES[id(deck)] = (deck, table)
    return entry[1]


def board_of(world: State) -> tuple[dict[str, int], dict[str, list[int]]]:
    """What the medium bot weighs, per colour: the prize on the train and each seat's total."""
    wagons = world["wagons"]
    decks = world["decks"]
    prizes = {"yellow": 0, "red": 0, "green": 0}
    for wagon in world["train"]:
        prizes[wagons[wagon][0]] += wagons[wagon][1]
    players = world["players"]
    totals = {colour: [0] * players for colour in COLOURS}
    for seat, cards in enumerate(world["played"]):
        deck = decks[seat]
        for card, colour in cards:
            first, second = deck[card]
            totals[colour][seat] += first[1] if first[0] == colour else second[1]
    return prizes, totals


def fast_choice(world: State, seat: int, rng: random.Random) -> dict[str, Any]:
    """The medium bot's choice (``bots.heuristic_choice``) computed from a world directly.

    Same rules, same order of actions and of ``rng`` draws, without building a view: bid for
    expected loot, stall where a card cannot win while rivals still bid, else pass; forced to
    open, spend the weakest half."""
    return choose(world, seat, rng, *board_of(world))


def choose(
    world: State,
    seat: int,
    rng: random.Random,
    prizes: dict[str, int],
    totals: dict[str, list[int]],
) -> dict[str, Any]:
    """:func:`fast_choice` with the board (:func:`board_of`) given: a playout keeps it up to
    date as cards are played instead of adding the table up again at every step."""
    deck = world["decks"][seat]
    passed = world["passed"]
    rivals_bidding = 0
    for other in range(len(passed)):
        if other != seat and not passed[other]:
            rivals_bidding += 1
    mine_by = {}
    rival_best = {}
    for colour, row in totals.items():
        mine_by[colour] = row[seat]
        best_other = 0
        for other in range(len(row)):
            if other != seat and row[other] > best_other:
                best_other = row[other]
        rival_best[colour] = best_other
    safe = float(SAFE_LEAD_PER_RIVAL * rivals_bidding)

    best = None
    best_gain = 0.0
    stall = None
    hand = world["hands"][seat]
    halves = _halves(deck)
    for card in hand:
        for colour, value, both in halves[card]:
            mine = mine_by[colour]
            after = mine + value
            rival = rival_best[colour]
            if after <= rival:
                key = (-(prizes[colour] if after == rival else 0), value, card, colour)
                if stall is None or key < stall:
                    stall = key
                continue
            # chance(lead): 0 without a lead, 1 when nobody else bids, else lead / safe, at most 1.
            if not rivals_bidding:
                won = 1.0
                before = 1.0 if mine > rival else 0.0
            else:
                won = (after - rival) / safe
                if won > 1.0:
                    won = 1.0
                if mine > rival:
                    before = (mine - rival) / safe
                    if before > 1.0:
                        before = 1.0
                else:
                    before = 0.0
            gain = prizes[colour] * (won - before) - won * CARD_POINT_COST * both
            if gain <= 0:
                continue
            gain += rng.random() * 1e-3
            if gain > best_gain:
                best_gain = gain
                best = (card, colour)
    if best is not None:
        return {"type": "play", "card": best[0], "colour": best[1]}
    if rivals_bidding and stall is not None:
        return {"type": "play", "card": stall[2], "colour": stall[3]}
    if not (seat == world["marker"] and world["marker_must_play"] and hand):
        return {"type": "pass"}
    weakest = None
    for card in hand:
        for colour, value, _bullets in deck[card]:
            key = (value, -prizes[colour], card)
            if weakest is None or key < weakest[0]:
                weakest = (key, colour)
    return {"type": "play", "card": weakest[0][2], "colour": weakest[1]}


def effective_scores(world: State) -> list[float]:
    """Final scores with the tie-break folded in (more cards in hand wins a tie)."""
    rules = world["rules"]
    if rules["variant_a_bullets"] or rules["variant_b_twos"]:
        totals = [entry["total"] for entry in scoring.breakdowns(world)]
    else:
        wagons = world["wagons"]
        totals = [sum(wagons[w][1] for w in loot) for loot in world["captured"]]
    return [total + len(hand) / 100 for total, hand in zip(totals, world["hands"])]


class NapadAdapter:
    """What the generic search needs from To jest napad!"""

    def sample_world(self, observation: Observation, rng: random.Random) -> State:
        return sample_world(observation, rng)

    def prior_action(self, observation: Observation, rng: random.Random) -> dict[str, Any]:
        return heuristic_choice(observation["view"], observation["seat"], rng)

    def playout(
        self, engine: Any, world: State, seat: int, action: dict[str, Any], rng: random.Random
    ) -> float:
        apply = engine.apply
        state, _events = apply(world, seat, action)
        prizes, totals = board_of(state)
        while state["turn"] is not None:
            mover = state["turn"]
            move = choose(state, mover, rng, prizes, totals)
            after, _events = apply(state, mover, move)
            if after["round"] != state["round"]:
                prizes, totals = board_of(after)
            elif move["type"] == "play":
                first, second = state["decks"][mover][move["card"]]
                colour = move["colour"]
                totals[colour][mover] += first[1] if first[0] == colour else second[1]
            state = after
        return win_reward(effective_scores(state), seat, MARGIN_SCALE)


SEARCH_BOT = SearchBot(NapadAdapter(), BUDGET)
