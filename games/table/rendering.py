"""Turning a game and a viewer into HTML: the one place the HTTP views and the consumer share.

The table's templates are Jinja2's (``templates/jinja2/games/table/``, decision 0021); the
site's page around the table is Django's (``templates/games/game_detail.html``).

Everything a page shows of a game comes from ``engine.board_view(state, seat)`` (its ``view``
less what no board draws) plus the viewer's legal actions, never from the stored state
directly, so a fragment can only hold what that viewer may see. ``Game.state`` and
``Game.seed`` never reach a template.

The page's live parts (``games/table/page.html``): ``#game-live`` — the viewer's decision
(their hand, the choice they must make), the element an HTMX answer replaces — and, swapped by
id beside it, ``#game-status`` (the sticky status bar), ``#game-board`` and ``#game-log-box``.
The "since your last visit" panel (``#since``) sits between the decision and the board and is
drawn only for the whole page: pushes never touch it, so a spectator's shared push cannot carry
anyone's panel.
"""

from __future__ import annotations

import functools
from datetime import timedelta
from functools import partial
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engines import get_engine
from games.models import Game
from games.selectors.gamelog import log_entries, log_groups
from games.selectors.log_copy import RECENT_EVENTS
from games.selectors.naming import seat_name
from games.selectors.tables import (
    game_chat,
    game_events,
    game_recent_events,
    game_seats,
    game_state,
)
from games.services.charts import scores_chart
from games.services.replay import game_round_scores
from games.table.boards import CHOICE_MARKS, DECORATORS, action_key
from games.table.catchup import CONTEXT_ACTIONS, SINCE_ACTIONS, catchup_build
from games.table.status import game_status
from games.text.wording import action_label, phrase_format

__all__ = ["action_key"]  # re-exported for the API (games/api/games.py)

# The log's last lines: as many as each move keeps on the game's row, so drawing them needs
# no query of their own (games/selectors/log_copy.py).
LOG_LINES = RECENT_EVENTS
# Actions the live region reads out after a change (older ones: "…").
ANNOUNCED_ACTIONS = 3
CHART_CACHE_SECONDS = 7 * 24 * 3600
# The engine the table's templates are in (napad_site/settings.py TEMPLATES).
TABLE_ENGINE = "jinja2"
PAGE_TEMPLATE = "games/table/page.html"
LIVE_TEMPLATE = "games/table/live.html"
CHAT_TEMPLATE = "games/table/chat.html"
SINCE_TEMPLATE = "games/table/since.html"


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


def board_context(
    game: Game,
    state: dict[str, Any] | None,
    position: int | None,
    *,
    with_actions: bool = True,
) -> dict[str, Any]:
    """The viewer's board: the engine's view, seat names, and the actions they may take."""
    seats = game_seats(game)
    names = {seat.position: seat_name(seat) for seat in seats}
    context: dict[str, Any] = {
        "board_template": f"games/{game.kind}/board.html",
        "hand_template": f"games/{game.kind}/hand.html",
        "view": None,
        "actions": [],
        "names": names,
        # Where every move button posts (games/_act_form.html): once per board.
        "act_url": reverse("game_act", args=[game.pk]),
    }
    if state is None:
        return context
    engine = get_engine(game.kind)
    view = engine.board_view(state, position)
    stand_ins = {seat.position: seat for seat in seats if seat.is_stand_in}
    # Engines list seats as "seats" (Napad) or "bandits" (Colt Express): give each its name,
    # and to a seat a bot plays for a member, the time the bot took over.
    for seat_view in [*view.get("seats", ()), *view.get("bandits", ())]:
        if isinstance(seat_view, dict) and "seat" in seat_view:
            seat_view["name"] = names.get(seat_view["seat"], "")
            stand_in = stand_ins.get(seat_view["seat"])
            seat_view["stand_in_since"] = stand_in.bot_since if stand_in else None
    legal_actions = []
    # A seat a bot plays (for a member, too) has no buttons: the bot moves, not the page.
    bot_held = any(seat.position == position and seat.is_bot for seat in seats)
    if with_actions and position is not None and not bot_held and position in engine.to_move(state):
        legal_actions = engine.legal_actions(state, position)
    legal = {action_key(action): action for action in legal_actions}
    decorate = DECORATORS.get(game.kind)
    actions_on_board = decorate(view, legal) if decorate is not None else False
    context["view"] = view
    # A board that draws its own buttons needs no list; otherwise the engine's labels serve,
    # each with the board's spots it names (highlighted while the button has focus).
    if not actions_on_board:
        marks = CHOICE_MARKS.get(game.kind)
        context["actions"] = [
            {
                "json": key,
                "label": action_label(engine, state, position, action, names),
                "marks": marks(view, action) if marks else "",
            }
            for key, action in legal.items()
        ]
    return context


