"""Every page and fragment a member reads, in Polish and in Portuguese, at each moment of both
games — with no English left: no text that is an English message whose translation differs,
no English game term (issue #13).

The catalogues' statistics say every message is translated; this measures the rendered pages,
where a term passed as an argument, a label from an engine or a stored notification would show
in English. Each test builds its moments once and reads them in both languages.
"""

from __future__ import annotations

import json

import pytest
from django.utils import timezone, translation
from i18nkit import (
    COLT,
    COLT_TM,
    LANGUAGES,
    NAPAD,
    english_leftovers,
    heuristic,
    plain_texts,
    play_step,
    play_until,
    reader,
    state_put,
    table_started,
    visible_texts,
)

from games.engines import get_engine
from games.models import Game, GameEvent
from games.table.rendering import render_game_live
from tests.personakit import member

pytestmark = pytest.mark.django_db

INSIDE, ROOF, TM = "inside", "roof", "time_machine"


class Reading:
    """What each member read, page by page; ``leftovers`` is every English text found."""

    def __init__(self) -> None:
        self.found: list[str] = []
        self.pages = 0

    def html(self, where: str, html: str, language: str) -> str:
        self.pages += 1
        for problem in english_leftovers(visible_texts(html, language), language):
            self.found.append(f"[{language}] {where}: {problem}")
        return html

    def get(self, client, url: str, language: str, *, where: str = "", **headers) -> str:
        response = client.get(url, **headers)
        assert response.status_code == 200, (url, response.status_code)
        return self.html(where or url, response.content.decode(), language)

    def post(self, client, url: str, data: dict, language: str, *, where: str = "", **headers):
        response = client.post(url, data, **headers)
        assert response.status_code in (200, 302), (url, response.status_code)
        return self.html(where or f"POST {url}", response.content.decode(), language)

    def text(self, where: str, body: str, language: str) -> None:
        self.pages += 1
        for problem in english_leftovers(plain_texts(body), language):
            self.found.append(f"[{language}] {where}: {problem}")

    def check(self) -> None:
        assert not self.found, f"{len(self.found)} English texts:\n" + "\n".join(
            dict.fromkeys(self.found)
        )


def _table_pages(reading, game, readers, language, moment: str) -> None:
    """The table as each member and a spectator read it: the page, an HTMX answer (a stale
    move: the fresh board and a message), the socket push, the log, the replay."""
    game.refresh_from_db()
    for name, client in readers.items():
        where = f"{moment}, {name}"
        reading.get(client, f"/games/{game.pk}/", language, where=f"{where}: table page")
        reading.post(
            client,
            f"/games/{game.pk}/act",
            {"action": json.dumps({"type": "pass"}), "version": game.version + 7},
            language,
            where=f"{where}: HTMX answer",
            HTTP_HX_REQUEST="true",
        )
        user = client.session_user
        seat = game.seats.filter(player__user=user).first()
        with translation.override(language), timezone.override("Europe/Warsaw"):
            pushed = render_game_live(
                game, position=seat.position if seat else None, user=user, oob=True
            )
        reading.html(f"{where}: socket push", pushed, language)
        reading.get(client, f"/games/{game.pk}/log", language, where=f"{where}: whole log")
        if seat is not None or game.status == Game.Status.FINISHED:
            reading.get(client, f"/games/{game.pk}/replay", language, where=f"{where}: replay")


def _readers(language, **users) -> dict:
    clients = {}
    for name, user in users.items():
        client = reader(user, language)
        client.session_user = user
        clients[name] = client
    return clients


def _replay_steps(reading, client, game, language, steps, moment) -> None:
    for step in steps:
        reading.get(
            client, f"/games/{game.pk}/replay?step={step}", language, where=f"{moment} step {step}"
        )


def _seq_with(game, event_type: str) -> int:
    for event in GameEvent.objects.filter(game=game).order_by("seq"):
        if any(e.get("type") == event_type for e in event.public_events):
            return event.seq
    raise AssertionError(f"no {event_type} in the log")


