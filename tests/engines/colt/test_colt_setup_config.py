"""Config validation, options, identities and setup (spec §Components, §Setup)."""

from __future__ import annotations

from collections import Counter

import pytest

from games.engines import ConfigError, get_engine
from games.engines.colt.data import CAR_LOOT, ROUND_CARDS, STATION_CARDS, token_kind
from games.engines.colt.engine import ENGINE


def test_registry_finds_the_colt_engine():
    assert get_engine("colt") is ENGINE
    assert ENGINE.min_players == 2 and ENGINE.max_players == 6


def test_default_config_is_the_published_game():
    config = ENGINE.default_config()
    assert ENGINE.validate_config(config) == config
    assert config["time_machine"] is False
    assert config["round_deck"] == "published"
    assert config["turn_face_down"] == {"N": False, "T": True, "S": False, "R": False}


def test_validate_config_lists_every_problem_with_its_path():
    config = ENGINE.default_config()
    config.update(time_machine="yes", round_deck="all", two_player_cars=4, colour="red")
    config["turn_face_down"] = {"N": 1, "T": True, "X": False}
    del config["hand_size"]
    with pytest.raises(ConfigError) as caught:
        ENGINE.validate_config(config)
    paths = {path for path, _message in caught.value.problems}
    assert paths == {
        "time_machine",
        "round_deck",
        "two_player_cars",
        "colour",
        "hand_size",
        "turn_face_down.N",
        "turn_face_down.S",
        "turn_face_down.R",
        "turn_face_down.X",
    }


def test_validate_config_rejects_a_non_object():
    with pytest.raises(ConfigError):
        ENGINE.validate_config(["time_machine"])


def test_options_offer_time_machine_and_round_deck():
    options = {option["key"]: option for option in ENGINE.options(ENGINE.default_config())}
    assert set(options) == {"time_machine", "round_deck"}
    assert options["time_machine"]["type"] == "bool"
    assert [c["value"] for c in options["round_deck"]["choices"]] == ["published", "guide"]
    assert all(option["label"] and option["help"] for option in options.values())
    config = ENGINE.apply_options(ENGINE.default_config(), {"time_machine": True})
    assert config["time_machine"] is True


def test_identities_are_the_six_characters():
    assert ENGINE.identities(ENGINE.default_config()) == [
        "Belle",
        "Cheyenne",
        "Django",
        "Doc",
        "Ghost",
        "Tuco",
    ]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_setup_one_random_car_per_player_behind_the_locomotive(players):
    state = ENGINE.setup(ENGINE.default_config(), players, seed=3)
    assert state["cars"][0] == "Locomotive"
    assert len(state["cars"]) == players + 1
    assert len(set(state["cars"])) == players + 1


def test_setup_two_players_use_two_cars_or_three_as_an_option():
    config = ENGINE.default_config()
    assert len(ENGINE.setup(config, 2, seed=1)["cars"]) == 3
    config["two_player_cars"] = 3
    assert len(ENGINE.setup(config, 2, seed=1)["cars"]) == 4


def test_setup_printed_loot_inside_each_car_and_strongbox_with_marshal():
    state = ENGINE.setup(ENGINE.default_config(), 6, seed=11)
    assert state["inside"][0] == ["strongbox"] and state["marshal"] == 0
    for car, name in enumerate(state["cars"][1:], start=1):
        kinds = Counter(token_kind(token) for token in state["inside"][car])
        assert (kinds["purse"], kinds["jewel"]) == CAR_LOOT[name]
    assert all(roof == [] for roof in state["roof"])
    assert state["reserve"].count("strongbox") == 1
    assert state["loot"] == [["purse:250"]] * 6


def test_setup_purses_are_shuffled_face_down_from_the_seed():
    layouts = {
        tuple(tuple(spot) for spot in ENGINE.setup(ENGINE.default_config(), 6, seed=s)["inside"])
        for s in range(6)
    }
    assert len(layouts) > 1
    again = ENGINE.setup(ENGINE.default_config(), 6, seed=2)
    assert again == ENGINE.setup(ENGINE.default_config(), 6, seed=2)


def test_setup_odd_players_in_caboose_even_players_in_next_to_last_car():
    state = ENGINE.setup(ENGINE.default_config(), 5, seed=4, first_player=3)
    caboose = len(state["cars"]) - 1
    expected = {3: caboose, 4: caboose - 1, 0: caboose, 1: caboose - 1, 2: caboose}
    assert {seat: state["car"][seat] for seat in range(5)} == expected
    assert state["level"] == ["inside"] * 5
    assert state["first_player"] == 3


def test_setup_published_round_deck_is_four_round_cards_and_a_station():
    state = ENGINE.setup(ENGINE.default_config(), 4, seed=9)
    deck = state["round_deck"]
    assert len(deck) == 5 and deck[-1] in STATION_CARDS
    assert all(card in ROUND_CARDS for card in deck[:4]) and len(set(deck[:4])) == 4


def test_setup_guide_round_deck_is_five_of_seven_without_station():
    config = ENGINE.default_config()
    config["round_deck"] = "guide"
    deck = ENGINE.setup(config, 4, seed=9)["round_deck"]
    assert len(deck) == 5 and len(set(deck)) == 5 and all(card in ROUND_CARDS for card in deck)


def test_setup_chosen_characters_per_seat():
    config = ENGINE.default_config()
    config["character_selection"] = "chosen"
    state = ENGINE.setup(config, 3, seed=1, identities=["Tuco", "Belle", "Doc"])
    assert [ENGINE.seat_identity(state, seat) for seat in range(3)] == ["Tuco", "Belle", "Doc"]


def test_setup_random_characters_are_dealt_from_the_seed():
    first = ENGINE.setup(ENGINE.default_config(), 6, seed=5)["characters"]
    assert sorted(first) == sorted(ENGINE.identities({}))
    assert first == ENGINE.setup(ENGINE.default_config(), 6, seed=5)["characters"]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"players": 1},
        {"players": 7},
        {"players": 3, "identities": ["Tuco", "Tuco", "Doc"]},
        {"players": 3, "identities": ["Tuco", "Zorro", "Doc"]},
        {"players": 3, "identities": ["Tuco"]},
        {"players": 3, "first_player": 3},
    ],
)
def test_setup_rejects_bad_tables(kwargs):
    with pytest.raises(ConfigError):
        ENGINE.setup(ENGINE.default_config(), seed=1, **kwargs)


def test_setup_hands_of_six_and_seven_for_doc_with_the_first_round_card_shown():
    state = ENGINE.setup(
        ENGINE.default_config(), 3, seed=1, identities=["Doc", "Belle", "Tuco"], first_player=0
    )
    assert [len(hand) for hand in state["hand"]] == [7, 6, 6]
    assert [len(deck) for deck in state["deck"]] == [3, 4, 4]
    assert state["phase"] == "schemin" and state["round"] == 0
    assert ENGINE.to_move(state) == [0]
    assert state["bullets"] == [6, 6, 6] and state["neutral"] == 13
