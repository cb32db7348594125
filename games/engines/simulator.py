"""Play many bot games of any engine and summarise the balance: wins and scores per seat, per
bot kind and per identity (gang or character).

Uses only the engine contract (``games.engines.base``), so it works for every game kind.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from . import get_engine
from .base import ConfigError, bot_name, rng_for

# A game that has not ended after this many actions is an engine bug, not a long game.
MAX_STEPS_PER_GAME = 100_000


class _Tally:
    """Running totals for one group (a seat, a bot kind or an identity)."""

    __slots__ = ("games", "wins", "score", "place")

    def __init__(self) -> None:
        self.games = 0
        self.wins = 0
        self.score = 0.0
        self.place = 0.0

    def add(self, row: dict[str, Any]) -> None:
        self.games += 1
        self.wins += row["place"] == 1
        self.score += row["score"]
        self.place += row["place"]

    def summary(self) -> dict[str, Any]:
        games = self.games or 1
        return {
            "games": self.games,
            "wins": self.wins,
            "win_rate": round(self.wins / games, 4),
            "mean_score": round(self.score / games, 3),
            "mean_place": round(self.place / games, 3),
        }


def simulate(
    kind: str,
    games: int,
    players: int,
    seed: int | str,
    bots: Sequence[str] | None = None,
    config: dict[str, Any] | None = None,
    *,
    rotate: bool = True,
) -> dict[str, Any]:
    """Play ``games`` complete games between bots and return a JSON-able summary.

    ``bots`` names one bot (or level: ``"hard"``) per seat (a shorter list repeats; none
    means all ``"random"``).
    With ``rotate`` the line-up shifts one seat each game, so every bot sits in every seat
    and a seat advantage does not pass for a better bot. A win is a first place, shared or not.
    """
    engine = get_engine(kind)
    if not isinstance(games, int) or games < 1:
        raise ValueError("games must be a positive whole number")
    if not engine.min_players <= players <= engine.max_players:
        raise ValueError(f"{kind} takes {engine.min_players}..{engine.max_players} players")
    # A level ("hard") stands for its bot ("search").
    names = [bot_name(engine, name) or name for name in bots] if bots else ["random"]
    unknown = sorted({name for name in names if name not in engine.bots})
    if unknown:
        raise ValueError(
            f"unknown bot(s) {', '.join(unknown)}; {kind} has {', '.join(sorted(engine.bots))}"
        )
    lineup = [names[index % len(names)] for index in range(players)]
    config = engine.validate_config(engine.default_config() if config is None else config)

    per_seat = [_Tally() for _ in range(players)]
    per_bot: dict[str, _Tally] = {}
    per_identity: dict[str, _Tally] = {}
    steps = 0
    started = time.perf_counter()
    cpu_started = time.process_time()
    for game in range(games):
        game_seed = f"{seed}-{game}"
        shift = game % players if rotate else 0
        seat_bots = [lineup[(seat + shift) % players] for seat in range(players)]
        bot_moves = [engine.bots[name] for name in seat_bots]
        bot_rngs = [rng_for(game_seed, f"bot-{seat}") for seat in range(players)]
        state = engine.setup(config, players, game_seed)
        game_steps = 0
        while True:
            movers = engine.to_move(state)
            if not movers:
                break
            seat = movers[0]
            action = bot_moves[seat](engine, state, seat, bot_rngs[seat])
            state, _events = engine.apply(state, seat, action)
            game_steps += 1
            if game_steps > MAX_STEPS_PER_GAME:
                raise RuntimeError(f"game {game_seed} did not end after {game_steps} actions")
        if not engine.is_over(state):
            raise RuntimeError(f"game {game_seed}: nobody to move but the game is not over")
        steps += game_steps
        for row in engine.result(state)["ranking"]:
            seat = row["seat"]
            per_seat[seat].add(row)
            per_bot.setdefault(seat_bots[seat], _Tally()).add(row)
            per_identity.setdefault(engine.seat_identity(state, seat), _Tally()).add(row)
    seconds = time.perf_counter() - started
    # CPU time too: on a busy machine it is the fairer measure of speed on one core.
    cpu_seconds = time.process_time() - cpu_started
    return {
        "game": kind,
        "games": games,
        "players": players,
        "seed": seed,
        "bots": lineup,
        "rotate": rotate,
        # The switchable options as played, so a summary says which variants it measured.
        "options": {option["key"]: config.get(option["key"]) for option in engine.options(config)},
        "seconds": round(seconds, 3),
        "games_per_second": round(games / seconds, 1) if seconds else None,
        "cpu_seconds": round(cpu_seconds, 3),
        "games_per_cpu_second": round(games / cpu_seconds, 1) if cpu_seconds else None,
        "actions": steps,
        "mean_actions_per_game": round(steps / games, 1),
        "per_seat": [tally.summary() for tally in per_seat],
        "per_bot": {name: tally.summary() for name, tally in sorted(per_bot.items())},
        "per_identity": {name: tally.summary() for name, tally in sorted(per_identity.items())},
    }


__all__ = ["ConfigError", "simulate"]
