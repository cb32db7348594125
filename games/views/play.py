"""A table's pages: the game page (HTMX fragment or whole page), moves, seat changes, the
log, chat, verify and the replay viewer. Views stay thin: selectors read, services write."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST, require_safe

from games.engines import EngineError, get_engine
from games.limits import CHAT, limit_reached, limited_response, member_key
from games.models import Game
from games.selectors.gamelog import log_entries, log_groups
from games.selectors.naming import seat_names
from games.selectors.tables import (
    TableAccess,
    game_chat,
    game_events,
    game_seats,
    game_unchanged,
    game_with_seats,
    player_of,
    table_access,
)
from games.services import play
from games.services.replay import game_replay_state, game_verify
from games.services.visits import visit_page_open
from games.table.boards import hand_named
from games.table.rendering import (
    board_context,
    game_context,
    render_chat,
    render_game_live,
    render_game_page,
    render_since_closed,
    render_table,
)
from games.text.parsing import strict_int


def _visible_game(
    request: HttpRequest, game_id: int, *, with_visit: bool = False
) -> tuple[Game, TableAccess]:
    """The game and the member's access to it; 404 for tables they may not see (an
    invite-only table's existence is not revealed). ``with_visit``: read the member's last
    visit with it (the whole page's "since your last visit"), and what its header shows (the
    league fixture, the seats' ratings)."""
    visitor = player_of(request.user) if with_visit else None
    game = game_with_seats(game_id, visit_of=visitor, page=with_visit)
    if game is None:
        raise Http404(_("There is no such table."))
    access = table_access(game, request.user)
    if not access.may_view:
        raise Http404(_("There is no such table."))
    return game, access


def game_live_response(
    request: HttpRequest,
    game_id: int,
    *,
    message: str = "",
    ok: bool = True,
    announce_after: int | None = None,
) -> HttpResponse:
    """After a POST: HTMX gets the fresh live fragment with the message (always 200, so htmx
    swaps it); a plain form post gets the message and a redirect to the page."""
    if request.htmx:
        game, access = _visible_game(request, game_id)
        html = render_game_live(
            game,
            position=access.position,
            request=request,
            message=message,
            message_ok=ok,
            announce_after=announce_after,
        )
        return HttpResponse(html)
    if message:
        (messages.success if ok else messages.error)(request, message)
    return redirect("game_detail", game_id=game_id)


@login_required
@require_safe
def game_detail(request: HttpRequest, game_id: int) -> HttpResponse:
    game, access = _visible_game(request, game_id, with_visit=not request.htmx)
    if request.htmx:
        # Seen without a write here: the same version reaches the page's socket, which
        # records what it was shown (games/services/visits.py).
        return HttpResponse(render_game_live(game, position=access.position, request=request))
    player = player_of(request.user)
    since = visit_page_open(game, player) if player is not None else None
    context = game_context(game, position=access.position, since=since)
    context.update(chat=game_chat(game), chat_form=access.seat is not None)
    if player is not None:
        # The bell's count came with the game (over the context processor's own query).
        context["unread_notifications"] = game.visitor_unread or 0
    context["table"] = render_game_page(request, context)
    return render(request, "games/game_detail.html", context)


@login_required
@require_POST
def game_act(request: HttpRequest, game_id: int) -> HttpResponse:
    result = play.move_submit(
        game_id=game_id,
        user=request.user,
        action=request.POST.get("action", ""),
        expected_version=request.POST.get("version"),
    )
    # Acting closes "since your last visit" (the answer empties it; a later page starts it
    # after the member's own last move: games/table/rendering.py), with no write on the move path.
    if result.ok and request.htmx and (not result.may_move_on or game_unchanged(result.game)):
        # The game the service saved (seats loaded) is the fresh board: no second read. If
        # something queued on commit (a bot, a standing order) may have moved it on, that is
        # asked first, and a game moved on is read again below.
        game = result.game
        access = table_access(game, request.user)
        html = render_game_live(
            game,
            position=access.position,
            request=request,
            announce_after=game.version - 1,
        )
        return HttpResponse(html + render_since_closed())
    response = game_live_response(
        request,
        game_id,
        message=result.message,
        ok=result.ok,
        announce_after=result.game.version - 1 if result.ok else None,
    )
    if result.ok and request.htmx:
        response.content += render_since_closed().encode()
    return response


def _table_change(
    change: Callable[..., object], done_message, *, plain_post_goes_to: str | None = None
) -> Callable[[HttpRequest, int], HttpResponse]:
    """A POST-only view running one table service; ``plain_post_goes_to`` is where a form
    posted without HTMX lands afterwards (default: the table)."""

    @login_required
    @require_POST
    def view(request: HttpRequest, game_id: int) -> HttpResponse:
        try:
            change(game_id=game_id, user=request.user)
        except play.PlayError as error:
            return game_live_response(request, game_id, message=error.message, ok=False)
        if plain_post_goes_to and not request.htmx:
            messages.success(request, str(done_message))
            return redirect(plain_post_goes_to)
        return game_live_response(request, game_id, message=str(done_message))

    view.__name__ = change.__name__
    return view


seat_join = _table_change(play.seat_join, gettext_lazy("You took a seat."))
seat_leave = _table_change(
    play.seat_leave, gettext_lazy("You left the table."), plain_post_goes_to="lobby"
)
game_start = _table_change(play.game_start, gettext_lazy("The game has started."))
game_cancel = _table_change(play.game_cancel, gettext_lazy("The table is cancelled."))


@login_required
def game_log(request: HttpRequest, game_id: int) -> HttpResponse:
    game, access = _visible_game(request, game_id)
    everything = game.status == Game.Status.FINISHED
    entries = log_entries(
        game_events(game),
        access.position,
        everything=everything,
        names=seat_names(game),
        kind=game.kind,
    )
    context = {
        "game": game,
        "log": entries,
        "log_groups": log_groups(entries, game.kind),
        "log_sprite": static("img/log-icons.svg"),
        "position": access.position,
    }
    context["log_html"] = render_table("games/log/whole.html", context, request)
    return render(request, "games/game_log.html", context)


@login_required
@require_POST
def chat_post(request: HttpRequest, game_id: int) -> HttpResponse:
    game, access = _visible_game(request, game_id)
    refusal = limit_reached(request, CHAT, member_key(request))
    if refusal is not None:
        if request.htmx:
            chat = render_chat(game, request=request, error=refusal.message)
            return limited_response(request, refusal, fragment=chat)
        return limited_response(request, refusal, back_url=reverse("game_detail", args=[game.pk]))
    try:
        play.chat_message_post(
            game_id=game.pk, user=request.user, text=request.POST.get("text", "")
        )
    except play.PlayError as error:
        if not request.htmx:
            messages.error(request, error.message)
            return redirect("game_detail", game_id=game.pk)
        return HttpResponse(render_chat(game, request=request, error=error.message))
    if request.htmx:
        return HttpResponse(render_chat(game, request=request))
    return redirect("game_detail", game_id=game.pk)


@login_required
@require_POST
def game_verify_view(request: HttpRequest, game_id: int) -> HttpResponse:
    game, _access = _visible_game(request, game_id)
    verification = game_verify(game, game_events(game))
    html = render_table("games/verify_result.html", {"verification": verification}, request)
    return HttpResponse(html)


def _int_or(value: str | None, default: int | None) -> int | None:
    number = strict_int(value)
    return default if number is None else number


@login_required
def game_replay(request: HttpRequest, game_id: int) -> HttpResponse:
    """Step through a game. After the end, anyone who may watch sees every seat's view and
    every private event; during the game, a player replays only what their seat saw."""
    game, access = _visible_game(request, game_id)
    finished = game.status == Game.Status.FINISHED
    if game.status != Game.Status.RUNNING and not finished:
        raise Http404(_("This game has nothing to replay."))
    if not finished and access.seat is None:
        raise Http404(_("Only the players can replay a game that is still running."))
    events = game_events(game)
    step = min(max(_int_or(request.GET.get("step"), 0), 0), len(events))
    if finished:
        seat_positions = [seat.position for seat in game_seats(game)]
        viewer = _int_or(request.GET.get("seat"), None)
        position = viewer if viewer in seat_positions else None
    else:
        seat_positions = [access.position]
        position = access.position
    try:
        state = game_replay_state(game, events, step)
    except EngineError:
        raise Http404(_("This game cannot be replayed.")) from None
    context = board_context(game, state, position, with_actions=False)
    if finished and position is None:
        # After the end nothing is secret: the spectator's board plus every seat's hand.
        engine = get_engine(game.kind)
        context["all_hands"] = [
            {
                "name": context["names"].get(seat),
                "hand": hand_named(game.kind, engine.view(state, seat)["hand"]),
                "viewer": seat,
            }
            for seat in seat_positions
        ]
        context["hands_template"] = f"games/{game.kind}/hands.html"
    context.update(
        game=game,
        step=step,
        steps=len(events),
        position=position,
        seat_positions=seat_positions,
        finished=finished,
        engine_name=get_engine(game.kind).name,
        log=log_entries(
            events[:step], position, everything=finished, names=context["names"], kind=game.kind
        )[-1:],
        log_sprite=static("img/log-icons.svg"),
    )
    context["log_groups"] = log_groups(context["log"], game.kind)
    context["replay"] = render_table("games/replay.html", context, request)
    return render(request, "games/game_replay.html", context)
