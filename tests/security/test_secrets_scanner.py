"""Full bot games played through the web layer, and at many steps everything each seat (and
a spectator) is sent — the game page, its HTMX fragment, the log, the replay, the API's game,
actions and log, the game socket's message on connect and a push all the sockets answer
together, and the answer to each of their own moves — is searched for what that seat must
not know (tests/security/seckit.py). Zero hits. Both members have Web Push on: every push
their phones would get during the game ("your turn" after each move that leaves them to
move) is taken from a push service on loopback, decrypted as the browser would, and searched
too.

To jest napad! with four seats and Colt Express with four seats and the Time Machine: two
members (alice moves with HTMX posts, bob through the API) and two bots (a hard one, whose
views now carry the public components, turn order and round cards it searches with, and a
medium one). The scanner is shown
to catch a leak: another seat's view, rendered or serialised, is found at once.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from datetime import timedelta
from types import SimpleNamespace
from uuid import uuid4

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.test import Client
from django.utils import timezone
from push.pushkit import BrowserKeys, LoopbackPushService
from seckit import scan, secrets_for

from games.broadcast import game_group
from games.engines import get_engine
from games.models import Game, GameEvent, Ruleset
from games.selectors.gamelog import event_texts
from games.selectors.tables import game_events
from games.services import play, turns
from games.services.api_tokens import api_token_create
from games.services.presence import presence_leave
from games.services.push import outbox as push_outbox
from games.services.push import sending as push_sending
from games.services.push.devices import push_device_subscribe
from games.services.replay import game_replay_steps
from games.services.rulesets import rulesets_install_defaults
from games.table.rendering import render_game_live
from napad_site.asgi import application
from tests.socketkit import Socket, session_of, socket_headers

pytestmark = pytest.mark.django_db(transaction=True)

# A full scan every this many member moves (each move's own answer is always scanned).
SCAN_EVERY = 4
_WATCH_STEP = re.compile(r'<template data-watch-step data-seq="(\d+)"(.*?)</template>', re.S)


@pytest.fixture
def push_service(settings, monkeypatch):
    """A push service on loopback; pushes are sent by the sweep the test runs (not by the
    Celery hint), so each is scanned as soon as it is sent."""
    monkeypatch.setattr(push_outbox, "task_queue_on_commit", lambda name, args: None)
    with LoopbackPushService() as service:
        settings.NAPAD_PUSH_EXTRA_ORIGINS = [service.origin]
        yield service


@pytest.fixture(autouse=True)
def _bots_played_here(monkeypatch):
    # Bot moves would go to Celery after each commit; the test plays them itself, in order.
    monkeypatch.setattr(play, "bot_move_queue_on_commit", lambda game_id, version: None)
    # A known seed, so each run deals (and the bots play) the same game.
    fixed = SimpleNamespace(token_hex=lambda nbytes: "5eed" * (nbytes // 2))
    monkeypatch.setattr(play, "secrets", fixed)
    # The hard bots search by playouts only (no CPU cap cutting in on a busy machine), so
    # they too play the same game every run.
    for kind in ("napad", "colt"):
        hard = get_engine(kind).bots["search"]
        monkeypatch.setattr(hard, "budget", replace(hard.budget, playouts=40, cpu_seconds=600))


class Table:
    """A started four-seat game: alice and bob seated, two bots, charlie watching."""

    def __init__(self, slug: str, alice, bob, charlie, member_seats, bot_seats, pushes=None):
        rulesets_install_defaults()
        self.game = play.game_create(
            creator=alice,
            ruleset=Ruleset.objects.get(slug=slug, version=1),
            seats=4,
            turn_time_limit=timedelta(hours=24),
            bot_seats=bot_seats,
        )
        play.seat_join(game_id=self.game.pk, user=bob)
        play.game_start(game_id=self.game.pk, user=alice)
        self.game.refresh_from_db()
        positions = {s.player.user_id: s.position for s in self.game.seats.exclude(player=None)}
        assert sorted(positions.values()) == sorted(member_seats)
        self.viewers = {positions[alice.pk]: alice, positions[bob.pk]: bob, None: charlie}
        self.html = {}
        self.tokens = {}
        self.cookies = {}
        for position, user in self.viewers.items():
            client = Client()
            client.force_login(user)
            self.html[position] = client
            self.cookies[position] = session_of(client)
            self.tokens[position] = api_token_create(user=user, name="scanner")[1]
        self.alice_seat, self.bob_seat = positions[alice.pk], positions[bob.pk]
        # Web Push: each member's phone (its keys) at the loopback push service.
        self.pushes = pushes
        self.phones: dict[int, BrowserKeys] = {}
        self.pushes_scanned = {self.alice_seat: 0, self.bob_seat: 0}
        if pushes is not None:
            for position in (self.alice_seat, self.bob_seat):
                keys = BrowserKeys()
                name = f"seat-{position}"
                push_device_subscribe(
                    player=self.viewers[position].player,
                    data=keys.subscription(pushes.endpoint(name)),
                    user_agent="Mozilla/5.0 (Linux; Android 14) Chrome/131.0 Mobile",
                )
                self.phones[position] = keys
        self.hits: list[str] = []
        self.categories: set[str] = set()
        self.scans = 0

    def api(self, position, method: str, path: str, body=None):
        headers = {"Authorization": f"Bearer {self.tokens[position]}"}
        client = Client()
        if method == "get":
            return client.get(path, headers=headers)
        return client.post(path, body, content_type="application/json", headers=headers)

    def check(self, position, body, where: str) -> None:
        secrets = secrets_for(self.game, position)
        self.categories |= secrets.categories()
        self.hits += scan(body, secrets, where=f"seat {position}, v{self.game.version}, {where}")

    def scan_everything(self) -> None:
        self.game.refresh_from_db()
        self.scans += 1
        gid, version = self.game.pk, self.game.version
        for position in self.viewers:
            client = self.html[position]
            pages = {
                "page": client.get(f"/games/{gid}/"),
                "fragment": client.get(f"/games/{gid}/", headers={"HX-Request": "true"}),
                "log": client.get(f"/games/{gid}/log"),
                "replay": client.get(f"/games/{gid}/replay?step={version}"),
                "api game": self.api(position, "get", f"/api/games/{gid}"),
                "api actions": self.api(position, "get", f"/api/games/{gid}/actions"),
                "api log": self.api(position, "get", f"/api/games/{gid}/log"),
                "api table": self.api(position, "get", f"/api/tables/{gid}"),
                "api tables": self.api(position, "get", "/api/tables"),
                "home": client.get("/"),
                "lobby": client.get("/games/"),
                "notifications": client.get("/notifications/"),
                # "Verify" replays the log against the seed's hash: not the seed itself.
                "verify": client.post(f"/games/{gid}/verify"),
            }
            # Asking the replay for another seat's view while the game runs.
            other = (version + (position or 0) + 1) % self.game.seats_count
            pages["replay of another seat"] = client.get(
                f"/games/{gid}/replay?step={version}&seat={other}"
            )
            for where, response in pages.items():
                # A spectator has no actions (403) and no replay of a running game (404).
                expected = {200} if position is not None else {200, 403, 404}
                assert response.status_code in expected, (where, response.status_code)
                self.check(position, response.content, where)
        for position, (connected, pushed) in self.socket_messages().items():
            self.check(position, connected, "socket on connect")
            self.check(position, pushed, "socket push")
        # The sockets said the members were looking; they closed, so pushes may go again.
        for position, user in self.viewers.items():
            if position is not None:
                presence_leave(self.game.pk, user.pk)
        self.scan_watching()

    def scan_pushes(self) -> None:
        """Send what is owed (the sweep's step) and scan each push a member's phone gets."""
        if self.pushes is None:
            return
        push_sending.pushes_due_send(timezone.now())
        self.game.refresh_from_db()
        for position, keys in self.phones.items():
            received = self.pushes.to(f"seat-{position}")
            for push in received[self.pushes_scanned[position] :]:
                self.check(position, keys.decrypt(push.body), "web push")
            self.pushes_scanned[position] = len(received)

    def scan_watching(self) -> None:
        """ "Watch it" draws the board after each of the last moves: each step is searched for
        what the viewer must not know at *that* moment (the replayed state)."""
        gid, version = self.game.pk, self.game.version
        if not version:
            return
        start = max(0, version - 6)
        states = {
            (event.seq if event else start): state
            for event, state in game_replay_steps(self.game, game_events(self.game), start, version)
        }
        for position in self.viewers:
            body = self.html[position].get(f"/games/{gid}/watch?from={start}").content.decode()
            steps = _WATCH_STEP.findall(body)
            assert len(steps) == len(states), (position, len(steps), len(states))
            for seq, step in steps:
                secrets = secrets_for(self.game, position, states[int(seq)])
                self.hits += scan(step, secrets, where=f"seat {position}, watch step {seq}")

    def socket_messages(self) -> dict:
        """What each viewer's game socket gets: the table on connect, then a push that all of
        them answer at once (pushes share renders between sockets: games/realtime/consumers.py)."""

        async def receive() -> dict:
            sockets = {}
            for position in self.viewers:
                headers = socket_headers(self.cookies[position])
                socket = Socket(application, f"/ws/games/{self.game.pk}/", headers)
                connected, _code = await socket.connect(timeout=30)
                assert connected
                sockets[position] = socket
            messages = {p: [await s.receive_from()] for p, s in sockets.items()}
            update = {"type": "game.updated", "version": self.game.version, "sent": uuid4().hex}
            await get_channel_layer().group_send(game_group(self.game.pk), update)
            for position, socket in sockets.items():
                messages[position].append(await socket.receive_from())
                await socket.disconnect()
            return messages

        return async_to_sync(receive)()

    def play_out(self, rng: random.Random, limit: int = 600) -> None:
        engine = get_engine(self.game.kind)
        member_moves = 0
        for _step in range(limit):
            self.game.refresh_from_db()
            if self.game.status != Game.Status.RUNNING:
                return
            position = self.game.to_move[0]
            if position not in (self.alice_seat, self.bob_seat):
                assert turns.bot_move_play(self.game.pk, self.game.version).ok
                self.scan_pushes()
                continue
            state = engine.from_json(self.game.state)
            # Scan regularly, and whenever a bandit hides in the Time Machine's spot.
            hiding = "hidden" in state.get("level", ())
            if member_moves % SCAN_EVERY == 0 or (hiding and member_moves % 2 == 0):
                self.scan_everything()
            member_moves += 1
            action = rng.choice(engine.legal_actions(state, position))
            action = {k: v for k, v in action.items() if k != "label"}
            if position == self.alice_seat:
                response = self.html[position].post(
                    f"/games/{self.game.pk}/act",
                    {"action": json.dumps(action), "version": self.game.version},
                    headers={"HX-Request": "true"},
                )
                assert 'class="message message--error"' not in response.content.decode()
            else:
                response = self.api(
                    position,
                    "post",
                    f"/api/games/{self.game.pk}/actions",
                    {"action": action, "expected_version": self.game.version},
                )
            assert response.status_code == 200, response.content[:500]
            self.game.refresh_from_db()
            self.check(position, response.content, "move answer")
            self.scan_pushes()
        raise AssertionError("the game did not end")


def test_a_napad_game_leaks_nothing_to_any_seat(alice, bob, charlie, push_service):
    table = Table(
        "napad-designed-default",
        alice,
        bob,
        charlie,
        [0, 2],
        {1: "search", 3: "heuristic"},
        pushes=push_service,
    )
    table.play_out(random.Random(9))

    assert table.game.status == Game.Status.FINISHED
    assert table.hits == [], sorted({hit.split(", ", 2)[2][:150] for hit in table.hits})
    assert table.scans >= 10
    assert min(table.pushes_scanned.values()) >= 5, table.pushes_scanned
    # The scan had something to look for all along.
    assert {"seed", "another seat's hand", "another seat's private log line"} <= (table.categories)


def test_a_colt_express_game_with_the_time_machine_leaks_nothing_to_any_seat(
    alice, bob, charlie, push_service
):
    table = Table(
        "colt-express-time-machine",
        alice,
        bob,
        charlie,
        [0, 1],
        {2: "search", 3: "heuristic"},
        pushes=push_service,
    )
    table.play_out(random.Random(4))

    assert table.game.status == Game.Status.FINISHED
    assert table.hits == [], sorted({hit.split(", ", 2)[2][:150] for hit in table.hits})
    assert table.scans >= 10
    assert min(table.pushes_scanned.values()) >= 5, table.pushes_scanned
    assert {
        "seed",
        "face-down card",
        "purse token",
        "another bandit's purses",
        "another seat's private log line",
        "a round card still to come",
        "hidden Time Machine spot",
    } <= table.categories


# -- the scanner catches a leak ----------------------------------------------------------------


def _play_until(game: Game, done, limit: int = 400) -> Game:
    """Random legal moves for whoever is to move (through the play service) until ``done``."""
    engine = get_engine(game.kind)
    rng = random.Random(2)
    for _step in range(limit):
        game.refresh_from_db()
        state = engine.from_json(game.state)
        if done(state):
            return game
        position = game.to_move[0]
        action = rng.choice(engine.legal_actions(state, position))
        result = play.move_play_for_seat(
            game_id=game.pk,
            position=position,
            action={k: v for k, v in action.items() if k != "label"},
            expected_version=game.version,
        )
        assert result.ok, result.message
    raise AssertionError("the position was never reached")


def _categories(hits: list[str]) -> set[str]:
    return {hit.split(": ")[1] for hit in hits}


@pytest.mark.parametrize("kind", ["napad", "colt"])
def test_the_scanner_finds_another_seats_view_served_to_a_seat(alice, bob, charlie, kind):
    if kind == "napad":
        table = Table(
            "napad-designed-default", alice, bob, charlie, [0, 2], {1: "random", 3: "random"}
        )

        def done(state) -> bool:
            return state["round"] >= 2

    else:
        table = Table(
            "colt-express-time-machine", alice, bob, charlie, [0, 1], {2: "random", 3: "random"}
        )

        def done(state) -> bool:
            # Bob has just played a card face down: nobody else knows its kind yet.
            last = state["pile"][-1:]
            return state["phase"] == "schemin" and any(
                seat == table.bob_seat and face_down for seat, _card, face_down, _turn in last
            )

    game = _play_until(table.game, done)
    engine = get_engine(kind)
    state = engine.from_json(game.state)
    alice_secrets = secrets_for(game, table.alice_seat)

    # What alice is really sent is clean...
    honest = render_game_live(game, position=table.alice_seat, user=alice)
    assert scan(honest, alice_secrets, where="honest") == []
    assert scan(json.dumps(engine.view(state, table.alice_seat)), alice_secrets, where="x") == []
    # ...but bob's page, bob's view as JSON, or the stored state, sent to her, are caught.
    leaked_page = scan(
        render_game_live(game, position=table.bob_seat, user=bob), alice_secrets, where="page"
    )
    leaked_json = scan(json.dumps(engine.view(state, table.bob_seat)), alice_secrets, where="json")
    leaked_state = scan(json.dumps(game.state), alice_secrets, where="state")
    assert leaked_page and leaked_json and leaked_state
    assert "serialised state" in _categories(leaked_state)
    # A log that reads out every seat's private lines (what they drew, played face down...).
    every_line = [
        text
        for event in GameEvent.objects.filter(game=game)
        for text in event_texts(event, table.alice_seat, everything=True)
    ]
    leaked_log = scan("\n".join(every_line), alice_secrets, where="log")
    assert "another seat's private log line" in _categories(leaked_log)
    if kind == "napad":
        assert "another seat's hand" in _categories(leaked_page)
        assert "another seat's hand" in _categories(leaked_json)
    else:
        assert {"another bandit's purses"} <= _categories(leaked_page)
        assert "another seat's hand" in _categories(leaked_page)
        assert "another seat's hand" in _categories(leaked_json)
        assert any("face-down card" in hit for hit in leaked_page)
        assert any("purse values of seat" in hit for hit in leaked_json)
        assert any("face-down card" in hit for hit in leaked_json)
        # Bob travels in the Time Machine and hides under a car only he knows.
        hidden = engine.from_json(game.state)
        hidden["level"][table.bob_seat], hidden["car"][table.bob_seat] = "hidden", 1
        Game.objects.filter(pk=game.pk).update(state=engine.to_json(hidden))
        game.refresh_from_db()
        alice_secrets = secrets_for(game, table.alice_seat)
        honest = render_game_live(game, position=table.alice_seat, user=alice)
        assert scan(honest, alice_secrets, where="honest") == []
        bobs_page = render_game_live(game, position=table.bob_seat, user=bob)
        assert "hidden Time Machine spot" in _categories(scan(bobs_page, alice_secrets, where="p"))
        seen_by_bob = engine.view(hidden, table.bob_seat)
        bobs_view = scan(json.dumps(seen_by_bob), alice_secrets, where="j")
        assert any("hidden spot of seat" in hit for hit in bobs_view)
    # A spectator shown a seat's page is caught too; and the seed, wherever it turns up.
    spectator = secrets_for(game, None)
    assert scan(render_game_live(game, position=table.alice_seat, user=alice), spectator, where="s")
    assert scan(f"<p>{game.seed}</p>", spectator, where="seed") == [
        f"seed: seed: {game.seed[:80]!r}"
    ]


def test_the_scanner_finds_a_secret_in_a_push(alice, bob, charlie, push_service, monkeypatch):
    """A push whose text carried the seed (as a careless payload might) is caught, decrypted
    from what the push service received."""
    honest = push_sending.push_payload

    def leaky(message):
        game = Game.objects.get(pk=message.game_id)
        return {**honest(message), "body": f"seed {game.seed}"}

    monkeypatch.setattr(push_sending, "push_payload", leaky)
    table = Table(
        "napad-designed-default",
        alice,
        bob,
        charlie,
        [0, 2],
        {1: "random", 3: "random"},
        pushes=push_service,
    )
    engine = get_engine(table.game.kind)
    for _step in range(12):
        table.game.refresh_from_db()
        position = table.game.to_move[0]
        action = engine.legal_actions(engine.from_json(table.game.state), position)[0]
        result = play.move_play_for_seat(
            game_id=table.game.pk,
            position=position,
            action={k: v for k, v in action.items() if k != "label"},
            expected_version=table.game.version,
        )
        assert result.ok, result.message
        table.scan_pushes()
    assert sum(table.pushes_scanned.values()) >= 2
    assert any("web push: seed" in hit for hit in table.hits), table.hits