# --- To jest napad! ---------------------------------------------------------------------------


def test_napad_reads_in_polish_and_portuguese_at_every_moment(alice, bob, charlie, dave):
    carol = member("carol", "Carol")
    game = table_started(NAPAD, alice, bob, charlie, seed="napad-i18n")
    chooser = heuristic(3)
    reading = Reading()

    # The first round, bidding.
    play_step(game, chooser)
    play_step(game, chooser)
    moments = [("round 1, It's a robbery!", game.version)]
    for language in LANGUAGES:
        readers = _readers(language, alice=alice, bob=bob, spectator=dave)
        _table_pages(reading, game, readers, language, "Napad round 1")

    # A round with a loot division behind it: the log's division and reinforcements.
    play_until(game, chooser, lambda state: state["round"] >= 2)
    play_step(game, chooser)
    division = _seq_with(game, "captured")
    for language in LANGUAGES:
        readers = _readers(language, alice=alice, charlie=charlie, spectator=carol)
        _table_pages(reading, game, readers, language, "Napad after a division")
        _replay_steps(
            reading, readers["alice"], game, language, [division - 1, division], "Napad replay"
        )

    # The end screen, the whole log with every seat's private lines, the replay as each seat.
    play_until(game, chooser, lambda state: False, limit=400)
    assert game.status == Game.Status.FINISHED
    for language in LANGUAGES:
        readers = _readers(language, alice=alice, bob=bob, spectator=dave)
        _table_pages(reading, game, readers, language, "Napad end screen")
        for seat in range(3):
            reading.get(
                readers["spectator"],
                f"/games/{game.pk}/replay?step={division}&seat={seat}",
                language,
                where=f"Napad finished replay as seat {seat}",
            )
        reading.post(
            readers["alice"], f"/games/{game.pk}/verify", {}, language, where="Napad verify"
        )
    assert moments and reading.pages > 40
    reading.check()


# --- Colt Express -----------------------------------------------------------------------------


def _choice(kind: str) -> tuple[dict, int]:
    """A position where ``seat`` must make a Stealin' (or event) choice of ``kind``."""
    table, resolve, run_events = COLT.table, COLT.resolve, COLT.run_events
    if kind == "move":
        state = table(3, cars=3, tm=True, at={0: (2, ROOF), 1: (1, INSIDE), 2: (3, INSIDE)})
        return resolve(state, [(0, "move")])[0], 0
    if kind == "fire":
        state = table(3, cars=3, tm=True, at={0: (2, ROOF), 1: (1, ROOF), 2: (3, ROOF)})
        return resolve(state, [(0, "fire")])[0], 0
    if kind == "rob":
        floor = {(2, INSIDE): ["jewel", "purse:300", "strongbox"]}
        state = table(3, cars=3, at={0: (2, INSIDE), 1: (1, ROOF), 2: (3, ROOF)}, floor=floor)
        return resolve(state, [(0, "rob")])[0], 0
    if kind == "punch":
        loot = {1: ["jewel", "purse:250"]}
        state = table(3, cars=3, at={0: (2, INSIDE), 1: (2, INSIDE), 2: (3, ROOF)}, loot=loot)
        return resolve(state, [(0, "punch")])[0], 0
    if kind == "punch_take":  # Cheyenne (seat 2) may keep the purse she punches loose
        loot = {1: ["purse:250"]}
        state = table(3, cars=3, at={2: (2, INSIDE), 1: (2, INSIDE), 0: (3, ROOF)}, loot=loot)
        return resolve(state, [(2, "punch")])[0], 2
    if kind == "marshal":
        state = table(3, cars=3, marshal=2, at={0: (1, ROOF), 1: (3, ROOF), 2: (3, INSIDE)})
        return resolve(state, [(0, "marshal")])[0], 0
    if kind == "pickpocket":  # the train station of the last round
        floor = {(1, INSIDE): ["purse:300"]}
        state = table(
            3,
            cars=3,
            at={0: (1, INSIDE), 1: (2, ROOF), 2: (3, INSIDE)},
            floor=floor,
            round_card="Pickpocketing",
            round_index=4,
        )
        return run_events(state)[0], 0
    if kind == "hide":  # alone in the Time Machine at the end of a round
        state = table(
            3, cars=3, tm=True, at={0: (-1, TM), 1: (2, ROOF), 2: (3, INSIDE)}, round_index=1
        )
        return run_events(state)[0], 0
    raise ValueError(kind)


