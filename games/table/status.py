"""The game page's status line: what the viewer must decide now, whom the table waits for and
until when, or who won — one sentence in the viewer's language, from the engine's view.

It is the first thing on the page (the sticky status bar) and what the live region reads out
after every change, so it names the decision the way the buttons below it do.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.models import Game, Seat
from games.templatetags.board_labels import colt_card_name

# What the owner of a resolving Colt Express card (or of a pending choice) is asked.
_COLT_CHOICE_PROMPTS = {
    "move": gettext_lazy("Your Move resolves: choose where it takes you."),
    "floor": gettext_lazy("Your Floor change resolves."),
    "fire": gettext_lazy("Your Fire resolves: choose whom you shoot."),
    "rob": gettext_lazy("Your Robbery resolves: choose the loot you take."),
    "punch": gettext_lazy(
        "Your Punch resolves: choose whom you punch, what they drop and where they land."
    ),
    "marshal": gettext_lazy("Your Marshal resolves: choose where the marshal goes."),
    "hide": gettext_lazy("You are alone in the Time Machine: choose where you hide."),
    "pickpocket": gettext_lazy("Pickpocketing: take a purse from your spot, or leave it?"),
}
_COLT_TURN_PROMPTS = {
    "N": gettext_lazy("Play a card face up, or draw three cards."),
    "T": gettext_lazy("Tunnel: play a card face down, or draw three cards."),
    "S": gettext_lazy("Speeding-up: play or draw, twice in a row."),
    "R": gettext_lazy("Switching: play a card face up, or draw three cards."),
}


def _colt_prompt(view: dict[str, Any]) -> str:
    pending = view.get("pending")
    if pending:
        return str(_COLT_CHOICE_PROMPTS.get(pending["kind"], _("Choose how your card resolves.")))
    card = view.get("round_card") or {}
    turns, index = card.get("turns") or [], card.get("turn_index")
    if isinstance(index, int) and 0 <= index < len(turns):
        return str(_COLT_TURN_PROMPTS.get(turns[index], _COLT_TURN_PROMPTS["N"]))
    return str(_COLT_TURN_PROMPTS["N"])


def _napad_prompt(view: dict[str, Any]) -> str:
    if view.get("pass_action"):
        return _("Send a gang member to the train, or pass.")
    return _("Send a gang member to the train: you hold the marker and may not pass yet.")


def _colt_waiting(view: dict[str, Any], names: dict[int, str]) -> str | None:
    pending = view.get("pending")
    if not pending:
        return None
    name = names.get(pending["seat"], "")
    if pending["kind"] == "hide":
        return _("Waiting for %(name)s to choose where to hide.") % {"name": name}
    if pending["kind"] == "pickpocket":
        return _("Waiting for %(name)s to pick a pocket, or not.") % {"name": name}
    card = colt_card_name(pending["kind"])
    return _("Waiting for %(name)s to choose how their %(card)s resolves.") % {
        "name": name,
        "card": card,
    }


def game_status(
    game: Game,
    view: dict[str, Any] | None,
    *,
    my_seat: Seat | None,
    names: dict[int, str],
    result_rows: list[dict[str, Any]] | None,
) -> dict[str, Any]:
    """``{"tone", "text", "deadline"}``: tone is turn / wait / bot / over / open / closed."""
    status: dict[str, Any] = {"tone": "closed", "text": "", "deadline": None}
    if game.status == Game.Status.OPEN:
        status["tone"] = "open"
        return status
    if game.status == Game.Status.FINISHED:
        status["tone"] = "over"
        winners = [row["name"] for row in result_rows or () if row["place"] == 1]
        if len(winners) == 1:
            status["text"] = _("The game is over: %(name)s wins.") % {"name": winners[0]}
        elif winners:
            status["text"] = _("The game is over: %(names)s share the win.") % {
                "names": ", ".join(winners)
            }
        else:
            status["text"] = _("The game is over.")
        return status
    if game.status != Game.Status.RUNNING or view is None:
        return status
    status["deadline"] = game.deadline
    if my_seat is not None and my_seat.is_stand_in:
        status["tone"] = "bot"
        status["text"] = _("A bot plays your seat for the rest of the game.")
        return status
    if view.get("is_my_turn"):
        status["tone"] = "turn"
        status["text"] = (_napad_prompt if game.kind == "napad" else _colt_prompt)(view)
        return status
    status["tone"] = "wait"
    waiting = _colt_waiting(view, names) if game.kind == "colt" else None
    if waiting is None:
        status["text"] = _("Waiting for %(names)s.") % {
            "names": ", ".join(names.get(p, "") for p in game.to_move)
        }
    else:
        status["text"] = waiting
    return status
