""" "Since your last visit": dismissing the panel, and watching what happened on the board.

Watching replays the game from its seed up to now (once per click, never on a page load) and
draws the board as the member's own seat — or, for a spectator, the table — saw it after each
of those moves: exactly what they would have seen had they watched it live.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games.engines import EngineError
from games.selectors.gamelog import event_texts
from games.selectors.tables import game_events, player_of
from games.services.replay import game_replay_steps
from games.services.visits import visit_close
from games.table.catchup import SINCE_ACTIONS
from games.table.rendering import board_context, render_since_closed, render_table

from .play import _int_or, _visible_game

WATCH_TEMPLATE = "games/_watch.html"


@login_required
@require_POST
def since_dismiss(request: HttpRequest, game_id: int) -> HttpResponse:
    game, _access = _visible_game(request, game_id)
    player = player_of(request.user)
    version = _int_or(request.POST.get("version"), game.version)
    if player is not None:
        # Never past the game's own version: a forged number closes nothing that is to come.
        visit_close(game.pk, player.pk, min(max(version or 0, 0), game.version))
    if request.htmx:
        return HttpResponse(render_since_closed())
    return redirect("game_detail", game_id=game.pk)


@login_required
@require_GET
def game_watch(request: HttpRequest, game_id: int) -> HttpResponse:
    """The board after each move since version ``from`` (at most the panel's last moves),
    as ``<template>`` elements the page steps through (static/js/game.js)."""
    game, access = _visible_game(request, game_id)
    start = _int_or(request.GET.get("from"), None)
    if game.state is None or start is None or not game.version:
        return HttpResponse("")
    start = min(max(start, game.version - SINCE_ACTIONS, 0), game.version - 1)
    everything = game.status == game.Status.FINISHED
    try:
        steps = game_replay_steps(game, game_events(game), start, game.version)
    except EngineError:
        return HttpResponse("")
    position = access.position
    shown = []
    for event, state in steps:
        context = board_context(game, state, position, with_actions=False)
        caption = _("The table as you last saw it")
        if event is not None:
            caption = " ".join(
                event_texts(
                    event,
                    position,
                    everything=everything,
                    names=context["names"],
                    kind=game.kind,
                )
            )
        shown.append({"caption": caption, "seq": event.seq if event else start, **context})
    return HttpResponse(render_table(WATCH_TEMPLATE, {"steps": shown, "game": game}, request))