CHOICES = ("move", "fire", "rob", "punch", "punch_take", "marshal", "pickpocket", "hide")


def test_colt_reads_in_polish_and_portuguese_at_every_moment(alice, bob, charlie, dave):
    game = table_started(COLT_TM, alice, bob, charlie, seed="colt-i18n")
    engine = get_engine("colt")
    chooser = heuristic(5)
    reading = Reading()
    users = {0: alice, 1: bob, 2: charlie}

    def tunnel(state):
        return state["phase"] == "schemin" and any(card[2] for card in state["pile"])

    # Schemin' in a tunnel: a card lies face down on the pile.
    play_until(game, chooser, tunnel)
    for language in LANGUAGES:
        readers = _readers(language, alice=alice, bob=bob, charlie=charlie, spectator=dave)
        _table_pages(reading, game, readers, language, "Colt tunnel")

    # Stealin' as played, then each kind of choice a card (or the station) can ask for.
    play_until(game, chooser, lambda state: state["pending"] is not None)
    for language in LANGUAGES:
        readers = _readers(language, alice=alice, bob=bob, spectator=dave)
        _table_pages(reading, game, readers, language, "Colt Stealin'")
    played = game
    for kind in CHOICES:
        state, seat = _choice(kind)
        assert state["pending"] and state["pending"]["seat"] == seat, kind
        assert len(engine.legal_actions(state, seat)) > 1, kind
        game = state_put(played, state)
        for language in LANGUAGES:
            readers = _readers(language, chooser=users[seat], other=users[(seat + 1) % 3])
            for name, client in readers.items():
                reading.get(client, f"/games/{game.pk}/", language, where=f"Colt {kind}, {name}")
            reading.post(
                readers["chooser"],
                f"/games/{game.pk}/act",
                {"action": json.dumps({"type": "draw"}), "version": game.version},
                language,
                where=f"Colt {kind}: refused move (HTMX)",
                HTTP_HX_REQUEST="true",
            )
    # After the hiding: the traveller's own view and the others'.
    state, seat = _choice("hide")
    state, _events = engine.apply(state, seat, {"type": "hide", "car": 2})
    game = state_put(played, state)
    for language in LANGUAGES:
        readers = _readers(language, traveller=alice, other=bob)
        for name, client in readers.items():
            reading.get(client, f"/games/{game.pk}/", language, where=f"Colt hidden, {name}")
    # A station's round card on the board.
    station = COLT.table(3, cars=3, round_card="Marshal's Revenge", round_index=4)
    game = state_put(played, station)
    for language in LANGUAGES:
        reading.get(reader(alice, language), f"/games/{game.pk}/", language, where="station")

    # Back to the real game, to its end screen (Time Machine bonus, Gunslinger).
    game = table_started(COLT_TM, alice, bob, charlie, seed="colt-i18n-2")
    play_until(game, chooser, lambda state: False, limit=800)
    assert game.status == Game.Status.FINISHED
    for language in LANGUAGES:
        readers = _readers(language, alice=alice, bob=bob, spectator=dave)
        _table_pages(reading, game, readers, language, "Colt end screen")
        steps = GameEvent.objects.filter(game=game).count()
        _replay_steps(reading, readers["spectator"], game, language, [1, steps // 2], "Colt")
    reading.check()
