"""A game through the API: the whole Napad flow, refused moves (stale, duplicate, forged,
malformed), what other players and spectators may not see, and the log."""

from __future__ import annotations

import copy
import hashlib
import json

import pytest
from apikit import client_to_move
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.engines import get_engine
from games.models import Game, GameEvent

pytestmark = pytest.mark.django_db


def _snapshot(game_id: int):
    game = Game.objects.get(pk=game_id)
    return game.version, json.dumps(game.state, sort_keys=True), GameEvent.objects.count()


def _play_first_legal(game_id, *clients):
    api = client_to_move(game_id, *clients)
    legal = api.get(f"/api/games/{game_id}/actions").json()
    response = api.post(
        f"/api/games/{game_id}/actions",
        {"action": legal["actions"][0]["action"], "expected_version": legal["version"]},
    )
    assert response.status_code == 200, response.content
    return response.json()


def test_the_whole_flow_create_join_start_view_act_log(alice_api, bob_api):
    table = alice_api.post("/api/tables", {"kind": "napad", "seats": 2}).json()
    assert bob_api.post(f"/api/tables/{table['id']}/join").status_code == 200
    game_id = alice_api.post(f"/api/tables/{table['id']}/start").json()["id"]

    game = alice_api.get(f"/api/games/{game_id}").json()
    assert game["status"] == "running" and game["version"] == 0
    assert game["view"]["viewer"] == 0
    assert len(game["view"]["hand"]) == 5
    assert game["seed"] is None and game["result"] is None

    mover = client_to_move(game_id, alice_api, bob_api)
    legal = mover.get(f"/api/games/{game_id}/actions").json()
    assert legal["my_turn"] is True and legal["version"] == 0
    assert all(a["label"] and "label" not in a["action"] for a in legal["actions"])
    played = mover.post(
        f"/api/games/{game_id}/actions",
        {"action": legal["actions"][0]["action"], "expected_version": 0},
    )
    assert played.status_code == 200
    body = played.json()
    assert body["applied"] is True and body["version"] == 1
    assert body["log"][0]["seq"] == 1 and body["log"][0]["texts"]

    log = bob_api.get(f"/api/games/{game_id}/log").json()
    assert log["version"] == 1
    assert [entry["seq"] for entry in log["entries"]] == [1]
    assert "action" not in log["entries"][0]

    other = bob_api if mover is alice_api else alice_api
    assert other.get(f"/api/games/{game_id}/actions").json()["my_turn"] is True


def test_it_plays_a_game_to_the_end_and_then_reveals_the_seed(alice_api, bob_api, napad_running):
    game_id = napad_running["id"]
    seed = Game.objects.get(pk=game_id).seed
    for _step in range(500):
        view = alice_api.get(f"/api/games/{game_id}")
        if view.json()["status"] != "running":
            break
        assert seed not in view.content.decode()
        _play_first_legal(game_id, alice_api, bob_api)
    finished = alice_api.get(f"/api/games/{game_id}").json()
    assert finished["status"] == "finished"
    assert finished["seed"] == seed
    assert hashlib.sha256(seed.encode()).hexdigest() == finished["seed_hash"]
    assert {row["seat"] for row in finished["result"]["ranking"]} == {0, 1}
    assert all(seat["place"] for seat in finished["seats"])
    assert alice_api.get(f"/api/games/{game_id}/actions").json()["actions"] == []

    late = alice_api.post(
        f"/api/games/{game_id}/actions",
        {"action": {"type": "pass"}, "expected_version": finished["version"]},
    )
    assert late.status_code == 409
    assert "not running" in late.json()["detail"]
    assert alice_api.get("/api/tables", which="finished").json()[0]["id"] == game_id


def test_a_stale_or_duplicate_submission_is_applied_once(alice_api, bob_api, napad_running):
    game_id = napad_running["id"]
    mover = client_to_move(game_id, alice_api, bob_api)
    legal = mover.get(f"/api/games/{game_id}/actions").json()
    move = {"action": legal["actions"][0]["action"], "expected_version": legal["version"]}
    assert mover.post(f"/api/games/{game_id}/actions", move).status_code == 200
    before = _snapshot(game_id)

    duplicate = mover.post(f"/api/games/{game_id}/actions", move)
    assert duplicate.status_code == 409
    body = duplicate.json()
    assert body["applied"] is False
    assert "moved on" in body["detail"]
    assert body["version"] == 1
    assert _snapshot(game_id) == before
    assert GameEvent.objects.filter(game_id=game_id).count() == 1


