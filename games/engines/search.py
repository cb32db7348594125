"""Search bots: determinized Monte Carlo search that decides from one seat's knowledge only.

A search bot keeps the bot contract (``bot(engine, state, seat, rng) -> action``) but cannot
peek: its first step turns the state into an *observation* — ``engine.view(state, seat)`` and
``engine.legal_actions(state, seat)``, exactly what the seat's page and API answer carry — and
the search is a function of that observation, the bot's own RNG and its budget, never of the
state (:meth:`SearchBot.__call__` hands nothing else on). Everything hidden from the seat is
*sampled*: each playout begins from a fresh *world*, a full engine state the game's
:class:`Adapter` builds from the observation alone (other hands and decks, face-down cards,
purse values, a hidden Time Machine spot, the treasury order, future round cards), consistent
with what the seat sees. So changing anything the seat may not see cannot change the action a
given bot seed picks (``tests/engines/*/test_*_search.py`` check it).

The search compares the seat's legal actions by playing each of them out on sampled worlds
(determinized Monte Carlo, one level deep) with *sequential halving* and *common random
numbers*: in a round every surviving action is played out on the same worlds with the same
playout seeds, the game's fast heuristic policy finishing the game for every seat; the reward
(a win, shared wins split, plus a little for the margin) is averaged, and the better half
survives into the next round. Comparing actions on identical futures removes most of the
luck from the comparison, so a few hundred playouts tell actions apart. The heuristic's own
favourite gets a small bonus, so a search too short to separate two actions keeps the sound
default.

The budget is a number of playouts *and* a CPU-time cap (``time.process_time``); whichever
ends first stops the search. The playout count makes a decision reproducible; the CPU cap is
the safety net that keeps a decision within its time on a busy machine.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Any, Protocol

State = dict[str, Any]
Action = dict[str, Any]
Observation = dict[str, Any]


@dataclass(frozen=True)
class Budget:
    """How long one decision may search: ``playouts`` at most, ``cpu_seconds`` at most."""

    playouts: int
    cpu_seconds: float
    # Added to the heuristic favourite's mean reward when actions are ranked: a search too
    # short to tell two actions apart keeps the sound default.
    prior_bonus: float = 0.01


@dataclass
class Searched:
    """What a search found: the surviving actions best first (indices into the legal
    actions), ``[playouts, total reward]`` per action, and the playouts spent."""

    ranking: list[int]
    stats: list[list[float]]
    playouts: int


class Adapter(Protocol):
    """What a game gives the search. Every method sees an observation or a sampled world,
    never the true state."""

    def sample_world(self, observation: Observation, rng: random.Random) -> State:
        """A full state consistent with the observation (hidden parts drawn from ``rng``),
        owned by the caller: playouts may change it in place."""
        ...

    def prior_action(self, observation: Observation, rng: random.Random) -> Action | None:
        """The heuristic's favourite among the observation's legal actions (or None)."""
        ...

    def playout(
        self, engine: Any, world: State, seat: int, action: Action, rng: random.Random
    ) -> float:
        """Play ``action`` for ``seat`` in ``world``, finish with the fast policy, and return
        ``seat``'s reward in [0, 1]."""
        ...


def observe(engine: Any, state: State, seat: int) -> Observation:
    """Everything a search may know: the seat's view and its legal actions (what its page and
    the API show it). The one place a search bot touches the state."""
    return {
        "seat": seat,
        "view": engine.view(state, seat),
        "legal_actions": engine.legal_actions(state, seat),
    }


def _without_label(action: Action) -> Action:
    return {key: value for key, value in action.items() if key != "label"}


class SearchBot:
    """A bot that searches an adapter's sampled worlds within a budget."""

    def __init__(self, adapter: Adapter, budget: Budget):
        self.adapter = adapter
        self.budget = budget

    def __call__(self, engine: Any, state: State, seat: int, rng: random.Random) -> Action:
        observation = observe(engine, state, seat)
        # From here on only the observation exists for the search: the state is not passed on
        # (the engine is the stateless rules object).
        return self.decide(engine, observation, rng)

    def decide(
        self,
        engine: Any,
        observation: Observation,
        rng: random.Random,
        budget: Budget | None = None,
    ) -> Action:
        """The action to play, from the observation and the bot's RNG alone."""
        actions = observation["legal_actions"]
        if not actions:
            raise ValueError(f"seat {observation['seat']} has nothing to do")
        if len(actions) == 1:
            return actions[0]
        if budget is None:
            budget = self.budget
        return actions[self.search(engine, observation, rng, budget).ranking[0]]

    def search(
        self, engine: Any, observation: Observation, rng: random.Random, budget: Budget
    ) -> Searched:
        """The legal actions ranked (best first), with each one's playouts and rewards.

        Sequential halving with common random numbers: in each round every surviving action
        is played out on the same sampled worlds with the same playout seeds, so actions are
        compared on identical futures and the difference is the action's alone; after each
        round the better half (by mean reward) survives. Rounds get equal shares of what is
        left of the budget.
        """
        actions = observation["legal_actions"]
        adapter = self.adapter
        seat = observation["seat"]
        count = len(actions)
        plain = [_without_label(action) for action in actions]
        bonus = [0.0] * count
        favourite = adapter.prior_action(observation, rng)
        if favourite is not None:
            wanted = _without_label(favourite)
            for index, action in enumerate(plain):
                if action == wanted:
                    bonus[index] = budget.prior_bonus
                    break
        stats = [[0.0, 0.0] for _ in range(count)]
        deadline = time.process_time() + budget.cpu_seconds
        alive = list(range(count))
        rounds = max(1, math.ceil(math.log2(count)))
        spent = 0
        for round_index in range(rounds):
            worlds = max(1, (budget.playouts - spent) // (len(alive) * (rounds - round_index)))
            for _world in range(worlds):
                world_seed = int(rng.random() * 2**53)
                playout_seed = int(rng.random() * 2**53)
                for index in alive:
                    world = adapter.sample_world(observation, random.Random(world_seed))
                    reward = adapter.playout(
                        engine, world, seat, dict(plain[index]), random.Random(playout_seed)
                    )
                    stats[index][0] += 1.0
                    stats[index][1] += reward
                spent += len(alive)
                if spent >= budget.playouts or time.process_time() > deadline:
                    return Searched(self._ranked(stats, bonus, alive), stats, spent)
            if len(alive) > 1:
                alive = self._ranked(stats, bonus, alive)[: (len(alive) + 1) // 2]
        return Searched(self._ranked(stats, bonus, alive), stats, spent)

    @staticmethod
    def _ranked(stats: list[list[float]], bonus: list[float], alive: list[int]) -> list[int]:
        """``alive`` best first: mean reward (plus the favourite's bonus), then list order."""
        return sorted(alive, key=lambda i: (-(stats[i][1] / stats[i][0] + bonus[i]), i))


def win_reward(scores: list[float], seat: int, scale: float) -> float:
    """A playout's reward for ``seat``: 0.8 for a win (split between tied winners) plus up to
    0.2 for the margin over the best rival (squashed by ``scale``), so among lost playouts a
    close second still counts for a little more than a rout."""
    mine = scores[seat]
    best_rival = max(score for other, score in enumerate(scores) if other != seat)
    if mine > best_rival:
        win = 1.0
    elif mine == best_rival:
        win = 1.0 / sum(1 for score in scores if score == mine)
    else:
        win = 0.0
    margin = 0.5 + 0.5 * math.tanh((mine - best_rival) / scale)
    return 0.8 * win + 0.2 * margin
