"""Replaying a game from its seed and actions: the replay viewer and the "verify" check.

A game's whole history is its seed plus its ordered actions (design.md §2); replaying them
through the engine must give the stored state exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from games.engines import EngineError, get_engine
from games.models import Game, GameEvent
from games.services.play import seed_hash
from games.wording import error_text


def game_replay_state(game: Game, events: list[GameEvent], step: int) -> dict[str, Any]:
    """The state at version ``step`` (0 = as dealt)."""
    engine = get_engine(game.kind)
    state = engine.setup(game.config, game.seats_count, game.seed, **game.setup_args)
    for event in events[:step]:
        state, _events = engine.apply(state, event.seat, event.action)
    return state


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
