"""Tables: list them (open / mine / finished), open one, join, leave, start, cancel.

Thin: the lobby selectors read, ``games.services.play`` writes; what a caller may not see
answers 404, as on the site (an invite-only table's existence is not revealed).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Literal

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.http import Http404, HttpRequest
from django.utils.translation import gettext as _
from ninja import Path, Query, Router, Status

from games.engines import get_engine
from games.limits import LimitReached, table_creation_refusal
from games.models import Game, Player, Ruleset
from games.selectors.naming import seat_name
from games.selectors.tables import (
    TableAccess,
    game_seats,
    game_with_seats,
    lobby_finished_games,
    lobby_my_games,
    lobby_open_tables,
    player_of,
    table_access,
)
from games.services import play
from games.services.play import PlayError
from games.text.bots import bots_described, level_of
from games.web.converters import DB_ID_MAX, DB_ID_MIN

from .schemas import (
    ErrorOut,
    MeOut,
    PlayErrorOut,
    RulesetOut,
    TableCreateIn,
    TableOut,
    ValidationErrorOut,
    WholeNumber,
)

router = Router(tags=["tables"])

# The path's ``{id:…}`` converter (games/web/converters.py) already refuses what no id can be
# (that URL does not exist: 404); the bounds here say so in the schema.
GameId = Path(..., ge=DB_ID_MIN, le=DB_ID_MAX)
# Every answer an endpoint can give is documented (schemathesis checks it): 422 for
# parameters or a body that are not what the schema says, 413 for a body over the limit.
TABLE_ERRORS = {
    400: PlayErrorOut,
    401: ErrorOut,
    403: ErrorOut,
    404: ErrorOut,
    422: ValidationErrorOut,
    429: ErrorOut,
}
BODY_ERRORS = {413: ErrorOut, 422: ValidationErrorOut}


def visible_game(user: AbstractBaseUser, game_id: int) -> tuple[Game, TableAccess]:
    """The game with its seats and the caller's access; 404 if they may not see it."""
    game = game_with_seats(game_id)
    if game is None:
        raise Http404(_("There is no such table."))
    access = table_access(game, user)
    if not access.may_view:
        raise Http404(_("There is no such table."))
    return game, access


def usernames_of(games: list[Game]) -> dict[int, str]:
    """User id to username for every creator and seated member of ``games``, in one query."""
    ids = set()
    for game in games:
        ids.add(game.created_by_id)
        ids.update(seat.player.user_id for seat in game_seats(game) if seat.player is not None)
    ids.discard(None)
    return dict(get_user_model().objects.filter(pk__in=ids).values_list("pk", "username"))


def tables_data(games: list[Game], user: AbstractBaseUser) -> list[dict[str, Any]]:
    usernames = usernames_of(games)
    return [table_data(game, user, usernames) for game in games]