def _events_wanted(game: Game, since: int | None) -> int:
    """How many of the last events one page needs: the log's lines, or (with a "since your
    last visit" panel) the actions since then and a round's worth before — bounded either way,
    so a page costs the same early and late in a game."""
    if since is None or since >= game.version:
        # No panel (nothing happened since): the log's lines are all the page draws.
        return LOG_LINES
    wanted = game.version - since + CONTEXT_ACTIONS
    return max(LOG_LINES, min(wanted, SINCE_ACTIONS + CONTEXT_ACTIONS))


def _announcement(status: dict[str, Any], log: list[dict[str, Any]], after: int | None) -> str:
    """What the live region reads out: the status line, then what changed since version
    ``after`` (the last few actions' lines), so a member hears the result of their own move
    and of the others' that followed, not only the latest line."""
    entries = log[-1:] if after is None else [entry for entry in log if entry["seq"] > after]
    lines = [" ".join(entry["texts"]) for entry in entries[-ANNOUNCED_ACTIONS:] if entry["texts"]]
    if len(entries) > ANNOUNCED_ACTIONS:
        lines.insert(0, "…")
    return " ".join([status["text"], *lines]).strip()


def game_context(
    game: Game,
    *,
    position: int | None,
    message: str = "",
    message_ok: bool = True,
    since: int | None = None,
    announce_after: int | None = None,
) -> dict[str, Any]:
    """Everything the live parts of the game page need, for one viewer.

    ``since``: the version the viewer's "since your last visit" panel starts from (the whole
    page only). ``announce_after``: the version the viewer's page showed before this one, so
    the live region can say what changed since."""
    engine = get_engine(game.kind)
    state = game_state(game)
    context = board_context(game, state, position)
    seats = game_seats(game)
    names = context["names"]
    events = game_recent_events(game, limit=_events_wanted(game, since))
    finished = game.status == Game.Status.FINISHED
    my_seat = next((s for s in seats if s.position == position), None)
    context.update(
        game=game,
        seats=seats,
        position=position,
        my_seat=my_seat,
        to_move_names=[names.get(p, "") for p in game.to_move],
        my_turn=position is not None and position in game.to_move,
        message=message,
        message_ok=message_ok,
        log=log_entries(
            events[-LOG_LINES:],
            position,
            names=names,
            kind=game.kind,
            round_now=(context["view"] or {}).get("round"),
        ),
        turn_time_limit=duration_text(game.turn_time_limit),
        # The log box's links and icons (games/log/box.html).
        log_url=reverse("game_log", args=[game.pk]),
        replay_url=reverse("game_replay", args=[game.pk]),
        log_sprite=static("img/log-icons.svg"),
        # Only the whole page's header shows them (and needs the ruleset): a fragment never
        # asks, so it costs nothing there.
        chosen_options=SimpleLazyObject(partial(chosen_options, game)),
        seat_list=[
            {"number": position + 1, "name": names.get(position)}
            for position in range(game.seats_count)
        ],
        result=None,
        since=None,
    )
    if finished and state is not None:
        result = engine.result(state)
        identities = {seat.position: seat.identity for seat in seats}
        context["result"] = {
            "tie_break": " ".join(phrase_format(note) for note in engine.result_notes(state)),
            "rows": [
                {
                    **row,
                    "name": names.get(row["seat"], ""),
                    "identity": identities.get(row["seat"], ""),
                    "breakdown": result["breakdown"][row["seat"]],
                }
                for row in result["ranking"]
            ],
            "breakdown_template": f"games/{game.kind}/result.html",
            "chart": SimpleLazyObject(partial(end_chart, game, names)),
        }
    view = context["view"]
    context["status"] = game_status(
        game,
        view,
        my_seat=my_seat,
        names=names,
        result_rows=context["result"]["rows"] if context["result"] else None,
    )
    if since is not None and my_seat is not None and not my_seat.is_bot:
        # Acting closes the panel: it starts after the member's own last move (a move the
        # clock made for them is not theirs, and is news to them).
        own = [e.seq for e in events if e.seat == position and e.seq > since and not e.by_clock]
        since = max(own, default=since)
    if since is not None and since < game.version and view is not None:
        context["since"] = catchup_build(
            game.kind,
            events,
            since=since,
            version=game.version,
            position=position,
            names=names,
            everything=finished,
            current_round=view.get("round"),
        )
    # The log box's lines under their headings, newest first (games/log/groups.html).
    context["log_groups"] = log_groups(context["log"], game.kind, newest_first=True)
    context["announcement"] = _announcement(context["status"], context["log"], announce_after)
    return context


