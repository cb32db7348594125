"""The log's last lines kept on the game's row (games/selectors/log_copy.py): every viewer reads the
same log from the copy as from the events table, without a query for it; a copy that is missing or
stale is never trusted, and the next move mends it."""

from __future__ import annotations

import importlib
import json

import pytest
from django.apps import apps
from django.db import connection
from django.test.utils import CaptureQueriesContext
from playkit import colt_game, napad_game, play_one

from games.models import Game, GameEvent
from games.selectors import gamelog, log_copy
from games.selectors.log_copy import (
    RECENT_EVENTS,
    recent_events_current,
    recent_events_of,
    recent_events_read,
)
from tests.personakit import client_for

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def _log_and_announcement(client, game: Game) -> tuple[str, list[str]]:
    """The fragment's log box and live region (no CSRF token in them), and the SQL it ran."""
    with CaptureQueriesContext(connection) as queries:
        html = client.get(f"/games/{game.pk}/", **HTMX).content.decode()
    return html[html.index('id="game-log-box"') :], [q["sql"] for q in queries.captured_queries]


def _reads_events(sql: list[str]) -> bool:
    return any('FROM "games_gameevent"' in statement for statement in sql)


def _last_events(game: Game) -> list[GameEvent]:
    events = list(GameEvent.objects.filter(game=game).order_by("-seq")[:RECENT_EVENTS])
    events.reverse()
    return events


@pytest.mark.parametrize("kind", ["napad", "colt"])
def test_each_viewer_reads_the_same_log_from_the_copy_as_from_the_events(kind, alice, bob, charlie):
    users = [alice, bob]
    if kind == "napad":
        game = napad_game(alice, bob)
    else:
        game = colt_game(alice, bob, "colt-express-time-machine")
    # Past the copy's length, so it has dropped its first lines.
    for _ in range(RECENT_EVENTS + 5):
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            break
        assert play_one(game, users).ok
    game.refresh_from_db()
    assert game.version > RECENT_EVENTS
    assert game.recent_events == recent_events_of(_last_events(game))
    # Each seat sees its own private lines, the spectator only the public ones.
    viewers = {user.username: client_for(user) for user in (alice, bob, charlie)}
    from_copy = {}
    for name, client in viewers.items():
        from_copy[name], sql = _log_and_announcement(client, game)
        assert not _reads_events(sql), f"{name}'s fragment read the events table"
    Game.objects.filter(pk=game.pk).update(recent_events=[])
    # Said and rendered anew from the events (the log keeps what each action said, whichever
    # copy it was read from).
    _log_memos_clear()
    for name, client in viewers.items():
        from_events, sql = _log_and_announcement(client, game)
        assert _reads_events(sql)
        assert from_events == from_copy[name], name


def _log_memos_clear() -> None:
    gamelog.TEXTS.clear()
    gamelog.ENTRIES.clear()
    gamelog.ROUND_STARTS.clear()


def test_a_log_read_again_parses_none_of_its_kept_actions(alice, bob, monkeypatch):
    """A kept action's events are parsed when a reading first needs them: the next page,
    answer or push that draws the same actions parses none of them again."""
    users = [alice, bob]
    game = napad_game(alice, bob)
    for _ in range(RECENT_EVENTS + 3):
        assert play_one(game, users).ok
    game.refresh_from_db()
    parsed = []

    def counted(text):
        parsed.append(text)
        return json.loads(text)

    monkeypatch.setattr(log_copy, "json_parsed", counted)
    _log_memos_clear()
    client = client_for(alice)
    first, _sql = _log_and_announcement(client, game)
    assert len(parsed) == RECENT_EVENTS
    again, _sql = _log_and_announcement(client, game)
    assert again == first
    assert len(parsed) == RECENT_EVENTS


def test_a_stale_copy_is_never_trusted_and_the_next_move_mends_it(alice, bob):
    users = [alice, bob]
    game = napad_game(alice, bob)
    for _ in range(RECENT_EVENTS + 2):
        assert play_one(game, users).ok
    game.refresh_from_db()
    copy_before_last_move = game.recent_events
    assert play_one(game, users).ok
    game.refresh_from_db()
    client = client_for(alice)
    current, sql = _log_and_announcement(client, game)
    assert not _reads_events(sql)
    # A whole copy, but one move behind the game (as if that move's event had been written
    # some other way): the log still shows that move, read from the events.
    Game.objects.filter(pk=game.pk).update(recent_events=copy_before_last_move)
    stale, sql = _log_and_announcement(client, game)
    assert _reads_events(sql)
    assert stale == current
    assert play_one(game, users).ok
    game.refresh_from_db()
    assert recent_events_current(game.recent_events, game.version)
    assert game.recent_events == recent_events_of(_last_events(game))


