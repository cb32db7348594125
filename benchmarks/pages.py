"""Reading a table: the whole game page and its HTMX board fragment against the floor view's
GET, and the page late in a game against the page at move 10 (its time must not grow with the
game's length).

For each game (To jest napad! and Colt Express), tables of the same four members at three
moments: played to their last move before the end, around move 10, and from move 30 on —
``TABLES`` deals of each, every deal its own, each page seen by the member to move.

One position is one decision, and the decision is most of what a page draws beyond the table:
a member holding nine cards chooses among nineteen actions (each card's two halves and a
pass), one holding a single card among three. Which decision a deal stops at is luck (its seed
is new each run), and the sizes vary widely from deal to deal (docs/performance.md). The
ratio of two such pages measured the hands dealt as much as the game's length. So the
three tables of a deal are one decision's size: the late table is played first, and the early
one stops at the first move from 10 to 14 where the member to move has as many choices, the
log-full one likewise from move 30 on (``_moment_tables``; the report lists every table's
move and choices, and whether its deal found them).

The requests take the deals in turn and alternate — early page, late page, the page from move
30, fragment, floor — in the same loop, so a busy moment of the machine weighs on all alike;
each figure is a ratio of medians per repeat, reported as min / median / max over the repeats.
The pages' sizes are reported too (the first deal's).

Why move 30 as well: the log shows the last ``LOG_LINES`` (20) actions, so around move 10 it
holds half of what it holds at any later move — the page there draws less, whatever it costs
to draw. From move 30 on a table's log is full, so what the late page draws more or less than
the one from move 30 is the board: the cards lying on the table at that moment of the deal.
"""

from __future__ import annotations

import json
import random
import statistics
import time

from django.urls import reverse

from games.engines import get_engine
from games.models import Game
from games.table.rendering import LOG_LINES

from .club import (
    NAPAD_RULESET,
    decision_now,
    game_started,
    logged_in_client,
    members_create,
    next_move,
)
from .stats import spread

PLAYERS = 4
# Deals per moment of the game (see above): three keep one deal's table from deciding the
# figure, and the setup (every late deal is played to its end) within seconds.
TABLES = 3
# Deals tried for an early (or log-full) table with the late one's number of choices, and late
# deals tried before comparing unmatched tables (``_moment_tables``).
MATCH_DEALS = 6
EARLY_MOVE = 10
# The early table stops within this many moves of move 10 (its log 10 to 14 lines long).
EARLY_WINDOW = 5
FULL_LOG_MOVE = LOG_LINES + 10
RULESETS = {"napad": NAPAD_RULESET, "colt": "colt-express"}
HTMX = {"HTTP_HX_REQUEST": "true"}


def _played_to(
    users: list,
    clients: dict,
    rng: random.Random,
    slug: str,
    *,
    move: int | None,
    choices: int | None = None,
    before: int | None = None,
    deals: int | None = None,
):
    """A table played ``move`` moves in (``None``: to its last move before the end), and the
    member to move there. Played through the services' own move endpoint.

    With ``choices``: on from move ``move`` to the first position whose decision has that many
    choices, before move ``before`` — in ``deals`` deals at most (None when none had one)."""
    dealt = 0
    while deals is None or dealt < deals:
        dealt += 1
        game = game_started(users, slug=slug)
        upcoming = next_move(game.pk, rng)
        while upcoming is not None and (before is None or game.version < before):
            user_id, version, action = upcoming
            if move is None:
                if _would_end(game.pk, action):
                    # One move from the end: stay here (the end screen is another page).
                    return game, user_id
            elif version >= move and choices in (None, _choices(game.pk)):
                return game, user_id
            url = reverse("game_act", args=[game.pk])
            data = {"action": json.dumps(action), "version": str(version)}
            clients[user_id].post(url, data, **HTMX)
            game.refresh_from_db()
            upcoming = next_move(game.pk, rng)
        # The game ended (or passed ``before``) first: deal another.
    return None


def _choices(game_id: int) -> int:
    """How many actions the member to move chooses among: the size of the decision their
    page draws (a card's two halves, a pass, a wagon...)."""
    _game, _position, actions = decision_now(game_id)
    return len(actions)


def _moment_tables(users, clients, rng, slug: str) -> tuple[dict[str, tuple[Game, int]], bool]:
    """One deal of each moment, the three decisions of one size (``module docstring``): the
    late table first, then an early and a log-full one whose member to move has as many
    choices; and whether they do. A late decision no early position offers (Colt Express
    ended on a choice of two in six of twelve games, and no move from 10 to 14 of theirs asked
    one) is dealt again; after ``MATCH_DEALS`` late deals the last is compared with the plain
    move 10 and move 30 (the report says so, deal by deal)."""
    for _late_deal in range(MATCH_DEALS):
        late = _played_to(users, clients, rng, slug, move=None)
        wanted = _choices(late[0].pk)
        early = _played_to(
            users,
            clients,
            rng,
            slug,
            move=EARLY_MOVE,
            choices=wanted,
            before=EARLY_MOVE + EARLY_WINDOW,
            deals=MATCH_DEALS,
        )
        if early is None:
            continue
        full = _played_to(
            users, clients, rng, slug, move=FULL_LOG_MOVE, choices=wanted, deals=MATCH_DEALS
        )
        if full is not None:
            return {"early": early, "full": full, "late": late}, True
    unmatched = {
        "early": _played_to(users, clients, rng, slug, move=EARLY_MOVE),
        "full": _played_to(users, clients, rng, slug, move=FULL_LOG_MOVE),
        "late": late,
    }
    return unmatched, False


