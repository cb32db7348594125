"""Replaying a game from its seed and actions: the replay viewer and the "verify" check.

A game's whole history is its seed plus its ordered actions (design.md §2); replaying them
through the engine must give the stored state exactly.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from games.engines import EngineError, get_engine
from games.models import Game, GameEvent
from games.text.wording import error_text


def seed_hash(seed: str) -> str:
    """The SHA-256 a game shows of its secret seed from the deal on (the play service stores
    it at the start); the seed revealed at the end must hash to it (:func:`game_verify`)."""
    return hashlib.sha256(seed.encode()).hexdigest()


def game_replay_state(game: Game, events: list[GameEvent], step: int) -> dict[str, Any]:
    """The state at version ``step`` (0 = as dealt)."""
    engine = get_engine(game.kind)
    state = engine.setup(game.config, game.seats_count, game.seed, **game.setup_args)
    for event in events[:step]:
        state, _events = engine.apply(state, event.seat, event.action)
    return state


def game_replay_steps(
    game: Game, events: list[GameEvent], start: int, stop: int
) -> list[tuple[GameEvent | None, dict[str, Any]]]:
    """The states from version ``start`` to ``stop``, each with the action that led to it
    (``None`` for the first): one replay from the seed, for "watch what happened"."""
    engine = get_engine(game.kind)
    state = engine.setup(game.config, game.seats_count, game.seed, **game.setup_args)
    steps: list[tuple[GameEvent | None, dict[str, Any]]] = []
    for event in events[:stop]:
        if event.seq == start + 1:
            steps.append((None, state))
        state, _events = engine.apply(state, event.seat, event.action)
        if event.seq > start:
            steps.append((event, state))
    if not steps:
        steps.append((None, state))
    return steps


# What the end screen's chart counts for each seat, read from that seat's own view (so a purse
# or a captured wagon counts at its value): To jest napad!'s captured wagons, Colt Express's
# loot.
_LOOT_OF_SEAT = {
    "napad": lambda view, seat: sum(w["value"] for w in view["seats"][seat]["captured"] or ()),
    "colt": lambda view, seat: view["bandits"][seat].get("loot_value") or 0,
}


def game_round_scores(game: Game, events: list[GameEvent]) -> dict[str, Any]:
    """Each seat's loot at the end of every round of a game, replayed once from its seed:
    ``{"series": {seat: [after round 1, …]}}``. A round ends where the next one begins."""
    loot_of = _LOOT_OF_SEAT.get(game.kind)
    if loot_of is None or not game.seed:
        return {"series": {}}
    engine = get_engine(game.kind)
    state = engine.setup(game.config, game.seats_count, game.seed, **game.setup_args)
    series: dict[str, list[int]] = {str(seat): [] for seat in range(game.seats_count)}

    def snapshot() -> None:
        for seat in range(game.seats_count):
            series[str(seat)].append(loot_of(engine.view(state, seat), seat))

    for index, event in enumerate(events):
        state, _events = engine.apply(state, event.seat, event.action)
        new_round = any(e.get("type") == "round_started" for e in event.public_events)
        if new_round or index == len(events) - 1:
            snapshot()
    return {"series": series}


@dataclass(frozen=True)
class Verification:
    ok: bool
    message: str


def game_verify(game: Game, events: list[GameEvent]) -> Verification:
    """Check the seed against the hash shown from the start, then replay every action."""
    if game.status != Game.Status.FINISHED:
        return Verification(False, _("Only a finished game can be verified: its seed is secret."))
    if seed_hash(game.seed) != game.seed_hash:
        return Verification(
            False, _("The revealed seed does not match the hash shown at the start.")
        )
    if [event.seq for event in events] != list(range(1, len(events) + 1)):
        return Verification(False, _("The game's log has a gap."))
    engine = get_engine(game.kind)
    try:
        state = game_replay_state(game, events, len(events))
    except EngineError as error:
        return Verification(False, _("Replaying failed: %(error)s") % {"error": error_text(error)})
    if engine.to_json(state) != game.state:
        return Verification(False, _("Replaying the actions from the seed gives a different game."))
    return Verification(
        True,
        _(
            "Verified: the seed matches its hash, and replaying its %(count)s actions from it "
            "gives exactly the stored game."
        )
        % {"count": len(events)},
    )
