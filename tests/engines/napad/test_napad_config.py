"""The To jest napad! ruleset: the designed default and validation naming every problem."""

from __future__ import annotations

from collections import Counter

import pytest

from games.engines.base import ConfigError


def problems(engine, config):
    with pytest.raises(ConfigError) as error:
        engine.validate_config(config)
    return error.value.as_dict()


def test_default_config_is_the_designed_card_data_and_says_so(engine):
    config = engine.default_config()
    assert "designed default" in config["card_data_note"].lower()
    assert "not the published card list" in config["card_data_note"]
    assert config["gangs"] == ["cowboys", "mexicans", "deserters", "indians"]
    assert len(config["gang_cards"]) == 15
    halves = Counter()
    for card in config["gang_cards"]:
        assert card[0][0] != card[1][0]
        for colour, value, _bullets in card:
            halves[colour, value] += 1
    for colour in ("yellow", "red", "green"):
        values = sorted(v for (c, v), n in halves.items() if c == colour for _ in range(n))
        assert values == [2, 3, 3, 4, 4, 5, 5, 6, 6, 7]
    assert config["wagons"] == {
        cargo: [2, 2, 3, 3, 4, 5] for cargo in ("gold", "dynamite", "money")
    }
    assert config["wagon_bullets"]["gold"] == [0] * 6
    assert (config["rounds"], config["hand_size"], config["reinforcements"]) == (6, 5, 2)
    assert not any(
        config[flag] for flag in ("variant_a_bullets", "variant_b_twos", "public_captures")
    )
    assert engine.validate_config(config) == config


def test_default_config_is_a_fresh_copy_each_time(engine):
    config = engine.default_config()
    config["gang_cards"][0][0][1] = 99
    assert engine.default_config()["gang_cards"][0][0][1] == 2


def test_validate_config_fills_optional_settings(engine):
    config = engine.default_config()
    for key in ("gang_decks", "wagon_bullets", "variant_a_bullets", "card_data_note"):
        del config[key]
    normalised = engine.validate_config(config)
    assert normalised["gang_decks"] == {}
    assert normalised["variant_a_bullets"] is False
    assert normalised["wagon_bullets"]["money"] == [0] * 6


def test_validate_config_rejects_a_value_out_of_range_with_its_path(engine):
    config = engine.default_config()
    config["gang_cards"][3][1][1] = 8
    assert problems(engine, config) == {"gang_cards[3][1][1]": ["must be 2..7"]}


def test_validate_config_rejects_a_wrong_colour(engine):
    config = engine.default_config()
    config["gang_cards"][0][0][0] = "blue"
    assert problems(engine, config) == {
        "gang_cards[0][0][0]": ["must be one of yellow, red, green"]
    }


def test_validate_config_rejects_both_halves_of_one_colour(engine):
    config = engine.default_config()
    config["gang_cards"][5] = [["red", 2, 2], ["red", 7, 0]]
    assert problems(engine, config) == {
        "gang_cards[5]": ["both halves are red; a card's halves must differ in colour"]
    }


def test_validate_config_rejects_wrong_card_and_wagon_counts(engine):
    config = engine.default_config()
    config["gang_cards"].pop()
    config["wagons"]["gold"].append(4)
    config["wagon_bullets"]["money"] = [0] * 5
    found = problems(engine, config)
    assert found == {
        "gang_cards": ["must have 15 cards, not 14"],
        "wagons.gold": ["must have 6 wagons, not 7"],
        "wagon_bullets.money": ["must have 6 wagons, not 5"],
    }


def test_validate_config_rejects_unknown_keys_everywhere(engine):
    config = engine.default_config()
    config["speed"] = "fast"
    config["wagons"]["diamonds"] = [5] * 6
    config["gang_decks"] = {"pirates": config["gang_cards"]}
    assert problems(engine, config) == {
        "speed": ["is not a setting of To jest napad!"],
        "wagons.diamonds": ["is not a cargo (use gold, dynamite, money)"],
        "gang_decks.pirates": ["is not one of the gangs"],
    }


