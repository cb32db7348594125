"""The API names bots and their levels, and takes a level where it takes a bot."""

from __future__ import annotations


def test_rulesets_list_their_bots_by_level(alice_api):
    rows = alice_api.get("/api/rulesets").json()
    for row in rows:
        assert [(bot["level"], bot["name"]) for bot in row["bot_levels"]] == [
            ("easy", "random"),
            ("medium", "heuristic"),
            ("hard", "search"),
        ]
        assert all(bot["description"] for bot in row["bot_levels"])
        assert row["bots"] == ["heuristic", "random", "search"]


def test_a_table_takes_a_level_or_a_name_and_shows_both(alice_api):
    response = alice_api.post(
        "/api/tables", {"kind": "colt", "seats": 4, "bot_seats": {"1": "hard", "2": "heuristic"}}
    )
    assert response.status_code == 201, response.content
    seats = {seat["position"]: seat for seat in response.json()["seats"]}
    assert (seats[1]["bot"], seats[1]["bot_level"]) == ("search", "hard")
    assert (seats[2]["bot"], seats[2]["bot_level"]) == ("heuristic", "medium")
    assert (seats[0]["bot"], seats[0]["bot_level"]) == (None, None)
    assert seats[1]["name"] == "Bot (hard)"


def test_an_unknown_level_is_refused(alice_api):
    response = alice_api.post(
        "/api/tables", {"kind": "napad", "seats": 2, "bot_seats": {"1": "grandmaster"}}
    )
    # A play error (400), as for any bot the game does not have.
    assert response.status_code == 400
    assert "grandmaster" in response.content.decode()


def test_a_practice_table_says_so(alice, alice_api):
    from games.services.practice import practice_game_start

    game = practice_game_start(user=alice, table="napad")
    table = alice_api.get(f"/api/games/{game.pk}").json()
    assert table["practice"] is True
    assert [seat["bot_level"] for seat in table["seats"]] == [None, "hard", "hard", "hard"]
    ordinary = alice_api.post("/api/tables", {"kind": "napad", "seats": 2}).json()
    assert ordinary["practice"] is False