def _read(game: Game) -> list[tuple]:
    """What the log and the "since" panel read of the row's copy."""
    kept = recent_events_read(game.pk, game.recent_events, game.version, RECENT_EVENTS)
    return [
        (e.seq, e.seat, e.by_clock, e.created_at, e.public_events, e.private_events) for e in kept
    ]


def test_the_migration_copies_the_last_lines_of_games_already_played(alice, bob):
    """The migration wrote the copy's first form (each action's events as JSON); moves now
    write them as text, parsed when read. Both read the same, and a move after a copy of
    the first form carries it on."""
    users = [alice, bob]
    game = napad_game(alice, bob)
    for _ in range(RECENT_EVENTS + 2):
        assert play_one(game, users).ok
    game.refresh_from_db()
    expected = _read(game)
    assert all(isinstance(entry["events"], str) for entry in game.recent_events)
    Game.objects.filter(pk=game.pk).update(recent_events=[])
    migration = importlib.import_module("games.migrations.0016_game_recent_events")
    migration.recent_events_copy(apps, None)
    game.refresh_from_db()
    assert all("public" in entry for entry in game.recent_events)
    assert recent_events_current(game.recent_events, game.version)
    assert _read(game) == expected
    assert play_one(game, users).ok
    game.refresh_from_db()
    assert recent_events_current(game.recent_events, game.version)
    assert _read(game) == _read_events(game)


def _read_events(game: Game) -> list[tuple]:
    return [
        (e.seq, e.seat, e.by_clock, e.created_at, e.public_events, e.private_events)
        for e in _last_events(game)
    ]


def test_an_action_is_read_once_for_every_seat_it_shows_nothing_private(alice, bob, charlie):
    """The log keeps one entry per action for all the readers who see none of its private
    lines (a move answer, then the next member's, draw the same entries); the seats its
    private lines are for still read their own, "You ...", and nobody else reads them —
    whatever order the readings come in, from the copy or from the events."""
    users = [alice, bob, charlie]
    game = napad_game(alice, bob, charlie)
    kept = []
    for _ in range(200):
        game.refresh_from_db()
        kept = recent_events_read(game.pk, game.recent_events, game.version, RECENT_EVENTS) or []
        # A round's end (cards drawn, loot taken: private lines) within the window.
        if any(event.private_to for event in kept[-RECENT_EVENTS // 2 :]):
            break
        assert play_one(game, users).ok
    secret = next(event for event in reversed(kept) if event.private_to)
    public = next(event for event in kept if not event.private_to)
    names = {0: "Ala", 1: "Bartek", 2: "Celina"}
    readers = [*sorted(secret.private_to), *(s for s in range(3) if s not in secret.private_to)]
    readers.append(None)

    def read(events, position):
        entries = gamelog.log_entries(events, position, names=names, kind="napad", round_now=9)
        return {entry["seq"]: entry["lines"] for entry in entries}

    def said(lines_by_seq):
        return [
            (line["text"], line["private"]) for lines in lines_by_seq.values() for line in lines
        ]

    alone = {}
    for position in readers:
        _log_memos_clear()
        alone[position] = said(read(kept, position))
    for position in readers:
        privately = any(private for _text, private in alone[position])
        assert privately == (position in secret.private_to), position
    for order in (readers, readers[::-1]):
        _log_memos_clear()
        for position in order:
            assert said(read(kept, position)) == alone[position], position
            assert said(read(_last_events(game), position)) == alone[position], position
    read_by = {position: read(kept, position) for position in readers}
    # An action with nothing private: one entry, whoever reads it.
    shared = {id(read_by[position][public.seq]) for position in readers}
    assert len(shared) == 1
    # The round's end: each seat it drew or looted for reads its own.
    own = {id(read_by[position][secret.seq]) for position in secret.private_to}
    assert len(own) == len(secret.private_to)
    assert id(read_by[None][secret.seq]) not in own