def table_data(
    game: Game, user: AbstractBaseUser, usernames: dict[int, str] | None = None
) -> dict[str, Any]:
    """A table as the API shows it to ``user``: public facts only (no state, no seed)."""
    if usernames is None:
        usernames = usernames_of([game])
    seats = game_seats(game)
    mine = next((s for s in seats if s.player is not None and s.player.user_id == user.pk), None)
    my_seat = mine.position if mine is not None else None
    ruleset = game.ruleset
    engine = get_engine(game.kind)
    return {
        "id": game.pk,
        "kind": game.kind,
        "ruleset": {
            "id": ruleset.pk,
            "kind": ruleset.kind,
            "slug": ruleset.slug,
            "version": ruleset.version,
            "name": ruleset.name,
        },
        "status": game.status,
        "version": game.version,
        "seats_count": game.seats_count,
        "invite_only": game.invite_only,
        "practice": game.practice,
        "created_by": usernames.get(game.created_by_id),
        "turn_time_limit_minutes": int(game.turn_time_limit.total_seconds() // 60),
        "seats": [
            {
                "position": seat.position,
                "name": seat_name(seat),
                "username": usernames.get(seat.player.user_id) if seat.player else None,
                "bot": seat.bot_kind or None,
                "bot_level": level_of(engine, seat.bot_kind) if seat.bot_kind else None,
                "identity": seat.identity,
                "score": seat.score,
                "place": seat.place,
            }
            for seat in seats
        ],
        "to_move": list(game.to_move),
        "my_seat": my_seat,
        "my_turn": game.status == Game.Status.RUNNING and my_seat in game.to_move,
        "deadline": game.deadline,
        "seed_hash": game.seed_hash,
        "created_at": game.created_at,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
    }


def fresh_table(user: AbstractBaseUser, game_id: int) -> dict[str, Any]:
    game = game_with_seats(game_id)
    if game is None:
        raise Http404(_("There is no such table."))
    return table_data(game, user)


def _published_ruleset(ruleset_id: int | None, kind: str | None) -> Ruleset:
    published = Ruleset.objects.filter(status=Ruleset.Status.PUBLISHED)
    if ruleset_id is not None:
        ruleset = Ruleset.objects.filter(pk=ruleset_id).first()
        if ruleset is None:
            raise Http404(_("There is no such ruleset."))
        return ruleset
    if kind is None:
        raise PlayError(_("Say which game to play: a ruleset_id or a kind."), field="ruleset")
    # The club's first ruleset of that game (the plain rules, not a variant), newest version.
    first = published.filter(kind=kind).order_by("created_at", "pk").first()
    if first is None:
        raise PlayError(_("There is no published ruleset for that game yet."), field="ruleset")
    return published.filter(slug=first.slug).order_by("-version").first()


def _invitees(usernames: list[str]) -> list[Player]:
    players = {
        player.user.get_username(): player
        for player in Player.objects.select_related("user").filter(
            user__username__in=usernames, user__is_active=True
        )
    }
    unknown = [name for name in usernames if name not in players]
    if unknown:
        raise PlayError(
            _("No member is called %(names)s.") % {"names": ", ".join(unknown)},
            field="invitees",
        )
    return list(players.values())


@router.get("/me", response={200: MeOut, 401: ErrorOut, 429: ErrorOut}, tags=["you"])
def me(request: HttpRequest):
    """Who the API thinks you are."""
    player = player_of(request.auth)
    return {
        "username": request.auth.get_username(),
        "display_name": player.display_name if player else None,
        "language": player.language if player else None,
    }


@router.get("/rulesets", response={200: list[RulesetOut], 401: ErrorOut, 429: ErrorOut})
def rulesets_list(request: HttpRequest):
    """Published rulesets, with the options a table may switch and the bots it may seat."""
    rulesets = Ruleset.objects.filter(status=Ruleset.Status.PUBLISHED).order_by(
        "kind", "slug", "-version"
    )
    rows = []
    for ruleset in rulesets:
        engine = get_engine(ruleset.kind)
        rows.append(
            {
                "id": ruleset.pk,
                "kind": ruleset.kind,
                "slug": ruleset.slug,
                "version": ruleset.version,
                "name": ruleset.name,
                "options": engine.options(ruleset.config),
                "bots": sorted(engine.bots),
                "bot_levels": bots_described(engine),
                "min_players": engine.min_players,
                "max_players": engine.max_players,
            }
        )
    return rows


@router.get(
    "/tables",
    response={200: list[TableOut], 401: ErrorOut, 422: ValidationErrorOut, 429: ErrorOut},
)
def tables_list(request: HttpRequest, which: Query[Literal["open", "mine", "finished"]] = "open"):
    """Tables to join (``open``), your open and running games, your turn first (``mine``),
    or recently finished ones (``finished``)."""
    user = request.auth
    games = {
        "open": lobby_open_tables,
        "mine": lobby_my_games,
        "finished": lobby_finished_games,
    }[which](user)
    return tables_data(games, user)


@router.post("/tables", response={201: TableOut, **TABLE_ERRORS, **BODY_ERRORS})
def table_create(request: HttpRequest, payload: TableCreateIn):
    """Open a table; you take the first seat that is not a bot's."""
    ruleset = _published_ruleset(payload.ruleset_id, payload.kind)
    refusal = table_creation_refusal(request)
    if refusal is not None:
        raise LimitReached(refusal)
    game = play.game_create(
        creator=request.auth,
        ruleset=ruleset,
        seats=payload.seats,
        options=payload.options,
        turn_time_limit=timedelta(minutes=payload.turn_time_limit_minutes),
        bot_seats=payload.bot_seats,
        invite_only=payload.invite_only,
        invitees=_invitees(payload.invitees),
    )
    return Status(201, fresh_table(request.auth, game.pk))


@router.get("/tables/{id:game_id}", response={200: TableOut, **TABLE_ERRORS})
def table_detail(request: HttpRequest, game_id: WholeNumber = GameId):
    game, _access = visible_game(request.auth, game_id)
    return table_data(game, request.auth)


@router.post("/tables/{id:game_id}/join", response={200: TableOut, **TABLE_ERRORS})
def table_join(request: HttpRequest, game_id: WholeNumber = GameId):
    """Take a free seat at an open table."""
    visible_game(request.auth, game_id)
    play.seat_join(game_id=game_id, user=request.auth)
    return fresh_table(request.auth, game_id)


@router.post("/tables/{id:game_id}/leave", response={200: TableOut, **TABLE_ERRORS})
def table_leave(request: HttpRequest, game_id: WholeNumber = GameId):
    """Give up your seat before the game starts."""
    visible_game(request.auth, game_id)
    play.seat_leave(game_id=game_id, user=request.auth)
    return fresh_table(request.auth, game_id)


@router.post("/tables/{id:game_id}/start", response={200: TableOut, **TABLE_ERRORS})
def table_start(request: HttpRequest, game_id: WholeNumber = GameId):
    """Deal the game (the table's creator, once every seat is taken)."""
    visible_game(request.auth, game_id)
    play.game_start(game_id=game_id, user=request.auth)
    return fresh_table(request.auth, game_id)


@router.post("/tables/{id:game_id}/cancel", response={200: TableOut, **TABLE_ERRORS})
def table_cancel(request: HttpRequest, game_id: WholeNumber = GameId):
    """Close a table that has not started (its creator only)."""
    visible_game(request.auth, game_id)
    play.game_cancel(game_id=game_id, user=request.auth)
    return fresh_table(request.auth, game_id)
