"""Tables through the API: list, create (with its errors), join, leave, start, cancel."""

from __future__ import annotations

import pytest

from games.models import Game, Invitation, Seat

pytestmark = pytest.mark.django_db


def _create(api, **fields):
    return api.post("/api/tables", {"kind": "napad", "seats": 2, **fields})


def test_it_lists_published_rulesets_with_their_options(alice_api):
    rows = alice_api.get("/api/rulesets").json()
    napad = next(row for row in rows if row["slug"] == "napad-designed-default")
    assert napad["kind"] == "napad"
    assert napad["min_players"] == 2 and napad["max_players"] == 4
    assert {option["key"] for option in napad["options"]} >= {"variant_a_bullets"}
    assert napad["bots"]


def test_it_creates_a_table(alice_api, alice):
    response = _create(alice_api, turn_time_limit_minutes=90)
    assert response.status_code == 201, response.content
    table = response.json()
    assert table["status"] == "open"
    assert table["ruleset"]["slug"] == "napad-designed-default"
    assert table["turn_time_limit_minutes"] == 90
    assert table["my_seat"] == 0
    assert table["seats"] == [
        {
            "position": 0,
            "name": "Alice",
            "username": "alice",
            "bot": None,
            "bot_level": None,
            "identity": "",
            "score": None,
            "place": None,
        }
    ]
    assert table["seed_hash"] == ""
    assert Game.objects.get(pk=table["id"]).created_by == alice


def test_it_creates_a_table_with_a_ruleset_bots_options_and_invitations(alice_api, bob):
    ruleset = next(
        row for row in alice_api.get("/api/rulesets").json() if row["slug"] == "napad-variant-a"
    )
    response = alice_api.post(
        "/api/tables",
        {
            "ruleset_id": ruleset["id"],
            "seats": 3,
            "bot_seats": {"2": ruleset["bots"][0]},
            "options": {"variant_b_twos": True},
            "invite_only": True,
            "invitees": ["bob"],
        },
    )
    assert response.status_code == 201, response.content
    table = response.json()
    assert table["invite_only"] is True
    assert [seat["bot"] for seat in table["seats"]] == [None, ruleset["bots"][0]]
    game = Game.objects.get(pk=table["id"])
    assert game.config["variant_b_twos"] is True
    assert Invitation.objects.filter(game=game, player=bob.player).exists()


@pytest.mark.parametrize(
    ("fields", "field", "words"),
    [
        ({"seats": 9}, "seats", "players"),
        ({"bot_seats": {"0": "nobody"}}, "bot_seats", "not a bot"),
        ({"options": {"no_such_option": True}}, "options", "not an option"),
        ({"invitees": ["ghost"]}, "invitees", "ghost"),
    ],
)
def test_it_explains_what_is_wrong_with_a_new_table(alice_api, fields, field, words):
    response = _create(alice_api, **fields)
    assert response.status_code == 400
    body = response.json()
    assert words in body["detail"] or words in " ".join(body["problems"].get(field, []))
    assert field in body["problems"]
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    "body",
    [
        {"kind": "chess", "seats": 2},
        {"kind": "napad"},
        {"kind": "napad", "seats": "two"},
        {"kind": "napad", "seats": 2, "turn_time_limit_minutes": 0},
        {"kind": "napad", "seats": 2, "bot_seats": {"first": "random"}},
        {"kind": "napad", "seats": 2, "invitees": ["bad name!"]},
        {"seats": 2, "ruleset_id": 2**40},
    ],
)
def test_it_refuses_malformed_new_tables(alice_api, body):
    response = alice_api.post("/api/tables", body)
    assert response.status_code == 422
    assert response.json()["detail"].startswith("The request is not valid")
    assert not Game.objects.exists()


def test_it_asks_which_game_to_play(alice_api):
    response = alice_api.post("/api/tables", {"seats": 2})
    assert response.status_code == 400
    assert "ruleset_id or a kind" in response.json()["detail"]


def test_an_unknown_ruleset_is_not_found(alice_api):
    assert alice_api.post("/api/tables", {"ruleset_id": 999, "seats": 2}).status_code == 404


def test_it_lists_open_tables_mine_and_finished(alice_api, bob_api, charlie_api):
    public = _create(alice_api).json()
    private = _create(alice_api, invite_only=True).json()
    assert {t["id"] for t in bob_api.get("/api/tables").json()} == {public["id"]}
    assert {t["id"] for t in bob_api.get("/api/tables", which="open").json()} == {public["id"]}
    assert {t["id"] for t in alice_api.get("/api/tables", which="mine").json()} == {
        public["id"],
        private["id"],
    }
    assert bob_api.get("/api/tables", which="mine").json() == []
    assert charlie_api.get("/api/tables", which="finished").json() == []
    assert alice_api.get("/api/tables", which="everything").status_code == 422