def test_a_stale_version_from_the_player_to_move_is_refused(alice_api, bob_api, napad_running):
    game_id = napad_running["id"]
    _play_first_legal(game_id, alice_api, bob_api)
    mover = client_to_move(game_id, alice_api, bob_api)
    legal = mover.get(f"/api/games/{game_id}/actions").json()
    before = _snapshot(game_id)
    response = mover.post(
        f"/api/games/{game_id}/actions",
        {"action": legal["actions"][0]["action"], "expected_version": legal["version"] - 1},
    )
    assert response.status_code == 409
    assert "moved on" in response.json()["detail"]
    assert _snapshot(game_id) == before


def test_an_action_that_is_not_legal_is_refused(alice_api, bob_api, napad_running):
    game_id = napad_running["id"]
    mover = client_to_move(game_id, alice_api, bob_api)
    legal = mover.get(f"/api/games/{game_id}/actions").json()
    hand = {a["action"].get("card") for a in legal["actions"]}
    not_in_hand = next(card for card in range(100) if card not in hand)
    before = _snapshot(game_id)
    for action in (
        {"type": "play", "card": not_in_hand, "colour": "yellow"},
        {"type": "play", "card": legal["actions"][0]["action"]["card"], "colour": "purple"},
        {"type": "pass"},  # the marker holder may not pass on the first turn
        {"type": "steal-the-train"},
        {},
    ):
        response = mover.post(
            f"/api/games/{game_id}/actions", {"action": action, "expected_version": 0}
        )
        assert response.status_code == 400, (action, response.content)
        assert response.json()["applied"] is False
        assert response.json()["detail"]
        assert response.json()["version"] == 0
    assert _snapshot(game_id) == before


def test_another_seats_action_is_refused(alice_api, bob_api, napad_running):
    game_id = napad_running["id"]
    mover = client_to_move(game_id, alice_api, bob_api)
    waiting = bob_api if mover is alice_api else alice_api
    legal = mover.get(f"/api/games/{game_id}/actions").json()
    before = _snapshot(game_id)
    response = waiting.post(
        f"/api/games/{game_id}/actions",
        {"action": legal["actions"][0]["action"], "expected_version": legal["version"]},
    )
    assert response.status_code == 400
    assert "not your turn" in response.json()["detail"]
    assert _snapshot(game_id) == before
    assert waiting.get(f"/api/games/{game_id}/actions").json() == {
        "game": game_id,
        "version": 0,
        "my_seat": 1 - legal["my_seat"],
        "my_turn": False,
        "actions": [],
    }


def test_a_spectator_may_watch_but_not_act(alice_api, bob_api, charlie_api, napad_running):
    game_id = napad_running["id"]
    watched = charlie_api.get(f"/api/games/{game_id}")
    assert watched.status_code == 200
    view = watched.json()["view"]
    assert view["viewer"] is None
    assert not view.get("hand")
    assert watched.json()["my_seat"] is None

    assert charlie_api.get(f"/api/games/{game_id}/actions").status_code == 403
    mover = client_to_move(game_id, alice_api, bob_api)
    legal = mover.get(f"/api/games/{game_id}/actions").json()
    before = _snapshot(game_id)
    response = charlie_api.post(
        f"/api/games/{game_id}/actions",
        {"action": legal["actions"][0]["action"], "expected_version": 0},
    )
    assert response.status_code == 403
    assert "no seat" in response.json()["detail"]
    assert _snapshot(game_id) == before


def test_anonymous_callers_see_nothing(anonymous_api, napad_running):
    game_id = napad_running["id"]
    for response in (
        anonymous_api.get(f"/api/games/{game_id}"),
        anonymous_api.get(f"/api/games/{game_id}/log"),
        anonymous_api.get(f"/api/games/{game_id}/actions"),
        anonymous_api.post(
            f"/api/games/{game_id}/actions",
            {"action": {"type": "pass"}, "expected_version": 0},
        ),
    ):
        assert response.status_code == 401
        assert set(response.json()) == {"detail"}


