"""Final scoring: loot, the Gunslinger bonus, the Time Machine bonus, and the tie-break.

Richest wins. Gunslinger: $1000 to every player tied for the most bullets fired (nobody if
nobody fired). Ties go to whoever received the fewest bullet cards; still tied, shared.
"""

from __future__ import annotations

from typing import Any

from ..base import gettext_noop as _
from .data import BULLETS_PER_BANDIT, GUNSLINGER_BONUS, LOOT_KINDS, token_kind, token_value
from .state import State

TIE_BREAK = _("Richest wins; ties go to the bandit who received the fewest bullets; then shared.")


def loot_breakdown(tokens: list[str]) -> dict[str, dict[str, int]]:
    breakdown = {kind: {"count": 0, "value": 0} for kind in LOOT_KINDS}
    for token in tokens:
        entry = breakdown[token_kind(token)]
        entry["count"] += 1
        entry["value"] += token_value(token)
    return breakdown


def gunslingers(state: State) -> list[int]:
    fired = [BULLETS_PER_BANDIT - left for left in state["bullets"]]
    most = max(fired)
    return [seat for seat, count in enumerate(fired) if count == most] if most else []


def result(state: State) -> dict[str, Any]:
    players = state["players"]
    winners_of_gunslinger = gunslingers(state)
    scores, breakdown = [], []
    for seat in range(players):
        loot = loot_breakdown(state["loot"][seat])
        loot_total = sum(entry["value"] for entry in loot.values())
        gunslinger = GUNSLINGER_BONUS if seat in winners_of_gunslinger else 0
        score = loot_total + gunslinger + state["tm_bonus"][seat]
        scores.append(score)
        breakdown.append(
            {
                "character": state["characters"][seat],
                "loot": loot,
                "loot_total": loot_total,
                "bullets_fired": BULLETS_PER_BANDIT - state["bullets"][seat],
                "gunslinger_bonus": gunslinger,
                "time_machine_bonus": state["tm_bonus"][seat],
                "bullets_received": state["received"][seat],
                "total": score,
            }
        )

    def rank_key(seat: int) -> tuple[int, int]:
        return (-scores[seat], state["received"][seat])

    order = sorted(range(players), key=lambda seat: (rank_key(seat), seat))
    ranking = [
        {
            "seat": seat,
            "place": 1 + sum(1 for other in range(players) if rank_key(other) < rank_key(seat)),
            "score": scores[seat],
        }
        for seat in order
    ]
    return {"ranking": ranking, "scores": scores, "breakdown": breakdown, "tie_break": TIE_BREAK}