def test_a_member_joins_and_leaves(alice_api, bob_api, bob):
    table = _create(alice_api).json()
    joined = bob_api.post(f"/api/tables/{table['id']}/join")
    assert joined.status_code == 200
    assert joined.json()["my_seat"] == 1
    assert [s["username"] for s in joined.json()["seats"]] == ["alice", "bob"]

    again = bob_api.post(f"/api/tables/{table['id']}/join")
    assert again.status_code == 400
    assert "already" in again.json()["detail"]

    left = bob_api.post(f"/api/tables/{table['id']}/leave")
    assert left.status_code == 200
    assert left.json()["my_seat"] is None
    assert not Seat.objects.filter(game_id=table["id"], player=bob.player).exists()


def test_a_full_table_cannot_be_joined(alice_api, bob_api, charlie_api):
    table = _create(alice_api).json()
    bob_api.post(f"/api/tables/{table['id']}/join")
    response = charlie_api.post(f"/api/tables/{table['id']}/join")
    assert response.status_code == 400
    assert "full" in response.json()["detail"]


def test_an_invite_only_table_is_hidden_from_those_not_invited(alice_api, charlie_api):
    table = _create(alice_api, invite_only=True).json()
    for response in (
        charlie_api.get(f"/api/tables/{table['id']}"),
        charlie_api.post(f"/api/tables/{table['id']}/join"),
        charlie_api.get(f"/api/games/{table['id']}"),
    ):
        assert response.status_code == 404
        assert response.json() == {"detail": "There is no such table."}


def test_an_invited_member_may_join(alice_api, bob_api):
    table = _create(alice_api, invite_only=True, invitees=["bob"]).json()
    assert bob_api.post(f"/api/tables/{table['id']}/join").status_code == 200


def test_only_the_creator_starts_when_the_table_is_full(alice_api, bob_api):
    table = _create(alice_api).json()
    early = alice_api.post(f"/api/tables/{table['id']}/start")
    assert early.status_code == 400
    assert "every seat" in early.json()["detail"]
    bob_api.post(f"/api/tables/{table['id']}/join")
    by_bob = bob_api.post(f"/api/tables/{table['id']}/start")
    assert by_bob.status_code == 400
    assert "Only the member who opened" in by_bob.json()["detail"]

    started = alice_api.post(f"/api/tables/{table['id']}/start")
    assert started.status_code == 200
    body = started.json()
    assert body["status"] == "running"
    assert len(body["seed_hash"]) == 64
    assert all(seat["identity"] for seat in body["seats"])
    assert "seed" not in body and "state" not in body


def test_leaving_after_the_start_is_refused(alice_api, bob_api, napad_running):
    response = bob_api.post(f"/api/tables/{napad_running['id']}/leave")
    assert response.status_code == 400
    assert "before it starts" in response.json()["detail"]


def test_the_creator_cancels_an_open_table(alice_api, bob_api):
    table = _create(alice_api).json()
    assert bob_api.post(f"/api/tables/{table['id']}/cancel").status_code == 400
    response = alice_api.post(f"/api/tables/{table['id']}/cancel")
    assert response.status_code == 200
    assert response.json()["status"] == "cancelled"
    assert alice_api.post(f"/api/tables/{table['id']}/cancel").status_code == 400


@pytest.mark.parametrize("action", ["join", "leave", "start", "cancel"])
def test_an_unknown_table_is_not_found(alice_api, action):
    response = alice_api.post(f"/api/tables/424242/{action}")
    assert response.status_code == 404
    assert response.json() == {"detail": "There is no such table."}


@pytest.mark.parametrize("game_id", ["0", "-1", "abc", str(2**70)])
def test_nonsense_table_ids_are_refused(alice_api, game_id):
    response = alice_api.post(f"/api/tables/{game_id}/join")
    assert 400 <= response.status_code < 500


def test_listing_tables_costs_the_same_queries_however_many_there_are(alice_api, bob_api):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def queries(which: str) -> int:
        with CaptureQueriesContext(connection) as captured:
            assert bob_api.get("/api/tables", which=which).status_code == 200
        return len(captured.captured_queries)

    bob_api.get("/api/me")  # the token's first use is recorded once; keep it out of the count
    bob_api.post(f"/api/tables/{_create(alice_api).json()['id']}/join")
    _create(alice_api, seats=3)
    one = {which: queries(which) for which in ("open", "mine", "finished")}
    for _table in range(4):
        table = _create(alice_api).json()
        bob_api.post(f"/api/tables/{table['id']}/join")
    _create(alice_api, seats=3)
    assert {which: queries(which) for which in ("open", "mine", "finished")} == one