def test_an_unknown_game_is_not_found(alice_api):
    for response in (
        alice_api.get("/api/games/999"),
        alice_api.get("/api/games/999/actions"),
        alice_api.get("/api/games/999/log"),
        alice_api.post("/api/games/999/actions", {"action": {}, "expected_version": 0}),
    ):
        assert response.status_code == 404
        assert response.json()["detail"] == "There is no such table."


@pytest.mark.parametrize(
    "raw",
    [
        "{not json",
        "",
        "[]",
        "null",
        '"pass"',
        '{"action": "pass", "expected_version": 0}',
        '{"action": {"type": "pass"}}',
        '{"expected_version": 0}',
        '{"action": {"type": "pass"}, "expected_version": "zero"}',
        '{"action": {"type": "pass"}, "expected_version": -1}',
        '{"action": {"type": "pass"}, "expected_version": 1e400}',
        '{"action": {"type": "pass"}, "expected_version": 99999999999999999999999}',
        '{"action": [1, 2], "expected_version": 0}',
        '{"action": {"type": "pass"}, "expected_version": 0',
        "\xff\xfe",
    ],
)
def test_malformed_bodies_are_refused(alice_api, napad_running, raw):
    game_id = napad_running["id"]
    before = _snapshot(game_id)
    response = alice_api.post(f"/api/games/{game_id}/actions", raw=raw)
    assert 400 <= response.status_code < 500, response.content
    assert response.json()["detail"]
    assert _snapshot(game_id) == before


def test_an_oversized_action_is_refused(alice_api, bob_api, napad_running):
    game_id = napad_running["id"]
    mover = client_to_move(game_id, alice_api, bob_api)
    before = _snapshot(game_id)
    response = mover.post(
        f"/api/games/{game_id}/actions",
        {"action": {"type": "pass", "padding": "x" * 5000}, "expected_version": 0},
    )
    assert response.status_code == 400
    assert "too large" in response.json()["detail"]
    assert _snapshot(game_id) == before


# -- secrets -----------------------------------------------------------------------------------


def _state(game_id):
    return Game.objects.get(pk=game_id).state


def test_a_player_sees_exactly_their_seats_view(alice_api, napad_running):
    game_id = napad_running["id"]
    engine = get_engine("napad")
    expected = engine.view(engine.from_json(_state(game_id)), 0)
    body = alice_api.get(f"/api/games/{game_id}").json()
    assert body["view"] == json.loads(json.dumps(expected))
    assert {"state", "seed", "config"}.isdisjoint(body["view"])


def test_other_seats_hands_and_hideouts_do_not_change_what_i_see(
    alice_api, bob_api, charlie_api, napad_running
):
    """Non-interference: shuffle bob's hand with his hideout (and reorder every hideout) in
    the stored state; alice's and charlie's responses must not change."""
    game_id = napad_running["id"]

    def responses():
        return [
            alice_api.get(f"/api/games/{game_id}").content,
            alice_api.get(f"/api/games/{game_id}/actions").content,
            alice_api.get(f"/api/games/{game_id}/log").content,
            charlie_api.get(f"/api/games/{game_id}").content,
        ]

    before = responses()
    state = copy.deepcopy(_state(game_id))
    bob = 1
    pool = state["hands"][bob] + state["hideouts"][bob]
    pool.reverse()
    state["hands"][bob], state["hideouts"][bob] = pool[:5], pool[5:]
    assert state["hands"][bob] != _state(game_id)["hands"][bob]
    state["hideouts"][0] = list(reversed(state["hideouts"][0]))
    Game.objects.filter(pk=game_id).update(state=state)

    assert responses() == before
    assert (
        bob_api.get(f"/api/games/{game_id}").json()["view"]["hand"]
        != json.loads(before[0])["view"]["hand"]
    )


def test_the_seed_stays_secret_until_the_end(alice_api, bob_api, charlie_api, napad_running):
    game_id = napad_running["id"]
    seed = Game.objects.get(pk=game_id).seed
    _play_first_legal(game_id, alice_api, bob_api)
    for api in (alice_api, bob_api, charlie_api):
        for path in ("", "/log", "/actions"):
            assert seed not in api.get(f"/api/games/{game_id}{path}").content.decode()
        assert seed not in api.get("/api/tables", which="mine").content.decode()
        assert seed not in api.get(f"/api/tables/{game_id}").content.decode()


