"""Turning a game and a viewer into HTML: the one place the HTTP views and the consumer share.

Everything a page shows of a game comes from ``engine.view(state, seat)`` (plus the viewer's
legal actions), never from the stored state directly, so a fragment can only hold what that
viewer may see. ``Game.state`` and ``Game.seed`` never reach a template.
"""

from __future__ import annotations

import json
from datetime import timedelta
from functools import partial
from typing import Any

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.bots import seat_bot_label
from games.engines import get_engine
from games.gamelog import log_entries
from games.models import Game, Seat
from games.selectors import game_chat, game_recent_events, game_state
from games.wording import action_label, say

LOG_LINES = 20
LIVE_TEMPLATE = "games/game_detail.html#live"
CHAT_TEMPLATE = "games/game_detail.html#chat"
ANNOUNCE_TEMPLATE = "games/game_detail.html#announce"


def seat_names(game: Game) -> dict[int, str]:
    """Seat → the member's display name (or the bot), from the game's (prefetched) seats."""
    return {seat.position: seat_name(seat) for seat in game.seats.all()}


def duration_text(duration: timedelta) -> str:
    """A turn time limit as people say it: "3 days", "12 hours", "5 minutes"."""
    minutes = int(duration.total_seconds() // 60)
    if minutes % (24 * 60) == 0:
        days = minutes // (24 * 60)
        return ngettext("%(count)d day", "%(count)d days", days) % {"count": days}
    if minutes % 60 == 0:
        hours = minutes // 60
        return ngettext("%(count)d hour", "%(count)d hours", hours) % {"count": hours}
    return ngettext("%(count)d minute", "%(count)d minutes", minutes) % {"count": minutes}


def option_choices(option: dict[str, Any]) -> list[tuple[Any, str]]:
    """An engine option's choices as (value, label): each is a plain value or {value, label}."""
    return [
        (c["value"], str(c.get("label", c["value"]))) if isinstance(c, dict) else (c, str(c))
        for c in option.get("choices", [])
    ]


def chosen_options(game: Game) -> list[dict[str, str]]:
    """The table's variants in words, as the engine names them (other keys are not variants)."""
    engine = get_engine(game.kind)
    shown = []
    for option in engine.options(game.ruleset.config):
        if option["key"] not in game.options:
            continue
        value = game.options[option["key"]]
        if option["type"] == "bool":
            text = _("on") if value else _("off")
        else:
            text = _(dict(option_choices(option)).get(value, str(value)))
        shown.append({"label": _(option["label"]), "value": text})
    return shown


def seat_name(seat: Seat) -> str:
    if seat.player is not None:
        return seat.player.display_name
    return seat_bot_label(seat.bot_kind)


def action_key(action: dict[str, Any]) -> str:
    """An action as canonical JSON without its label: what the buttons post."""
    return json.dumps({k: v for k, v in action.items() if k != "label"}, sort_keys=True)


def _napad_decorate(view: dict[str, Any], legal: dict[str, dict[str, Any]]) -> bool:
    """Group played cards by colour and hang the legal play on each half of my hand.

    Returns True: every legal action has its button on the board."""
    for seat in view["seats"]:
        groups = []
        for colour in ("yellow", "red", "green"):
            cards = [card for card in seat["played"] if card["colour"] == colour]
            if cards:
                groups.append(
                    {
                        "colour": colour,
                        "cargo": next(
                            h["cargo"] for h in cards[0]["halves"] if h["colour"] == colour
                        ),
                        "cards": cards,
                        "total": seat["totals"][colour],
                    }
                )
        seat["played_by_colour"] = groups
    for card in view.get("hand") or []:
        for half in card["halves"]:
            key = action_key({"type": "play", "card": card["id"], "colour": half["colour"]})
            half["action"] = key if key in legal else None
    pass_key = action_key({"type": "pass"})
    view["pass_action"] = pass_key if pass_key in legal else None
    return True


def _colt_decorate(view: dict[str, Any], legal: dict[str, dict[str, Any]]) -> bool:
    """Put bandits (with names) into the spots they stand in, the pile's owners on the pile,
    and the legal Schemin' plays on the cards of my hand.

    Returns True when every legal action got its button on the board (Schemin'); Stealin'
    choices are left to the page's list of actions."""
    bandits = view["bandits"]
    for bandit in bandits:
        bandit["css"] = bandit["character"].lower()
    for car in view["train"]:
        for level in ("inside", "roof"):
            car[level]["bandits"] = [bandits[seat] for seat in car[level]["bandits"]]
    if view.get("time_machine"):
        view["time_machine"]["bandits"] = [
            bandits[seat] for seat in view["time_machine"]["bandits"]
        ]
    view["hidden_bandits"] = [b for b in bandits if b["level"] == "hidden" and b["car"] is None]
    hiding = next((b for b in bandits if b["level"] == "hidden" and b["car"] is not None), None)
    view["my_hidden_spot"] = view["train"][hiding["car"]] if hiding else None
    pending = view.get("pending")
    current = pending.get("card") if pending else view.get("resolving")
    for index, card in enumerate(view["pile"]):
        card["bandit"] = bandits[card["seat"]]
        card["is_resolving"] = current == index
    if pending:
        pending = view["pending"]
        pending["bandit"] = bandits[pending["seat"]]
        pile_index = pending.get("card")
        if isinstance(pile_index, int) and 0 <= pile_index < len(view["pile"]):
            pending["pile_card"] = view["pile"][pile_index]
    placed = set()
    hand = []
    for card in view.get("hand") or []:
        entry = {"card": card, "is_bullet": card.startswith("bullet:"), "plays": []}
        for face_down in (False, True):
            key = action_key({"type": "play", "card": card, "face_down": face_down})
            if key in legal:
                entry["plays"].append({"json": key, "face_down": face_down})
                placed.add(key)
        hand.append(entry)
    view["hand_cards"] = hand
    draw_key = action_key({"type": "draw"})
    view["draw_action"] = draw_key if draw_key in legal else None
    if view["draw_action"]:
        placed.add(draw_key)
    return bool(legal) and placed == set(legal)


_DECORATORS = {"napad": _napad_decorate, "colt": _colt_decorate}


def board_context(
    game: Game,
    state: dict[str, Any] | None,
    position: int | None,
    *,
    with_actions: bool = True,
) -> dict[str, Any]:
    """The viewer's board: the engine's view, seat names, and the actions they may take."""
    seats = list(game.seats.all())
    names = {seat.position: seat_name(seat) for seat in seats}
    context: dict[str, Any] = {
        "board_template": f"games/{game.kind}/board.html",
        "view": None,
        "actions": [],
        "names": names,
        # Where every move button posts (games/_act_form.html): reversed once per board.
        "act_url": reverse("game_act", args=[game.pk]),
    }
    if state is None:
        return context
    engine = get_engine(game.kind)
    view = engine.view(state, position)
    # Engines list seats as "seats" (Napad) or "bandits" (Colt Express): give each its name.
    for seat_view in [*view.get("seats", ()), *view.get("bandits", ())]:
        if isinstance(seat_view, dict) and "seat" in seat_view:
            seat_view["name"] = names.get(seat_view["seat"], "")
    legal_actions = []
    if with_actions and position is not None and position in engine.to_move(state):
        legal_actions = engine.legal_actions(state, position)
    legal = {action_key(action): action for action in legal_actions}
    decorate = _DECORATORS.get(game.kind)
    actions_on_board = decorate(view, legal) if decorate is not None else False
    context["view"] = view
    # A board that draws its own buttons needs no list; otherwise the engine's labels serve.
    if not actions_on_board:
        context["actions"] = [
            {"json": key, "label": action_label(engine, state, position, action, names)}
            for key, action in legal.items()
        ]
    return context


def game_context(
    game: Game, *, position: int | None, message: str = "", message_ok: bool = True
) -> dict[str, Any]:
    """Everything the live part of the game page needs, for one viewer."""
    engine = get_engine(game.kind)
    state = game_state(game)
    context = board_context(game, state, position)
    seats = list(game.seats.all())
    context.update(
        game=game,
        seats=seats,
        position=position,
        my_seat=next((s for s in seats if s.position == position), None),
        to_move_names=[context["names"].get(p, "") for p in game.to_move],
        my_turn=position is not None and position in game.to_move,
        message=message,
        message_ok=message_ok,
        log=log_entries(
            game_recent_events(game, limit=LOG_LINES),
            position,
            names=context["names"],
            kind=game.kind,
            round_now=(context["view"] or {}).get("round"),
        ),
        turn_time_limit=duration_text(game.turn_time_limit),
        # Only the whole page's header shows them (and needs the ruleset): a fragment never
        # asks, so it costs nothing there.
        chosen_options=SimpleLazyObject(partial(chosen_options, game)),
        seat_list=[
            {"number": position + 1, "name": context["names"].get(position)}
            for position in range(game.seats_count)
        ],
        result=None,
    )
    if game.status == Game.Status.FINISHED and state is not None:
        result = engine.result(state)
        identities = {seat.position: seat.identity for seat in seats}
        context["result"] = {
            "tie_break": " ".join(say(note) for note in engine.result_notes(state)),
            "rows": [
                {
                    **row,
                    "name": context["names"].get(row["seat"], ""),
                    "identity": identities.get(row["seat"], ""),
                    "breakdown": result["breakdown"][row["seat"]],
                }
                for row in result["ranking"]
            ],
            "breakdown_template": f"games/{game.kind}/result.html",
        }
    return context


def render_game_live(
    game: Game,
    *,
    position: int | None,
    request: HttpRequest | None = None,
    user: Any = None,
    message: str = "",
    message_ok: bool = True,
    oob: bool = False,
) -> str:
    """The live part of the page (status, board, actions, result, log) for one viewer.

    Without a request (the consumer) pass the ``user`` the fragment is for."""
    context = game_context(game, position=position, message=message, message_ok=message_ok)
    context["oob"] = oob
    if request is None:
        context["user"] = user
    html = render_to_string(LIVE_TEMPLATE, context, request=request)
    if oob:
        # A pushed update also tells screen readers what happened (base.html's live region).
        html += render_to_string(ANNOUNCE_TEMPLATE, context, request=request)
    return html


def render_chat(
    game: Game, *, request: HttpRequest | None = None, oob: bool = False, error: str = ""
) -> str:
    """The table chat's last lines (and why a message was refused, for its writer)."""
    context = {"game": game, "chat": game_chat(game), "oob": oob, "chat_error": error}
    return render_to_string(CHAT_TEMPLATE, context, request=request)