def test_validate_config_rejects_bad_wagon_data(engine):
    config = engine.default_config()
    config["wagons"]["money"][2] = 0
    config["wagons"]["dynamite"] = "lots"
    config["wagon_bullets"]["gold"][0] = -1
    del config["wagons"]["gold"]
    assert problems(engine, config) == {
        "wagons.money[2]": ["must be 1..10"],
        "wagons.dynamite": ["must be a list of 6 numbers"],
        "wagons.gold": ["is required"],
        "wagon_bullets.gold[0]": ["must be 0..9"],
    }


def test_validate_config_rejects_bad_variant_flags_and_numbers(engine):
    config = engine.default_config()
    config["variant_a_bullets"] = "yes"
    config["public_captures"] = 1
    config["rounds"] = 7
    config["hand_size"] = True
    config["reinforcements"] = -1
    assert problems(engine, config) == {
        "variant_a_bullets": ["must be true or false"],
        "public_captures": ["must be true or false"],
        "rounds": ["must be 1..6"],
        "hand_size": ["must be a whole number 1..15"],
        "reinforcements": ["must be 0..15"],
    }


def test_validate_config_lists_every_problem_at_once(engine):
    config = engine.default_config()
    config["gang_cards"][0][0][1] = 1
    config["gang_cards"][14][1][2] = "two"
    config["gang_cards"][7] = ["red", 4, 1]
    config["gangs"] = ["cowboys", "cowboys", "indians"]
    del config["rounds"]
    found = problems(engine, config)
    assert found == {
        "gang_cards[0][0][1]": ["must be 2..7"],
        "gang_cards[14][1][2]": ["must be a whole number 0..9"],
        "gang_cards[7]": [
            "must be two halves [[colour, value, bullets], [colour, value, bullets]]"
        ],
        "gangs": ["must list 4 gangs, not 3", "must not repeat a gang"],
        "rounds": ["is required"],
    }
    message = str(pytest.raises(ConfigError, engine.validate_config, config).value)
    assert "gang_cards[0][0][1]: must be 2..7" in message


def test_validate_config_rejects_a_non_object(engine):
    assert problems(engine, ["not", "a", "config"]) == {"config": ["must be an object of settings"]}


def test_gangs_may_have_different_decks(engine):
    config = engine.default_config()
    strong = [[["yellow", 7, 3], ["red", 7, 3]] for _ in range(15)]
    config["gang_decks"] = {"indians": strong}
    config = engine.validate_config(config)
    state = engine.setup(config, 2, 1, identities=["indians", "cowboys"])
    assert state["decks"][0] == strong
    assert state["decks"][1] == config["gang_cards"]
    hand = engine.view(state, 0)["hand"]
    assert {half["value"] for card in hand for half in card["halves"]} == {7}


def test_gang_decks_are_checked_card_by_card(engine):
    config = engine.default_config()
    config["gang_decks"] = {"mexicans": [[["green", 9, 0], ["red", 3, 0]]] * 15}
    found = problems(engine, config)
    assert set(found) == {f"gang_decks.mexicans[{index}][0][1]" for index in range(15)}


def test_rounds_hand_size_and_reinforcements_come_from_the_config(engine):
    config = engine.default_config()
    config.update(rounds=2, hand_size=3, reinforcements=1)
    state = engine.setup(config, 2, 5)
    assert [len(hand) for hand in state["hands"]] == [3, 3]
    rounds = set()
    while not engine.is_over(state):
        rounds.add(state["round"])
        seat = engine.to_move(state)[0]
        state, events = engine.apply(state, seat, engine.timeout_action(state, seat))
        drawn = [e["args"]["count"] for e in events if e["type"] == "reinforcements"]
        assert set(drawn) <= {1}
    assert rounds == {1, 2}