def test_the_log_shows_my_private_events_and_not_yours(alice_api, bob_api, napad_running):
    game_id = napad_running["id"]
    for _step in range(200):
        if GameEvent.objects.filter(game_id=game_id).exclude(private_events=[]).exists():
            break
        _play_first_legal(game_id, alice_api, bob_api)
    rows = list(GameEvent.objects.filter(game_id=game_id))
    assert any(row.private_events for row in rows), "a round ended: private events happened"
    for seat, api in ((0, alice_api), (1, bob_api)):
        entries = api.get(f"/api/games/{game_id}/log").json()["entries"]
        assert len(entries) == len(rows)
        for entry, row in zip(entries, rows):
            mine = [e for e in row.private_events if seat in e["private_to"]]
            assert len(entry["texts"]) == len(row.public_events) + len(mine)


def test_the_log_pages_with_since_and_limit(alice_api, bob_api, napad_running):
    game_id = napad_running["id"]
    for _step in range(3):
        _play_first_legal(game_id, alice_api, bob_api)
    entries = alice_api.get(f"/api/games/{game_id}/log", since=1, limit=1).json()["entries"]
    assert [entry["seq"] for entry in entries] == [2]
    assert alice_api.get(f"/api/games/{game_id}/log", since=-1).status_code == 422
    assert alice_api.get(f"/api/games/{game_id}/log", limit=0).status_code == 422


def test_reading_a_game_and_moving_cost_the_same_queries_as_it_grows(
    alice_api, bob_api, napad_running, django_assert_max_num_queries
):
    game_id = napad_running["id"]

    def queries_for_a_read_and_a_move() -> tuple[int, int]:
        with CaptureQueriesContext(connection) as read:
            alice_api.get(f"/api/games/{game_id}")
        mover = client_to_move(game_id, alice_api, bob_api)
        legal = mover.get(f"/api/games/{game_id}/actions").json()
        with CaptureQueriesContext(connection) as move:
            response = mover.post(
                f"/api/games/{game_id}/actions",
                {"action": legal["actions"][0]["action"], "expected_version": legal["version"]},
            )
        assert response.status_code == 200
        return len(read.captured_queries), len(move.captured_queries)

    early_read, early_move = queries_for_a_read_and_a_move()
    for _step in range(8):
        _play_first_legal(game_id, alice_api, bob_api)
    with django_assert_max_num_queries(early_read):
        alice_api.get(f"/api/games/{game_id}")
    late_read, late_move = queries_for_a_read_and_a_move()
    assert late_read <= early_read
    assert late_move <= early_move


def test_a_colt_express_game_through_the_api(alice_api, bob_api):
    table = alice_api.post("/api/tables", {"kind": "colt", "seats": 2})
    assert table.status_code == 201, table.content
    game_id = table.json()["id"]
    bob_api.post(f"/api/tables/{game_id}/join")
    assert alice_api.post(f"/api/tables/{game_id}/start").status_code == 200
    seed = Game.objects.get(pk=game_id).seed
    for _step in range(6):
        _play_first_legal(game_id, alice_api, bob_api)
    engine = get_engine("colt")
    state = engine.from_json(_state(game_id))
    for position, api in ((0, alice_api), (1, bob_api)):
        response = api.get(f"/api/games/{game_id}")
        assert seed not in response.content.decode()
        assert response.json()["view"] == json.loads(json.dumps(engine.view(state, position)))
    log = alice_api.get(f"/api/games/{game_id}/log").json()
    assert [entry["seq"] for entry in log["entries"]] == list(range(1, 7))


def test_a_body_over_the_upload_limit_answers_413_in_json(alice_api, napad_running, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    body = {"action": {"type": "pass", "padding": "x" * 20_000}, "expected_version": 0}
    response = alice_api.post(f"/api/games/{napad_running['id']}/actions", body)
    assert response.status_code == 413
    assert response["Content-Type"].startswith("application/json")
    assert response.json() == {
        "detail": "The request body is too large: the API takes at most 9 KiB."
    }
    assert Game.objects.get(pk=napad_running["id"]).version == napad_running["version"]
