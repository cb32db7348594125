"""One game's row and its seats by the game's key, as SQL: the reads every page, fragment,
push and move makes.

Those reads are always the same: the game, whether its clock panel has anything to read (a
seated member's leave, a notice, a "+24 h", a standing order), the ruleset the table names, and
for the whole page the member's last visit, their unread count and the league round; then the
seats with their members (for the page their usernames and ratings, for a move whether they
turned Web Push on). Built by the ORM, they took Django longer to compile than the database
took to answer, on every request (decision 0020). So the SQL is written here once per shape,
run with ``Manager.raw()`` (each field of the queried model converted as the ORM would), and
the rows it joins become related objects with ``Model.from_db()``: both public, documented
Django APIs. The SQL is standard, the same on SQLite and PostgreSQL.
``tests/site/test_game_row.py`` checks each shape against the ORM's answer, and the pages'
query-count tests keep each read one query.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Model

from games.models import Fixture, Game, League, Player, Round, Ruleset, Season, Seat

# The rows joined to the game, and the fields of each that the table and the page read (the
# header, the league line: templates/leagues/expected_places.html), in each model's own field
# order (``Model.from_db``). Anything else read from them costs a query, which the pages'
# query-count tests would catch.
RULESET_FIELDS = ("id", "kind", "name", "slug", "version")
RULESET_PAGE_FIELDS = (*RULESET_FIELDS, "config")
FIXTURE_FIELDS = ("id", "season_id", "round_id", "game_id")
ROUND_FIELDS = ("id", "number")
SEASON_FIELDS = ("id", "league_id")
LEAGUE_FIELDS = ("id", "name", "slug")

# Whether the clock panel's readers have anything to read (``clock_known_empty``): a seated
# member's leave from %(leave_from)s on, a notice, a "+24 h", a standing order. Most tables
# have none, and then the panel asks no query.
CLOCK_HINTS = ("hint_leave", "hint_notices", "hint_extensions", "hint_orders")
_HINTS = """
    EXISTS (SELECT 1 FROM games_leave l JOIN games_seat s ON s.player_id = l.player_id
            WHERE s.game_id = g.id AND l."end" >= %(leave_from)s) AS hint_leave,
    EXISTS (SELECT 1 FROM games_tablenotice x WHERE x.game_id = g.id) AS hint_notices,
    EXISTS (SELECT 1 FROM games_deadlineextension x WHERE x.game_id = g.id) AS hint_extensions,
    EXISTS (SELECT 1 FROM games_standingorder x WHERE x.game_id = g.id) AS hint_orders"""

# The member's (%(visitor)s) last visit and unread count.
_VISIT = """,
    v.seen_version AS visit_seen,
    v.since_version AS visit_since,
    (SELECT COUNT(*) FROM games_notification n
     WHERE n.player_id = %(visitor)s AND n.read_at IS NULL) AS visitor_unread"""
_VISIT_JOIN = """
    LEFT JOIN games_tablevisit v ON v.game_id = g.id AND v.player_id = %(visitor)s"""

_RULESET_JOIN = """
    JOIN games_ruleset r ON r.id = g.ruleset_id"""
_FIXTURE_JOINS = """
    LEFT JOIN games_fixture f ON f.game_id = g.id
    LEFT JOIN games_round rd ON rd.id = f.round_id
    LEFT JOIN games_season se ON se.id = f.season_id
    LEFT JOIN games_league le ON le.id = se.league_id"""


def _related(prefix: str, alias: str, names: tuple[str, ...]) -> str:
    # Named ``<prefix>__<field>``: raw() sets each as an attribute of the game, which
    # ``_related_take`` moves onto the related object.
    return "".join(f',\n    {alias}.{name} AS "{prefix}__{name}"' for name in names)


@dataclass(frozen=True)
class Shape:
    """Which read: ``row`` the game's whole row (else only its key, version and status),
    ``ruleset`` joins the table's ruleset (``page``: with its config), ``page`` also the
    member's visit, their unread count and the league round; ``locked`` takes the row's lock
    until the transaction ends. Every shape reads the clock panel's hints."""

    row: bool = True
    ruleset: bool = True
    page: bool = False
    locked: bool = False


TABLE = Shape()
PAGE = Shape(page=True)
LOCKED = Shape(ruleset=False, locked=True)
# Whether a copy read earlier is still current (``game_unchanged``): a small row.
HINTS = Shape(row=False, ruleset=False)


@functools.cache
def _sql(shape: Shape, lock: bool) -> str:
    """The SQL of one shape: a pure function of it, so built once per process."""
    columns = ("g.*," if shape.row else "g.id, g.version, g.status,") + _HINTS
    joins = ""
    if shape.ruleset:
        columns += _related("ruleset", "r", RULESET_PAGE_FIELDS if shape.page else RULESET_FIELDS)
        joins += _RULESET_JOIN
    if shape.page:
        columns += _VISIT
        columns += _related("fixture", "f", FIXTURE_FIELDS) + _related("round", "rd", ROUND_FIELDS)
        columns += _related("season", "se", SEASON_FIELDS) + _related("league", "le", LEAGUE_FIELDS)
        joins += _VISIT_JOIN + _FIXTURE_JOINS
    sql = f"SELECT {columns}\nFROM games_game g{joins}\nWHERE g.id = %(game)s"
    # Only the game's row is locked, never the page's joined rows. SQLite has no row locks:
    # the move's save is guarded by the game's version there.
    return f"{sql}\nFOR UPDATE OF g" if lock else sql