def _would_end(game_id: int, action: dict) -> bool:
    """Whether ``action`` by the seat to move ends the game (tried on a copy of the state;
    nothing is saved). The late table stops before it: a finished game shows the end screen,
    a page of its own, not the table near its end."""
    game = Game.objects.get(pk=game_id)
    engine = get_engine(game.kind)
    state, _events = engine.apply(engine.from_json(game.state), game.to_move[0], action)
    return engine.is_over(state)


def _timed(client, url: str, **extra) -> float:
    started = time.perf_counter()
    response = client.get(url, **extra)
    elapsed = time.perf_counter() - started
    if response.status_code != 200:
        raise RuntimeError(f"{url} answered {response.status_code}")
    return elapsed


def pages_measure(*, requests: int, repeats: int) -> dict:
    users = members_create(PLAYERS, prefix="reader")
    clients = {user.pk: logged_in_client(user) for user in users}
    rng = random.Random("bench-pages")  # noqa: S311 (choosing moves, not secrets)
    return {
        "players": PLAYERS,
        "early_move": EARLY_MOVE,
        "full_log_move": FULL_LOG_MOVE,
        "tables_per_moment": TABLES,
        "requests_per_repeat": requests,
        **{
            name: _one_game(users, clients, rng, slug, requests=requests, repeats=repeats)
            for name, slug in RULESETS.items()
        },
        "target": "page/floor >= 0.40; fragment/floor >= 0.60; late/early page <= 1.05",
    }


def _one_game(users, clients, rng, slug: str, *, requests: int, repeats: int) -> dict:
    # Per moment, the deals as (page URL, the client of the member to move there); their
    # moves and how many choices the member to move has there.
    tables: dict[str, list[tuple[str, object]]] = {"early": [], "full": [], "late": []}
    moves: dict[str, list[int]] = {"early": [], "full": [], "late": []}
    choices: dict[str, list[int]] = {"early": [], "full": [], "late": []}
    matched = []
    for _ in range(TABLES):
        deal, alike = _moment_tables(users, clients, rng, slug)
        matched.append(alike)
        for name, (game, viewer) in deal.items():
            tables[name].append((reverse("game_detail", args=[game.pk]), clients[viewer]))
            moves[name].append(game.version)
            choices[name].append(_choices(game.pk))
    floor_url = reverse("bench_baseline")
    sizes = {
        f"{label}_page_bytes": len(tables[name][0][1].get(tables[name][0][0]).content)
        for name, label in (("early", "early"), ("full", "full_log"), ("late", "late"))
    }
    page, fragment, lateness, length = [], [], [], []
    page_ms, fragment_ms, floor_ms = [], [], []
    for _repeat in range(repeats + 1):
        times: dict[str, list[float]] = {
            "early": [],
            "full": [],
            "late": [],
            "fragment": [],
            "floor": [],
        }
        for request in range(requests):
            deal = request % TABLES
            early_url, early_client = tables["early"][deal]
            for name in ("early", "full", "late"):
                url, client = tables[name][deal]
                times[name].append(_timed(client, url))
            times["fragment"].append(_timed(early_client, early_url, **HTMX))
            times["floor"].append(_timed(early_client, floor_url))
        if _repeat == 0:
            continue  # the warm-up: templates compiled, URL resolvers filled
        median = {name: statistics.median(values) for name, values in times.items()}
        page.append(median["floor"] / median["early"])
        fragment.append(median["floor"] / median["fragment"])
        lateness.append(median["late"] / median["early"])
        length.append(median["late"] / median["full"])
        page_ms.append(median["early"] * 1000)
        fragment_ms.append(median["fragment"] * 1000)
        floor_ms.append(median["floor"] * 1000)
    return {
        # The earliest of the late deals' versions (each stops one move before its end).
        "late_move": min(moves["late"]),
        "late_moves": moves["late"],
        "early_moves": moves["early"],
        "full_log_moves": moves["full"],
        # Per moment, how many choices each deal's member to move has: the same, deal by deal,
        # where ``matched`` (``_moment_tables``).
        "choices": choices,
        "matched": matched,
        "page_to_floor": spread(page),
        "fragment_to_floor": spread(fragment),
        "late_page_over_early_page": spread(lateness),
        "late_page_over_full_log_page": spread(length),
        "page_ms": spread(page_ms, 2),
        "fragment_ms": spread(fragment_ms, 2),
        "floor_ms": spread(floor_ms, 2),
        **sizes,
    }
