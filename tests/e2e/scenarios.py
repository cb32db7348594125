"""Tables in chosen situations for the browser tests: every decision of both games, a finished
game of each, a full six-seat train.

Run inside the live club's own environment (``LiveClub.scenarios``, through ``manage.py
shell``): each situation is first found with the engine alone — random legal moves from a
numbered seed until a predicate holds — and then played for real through the play service,
from a table opened, joined and started through the services with that seed, so the club
holds an ordinary game at that point. Deterministic: the same seeds give the same tables.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

from django.contrib.auth import get_user_model

from games.engines import get_engine
from games.models import Game, Ruleset
from games.services import play

State = dict[str, Any]
Predicate = Callable[[State, Any], bool]
MEMBERS = ("alice", "bob")


def _seed(number: int) -> str:
    return f"{number:064x}"


def _actions_until(
    slug: str, seats: int, done: Predicate, *, seeds: range, limit: int
) -> tuple[str, list[tuple[int, dict]]]:
    """(seed, [(seat, action)]) reaching a state where ``done(state, engine)``."""
    ruleset = Ruleset.objects.get(slug=slug, version=1)
    engine = get_engine(ruleset.kind)
    for number in seeds:
        seed = _seed(number)
        rng = random.Random(number)
        state = engine.setup(ruleset.config, seats, seed)
        actions: list[tuple[int, dict]] = []
        for _move in range(limit):
            if done(state, engine):
                return seed, actions
            if engine.is_over(state):
                break
            seat = engine.to_move(state)[0]
            legal = engine.legal_actions(state, seat)
            action = {
                k: v for k, v in legal[int(rng.random() * len(legal))].items() if k != "label"
            }
            state, _events = engine.apply(state, seat, action)
            actions.append((seat, action))
    raise RuntimeError(f"no seed in {seeds} reaches the situation on {slug}")


def _table(slug: str, seats: int, seed: str, actions: list[tuple[int, dict]]) -> Game:
    """Open, fill and start a table with ``seed`` (alice, bob, bots after them), then play
    ``actions`` through the play service."""
    users = {user.username: user for user in get_user_model().objects.filter(username__in=MEMBERS)}
    ruleset = Ruleset.objects.get(slug=slug, version=1)
    bots = {position: "random" for position in range(2, seats)}
    game = play.game_create(
        creator=users["alice"],
        ruleset=ruleset,
        seats=seats,
        turn_time_limit=timedelta(hours=24),
        bot_seats=bots,
    )
    play.seat_join(game_id=game.pk, user=users["bob"])
    real = play.secrets
    play.secrets = SimpleNamespace(token_hex=lambda nbytes: seed)
    try:
        play.game_start(game_id=game.pk, user=users["alice"])
    finally:
        play.secrets = real
    for seat, action in actions:
        game.refresh_from_db()
        result = play.move_play_for_seat(
            game_id=game.pk, position=seat, action=action, expected_version=game.version
        )
        if not result.ok:
            raise RuntimeError(f"game {game.pk}: {action} refused: {result.message}")
    game.refresh_from_db()
    return game


def _member_to_move(state: State, engine) -> int | None:
    seats = engine.to_move(state)
    return seats[0] if seats and seats[0] in (0, 1) else None


def _pending(kind: str) -> Predicate:
    def done(state: State, engine) -> bool:
        pending = state.get("pending")
        return (
            state["phase"] in ("stealin", "hide", "pickpocket")
            and pending is not None
            and pending["kind"] == kind
            and _member_to_move(state, engine) is not None
            and len(engine.legal_actions(state, pending["seat"])) > 1
        )

    return done


def _schemin(state: State, engine) -> bool:
    return state["phase"] == "schemin" and _member_to_move(state, engine) is not None


def _napad_turn(state: State, engine) -> bool:
    # A few cards on the table already, and a member to play.
    played = sum(len(cards) for cards in state["played"])
    return (
        state["phase"] == "robbery" and played >= 3 and _member_to_move(state, engine) is not None
    )


def _bob_passes_to_end_the_round(state: State, engine) -> bool:
    """Alice has passed; Bob, to move with cards on the table, may pass: his pass divides
    the loot and starts the next round."""
    played = sum(len(cards) for cards in state["played"])
    return (
        state["phase"] == "robbery"
        and state["round"] == 1
        and state["passed"][0]
        and engine.to_move(state) == [1]
        and played >= 4
        and {"type": "pass"}
        in [{k: v for k, v in a.items() if k != "label"} for a in engine.legal_actions(state, 1)]
    )


def _colt_bob_moves(state: State, engine) -> bool:
    """Bob's Move resolves in Stealin' with more than one place to go."""
    pending = state.get("pending")
    return (
        state["phase"] == "stealin"
        and pending is not None
        and pending["seat"] == 1
        and pending["kind"] == "move"
        and len(engine.legal_actions(state, 1)) > 1
    )


def _over(state: State, engine) -> bool:
    return engine.is_over(state)


# name -> (ruleset, seats, predicate, seeds, move limit)
SITUATIONS: dict[str, tuple[str, int, Predicate, range, int]] = {
    "napad_turn": ("napad-designed-default", 2, _napad_turn, range(1, 40), 400),
    "napad_four": ("napad-designed-default", 4, _napad_turn, range(1, 40), 400),
    "napad_over": ("napad-designed-default", 2, _over, range(1, 10), 2000),
    "napad_round_end": (
        "napad-designed-default",
        2,
        _bob_passes_to_end_the_round,
        range(1, 200),
        400,
    ),
    "colt_bob_moves": ("colt-express", 2, _colt_bob_moves, range(1, 200), 600),
    "colt_schemin": ("colt-express", 2, _schemin, range(1, 40), 400),
    "colt_six": ("colt-express-time-machine", 6, _schemin, range(1, 40), 400),
    "colt_move": ("colt-express", 2, _pending("move"), range(1, 200), 400),
    "colt_fire": ("colt-express", 3, _pending("fire"), range(1, 200), 600),
    "colt_rob": ("colt-express", 2, _pending("rob"), range(1, 200), 600),
    "colt_punch": ("colt-express", 3, _pending("punch"), range(1, 300), 800),
    "colt_marshal": ("colt-express", 2, _pending("marshal"), range(1, 200), 600),
    "colt_hide": ("colt-express-time-machine", 2, _pending("hide"), range(1, 600), 2000),
    "colt_pickpocket": ("colt-express", 2, _pending("pickpocket"), range(1, 600), 2000),
    "colt_over": ("colt-express-time-machine", 3, _over, range(1, 10), 4000),
}


def scenarios_create(names: list[str] | None = None) -> dict[str, dict]:
    """Create the situations named (default: all); returns name -> {game, to_move}."""
    made = {}
    for name in names or list(SITUATIONS):
        slug, seats, done, seeds, limit = SITUATIONS[name]
        seed, actions = _actions_until(slug, seats, done, seeds=seeds, limit=limit)
        game = _table(slug, seats, seed, actions)
        to_move = game.to_move[0] if game.to_move else None
        member = MEMBERS[to_move] if to_move in (0, 1) else None
        made[name] = {"game": game.pk, "to_move": member, "kind": game.kind}
    return made


def main(names: list[str] | None = None) -> None:
    print("SCENARIOS " + json.dumps(scenarios_create(names)))