def end_chart(game: Game, names: dict[int, str]) -> dict[str, Any]:
    """The end screen's round-by-round chart of each player's loot. Cached: a finished game
    never changes, and drawing it replays the game once from its seed."""
    key = f"end-chart:{game.pk}:{game.version}"
    scores = cache.get(key)
    if scores is None:
        scores = game_round_scores(game, game_events(game))
        cache.set(key, scores, CHART_CACHE_SECONDS)
    return scores_chart(scores, names)


def render_table(name: str, context: dict[str, Any], request: HttpRequest | None) -> SafeString:
    """One of the table's templates; with the request, its forms get the CSRF token. Safe to
    show in a Django page as it is: the template escaped every value."""
    # A copy: with a request, Django's Jinja2 backend writes its lazy csrf_input and csrf_token
    # into the dict it is given, and the game page renders its Django template from the same
    # context next, where that csrf_token would replace the context processor's (made once)
    # and mask a new token at each use.
    html = render_to_string(name, {**context}, request=request, using=TABLE_ENGINE)
    return mark_safe(html)  # noqa: S308 (rendered by an autoescaping template)


def render_game_page(request: HttpRequest, context: dict[str, Any]) -> SafeString:
    """The whole table for the game page (``game_context`` plus the chat), to put in the
    site's page (games/game_detail.html)."""
    context["user"] = request.user
    return render_table(PAGE_TEMPLATE, context, request)


def render_game_live(
    game: Game,
    *,
    position: int | None,
    request: HttpRequest | None = None,
    user: Any = None,
    message: str = "",
    message_ok: bool = True,
    oob: bool = False,
    announce_after: int | None = None,
) -> str:
    """The live parts of the page for one viewer (module docstring): ``#game-live`` first —
    an HTMX answer replaces it —, then the parts that swap by id, and what the live region
    reads out.

    ``oob``: a socket push (``#game-live`` swaps by id too). Without a request (the consumer)
    pass the ``user`` the fragment is for."""
    context = game_context(
        game,
        position=position,
        message=message,
        message_ok=message_ok,
        announce_after=announce_after,
    )
    context["oob"] = oob
    context["parts_oob"] = True
    context["user"] = user if request is None else request.user
    # The live partial ends with the parts that swap by id and the live region's words.
    return render_table(LIVE_TEMPLATE, context, request)


@functools.cache
def render_since_closed() -> str:
    """The "since your last visit" panel emptied by id: the member acted or dismissed it.
    The same few bytes every time (no words, nothing of the member's): rendered once per
    process, not once per move."""
    return render_table(SINCE_TEMPLATE, {"since": None, "since_oob": True}, None)


def render_chat(
    game: Game, *, request: HttpRequest | None = None, oob: bool = False, error: str = ""
) -> str:
    """The table chat's last lines (and why a message was refused, for its writer)."""
    context = {"game": game, "chat": game_chat(game), "oob": oob, "chat_error": error}
    return render_table(CHAT_TEMPLATE, context, request)