@functools.cache
def _loaded_fields(model: type[Model], names: tuple[str, ...]) -> tuple[tuple, list[str]]:
    """``names``' fields of ``model``, each with whether it converts what the database gives
    (``from_db_value``), and their attribute names: looked up once per process, not once per
    row of every read."""
    fields = [model._meta.get_field(name) for name in names]
    converting = tuple(
        (name, field, hasattr(field, "from_db_value")) for name, field in zip(names, fields)
    )
    return converting, [field.attname for field in fields]


def _related_take(row: Model, prefix: str, model: type[Model], names: tuple) -> Model | None:
    """The ``model`` row joined under ``prefix`` (``None`` when the LEFT JOIN found none), as
    an instance with only those fields loaded; its columns leave ``row``. raw() converts only
    the queried model's own fields: a related field with a ``from_db_value`` (a ruleset's
    config) is converted here; the rest (keys, numbers, names) need none on either database."""
    fields, attnames = _loaded_fields(model, names)
    values = []
    for name, field, converts in fields:
        value = getattr(row, f"{prefix}__{name}")
        delattr(row, f"{prefix}__{name}")
        if value is not None and converts:
            value = field.from_db_value(value, None, connection)
        values.append(value)
    if values[0] is None:
        return None
    return model.from_db(model.objects.db, attnames, values)


# The keys a game can have (a BigAutoField): a number outside finds no game, as the ORM's
# lookup would say, instead of failing in the database driver.
KEY_RANGE = range(-(2**63), 2**63)


def game_row(
    game_id: int, leave_from: date, shape: Shape, *, visit_of: Player | None = None
) -> tuple[Game | None, Fixture | None]:
    """The game ``game_id`` read in ``shape`` (``None``: no such game), with ``hint_*`` for the
    clock panel; ``ruleset``: ``game.ruleset`` loaded; ``page``: ``visit_seen``,
    ``visit_since``, ``visitor_unread`` (for ``visit_of``) and the league fixture returned
    beside it (``None`` for a game outside any league)."""
    if game_id not in KEY_RANGE:
        return None, None
    lock = shape.locked and connection.features.has_select_for_update_of
    params: dict[str, Any] = {"game": game_id, "leave_from": leave_from.isoformat()}
    if shape.page:
        params["visitor"] = visit_of.pk if visit_of is not None else None
    found = list(Game.objects.raw(_sql(shape, lock), params))
    if not found:
        return None, None
    game = found[0]
    if shape.ruleset:
        fields = RULESET_PAGE_FIELDS if shape.page else RULESET_FIELDS
        game.ruleset = _related_take(game, "ruleset", Ruleset, fields)
    fixture = None
    if shape.page:
        fixture = _related_take(game, "fixture", Fixture, FIXTURE_FIELDS)
        round_ = _related_take(game, "round", Round, ROUND_FIELDS)
        season = _related_take(game, "season", Season, SEASON_FIELDS)
        league = _related_take(game, "league", League, LEAGUE_FIELDS)
        if fixture is not None:
            season.league = league
            fixture.season = season
            fixture.round = round_
            fixture.game = game
    return game, fixture


# What a table reads of its seats' members: their names and who they are (a page, a
# fragment, a push and a move know a member by ``user_id``); the whole page's league line
# also shows usernames. Text and numbers only, which need no conversion on either database;
# anything else read from a seat's player costs a query (the query-count tests).
SEAT_PLAYER_FIELDS = ("id", "user_id", "display_name", "time_zone", "language")
SEAT_USER_FIELDS = ("id", "username")


@functools.cache
def _seats_sql(shape: Shape) -> str:
    """The SQL of a game's seats, in order, for one shape (built once per process): ``page``
    with each member's username and rating in the game's kind (%(kind)s), ``locked`` with
    whether each member turned Web Push on anywhere."""
    columns = "s.*" + _related("player", "p", SEAT_PLAYER_FIELDS)
    joins = "\n    LEFT JOIN games_player p ON p.id = s.player_id"
    if shape.page:
        users = get_user_model()._meta.db_table
        columns += _related("user", "u", SEAT_USER_FIELDS)
        columns += ",\n    ra.mu AS rating_mu, ra.sigma AS rating_sigma"
        joins += f"""
    LEFT JOIN "{users}" u ON u.id = p.user_id
    LEFT JOIN games_rating ra ON ra.player_id = p.id AND ra.kind = %(kind)s"""
    if shape.locked:
        columns += """,
    EXISTS (SELECT 1 FROM games_pushsubscription ps WHERE ps.player_id = s.player_id)
        AS push_devices"""
    where = "WHERE s.game_id = %(game)s ORDER BY s.position"
    return f"SELECT {columns}\nFROM games_seat s{joins}\n{where}"


def seats_row(game: Game, shape: Shape) -> list[Seat]:
    """The seats of ``game`` read in ``shape``, in order, each with ``seat.game`` this game
    and ``seat.player`` its member (``None`` for a bot's seat) with the fields above; ``page``:
    ``seat.player.user`` (id, username), ``seat.rating_mu`` / ``seat.rating_sigma`` (None
    when unrated); ``locked``: ``seat.push_devices``."""
    params = {"game": game.pk, "kind": game.kind}
    seats = list(Seat.objects.raw(_seats_sql(shape), params))
    user_model = get_user_model()
    for seat in seats:
        player = _related_take(seat, "player", Player, SEAT_PLAYER_FIELDS)
        if shape.page:
            user = _related_take(seat, "user", user_model, SEAT_USER_FIELDS)
            if player is not None:
                player.user = user
        seat.player = player
        seat.game = game
    return seats
