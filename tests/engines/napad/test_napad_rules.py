"""One test per rule of To jest napad! (setup, bidding, division, reinforcements, end)."""

from __future__ import annotations

import pytest

from games.engines.base import ConfigError, IllegalAction


def types(events):
    return [event["type"] for event in events]


# -- the rulebook's own example ----------------------------------------------------------------


def test_division_rulebook_phase3_example(engine, napad):
    """Yellow: Indians 11 beat the Mexicans. Red: Indians 4 = cowboys 4. Green: Mexicans 7."""
    cowboys, mexicans, indians = 0, 1, 2
    state = napad.craft(
        engine,
        gangs=["cowboys", "mexicans", "indians"],
        marker=cowboys,
        hands={
            cowboys: [napad.Y4_R4, napad.R6_G3, napad.Y2_R7],
            mexicans: [napad.Y5_R5, napad.R2_G7, napad.Y3_R6],
            indians: [napad.G2_Y7, napad.Y4_R4, napad.R4_G4, napad.Y6_R3],
        },
        train=[napad.GOLD[4], napad.DYNAMITE[3], napad.MONEY[2]],
    )
    state, events = napad.run(
        engine,
        state,
        [
            (cowboys, napad.Y4_R4, "red"),
            (mexicans, napad.Y5_R5, "yellow"),
            (indians, napad.G2_Y7, "yellow"),
            (cowboys, napad.R6_G3, "green"),
            (mexicans, napad.R2_G7, "green"),
            (indians, napad.Y4_R4, "yellow"),
            (cowboys, "pass"),
            (mexicans, "pass"),
            (indians, napad.R4_G4, "red"),
            (indians, "pass"),
        ],
    )
    # Indians capture the gold wagon; their yellow cards go into the box.
    assert state["captured"][indians] == [napad.GOLD[4]]
    assert sorted(state["out"][indians]) == sorted([napad.G2_Y7, napad.Y4_R4])
    # Mexicans capture the money wagon with their green 7, which goes into the box.
    assert state["captured"][mexicans] == [napad.MONEY[2]]
    assert state["out"][mexicans] == [napad.R2_G7]
    # Red is a tie at 4: nobody captures, the dynamite wagon stays on the train.
    assert state["captured"][cowboys] == []
    assert napad.DYNAMITE[3] in state["train"]
    # Every other card went back to its owner's hand (plus two reinforcements each).
    assert {napad.Y4_R4, napad.R6_G3, napad.Y2_R7} <= set(state["hands"][cowboys])
    assert {napad.Y5_R5, napad.Y3_R6} <= set(state["hands"][mexicans])
    assert {napad.R4_G4, napad.Y6_R3} <= set(state["hands"][indians])
    assert [len(hand) for hand in state["hands"]] == [5, 4, 4]
    captured = [e for e in events if e["type"] == "captured"]
    assert [(e["args"]["gang"], e["args"]["cargo"], e["args"]["total"]) for e in captured] == [
        ("indians", "gold", 11),
        ("mexicans", "money", 7),
    ]
    tie = next(e for e in events if e["type"] == "tie")
    assert tie["args"]["cargo"] == "dynamite" and tie["args"]["total"] == 4
    assert tie["args"]["seats"] == [cowboys, indians]
    napad.check_invariants(engine, state)


# -- setup -------------------------------------------------------------------------------------


def test_setup_treasury_stacks_sorted_by_cargo_and_shuffled(engine):
    states = [engine.setup(engine.default_config(), 4, seed) for seed in range(6)]
    for state in states:
        for colour, stack in zip(("yellow", "red", "green"), state["treasury"]):
            assert len(stack) == 5
            assert {state["wagons"][w][0] for w in stack} == {colour}
    orders = {tuple(state["treasury"][0]) for state in states}
    assert len(orders) > 1, "the gold stack comes out in the same order for every seed"


def test_setup_deals_five_cards_and_keeps_ten_in_hideout(engine):
    state = engine.setup(engine.default_config(), 4, 3)
    assert [len(hand) for hand in state["hands"]] == [5, 5, 5, 5]
    assert [len(hideout) for hideout in state["hideouts"]] == [10, 10, 10, 10]


def test_setup_unused_gangs_stay_in_the_box_with_fewer_players(engine):
    state = engine.setup(engine.default_config(), 2, 3)
    assert len(state["gangs"]) == 2 and len(set(state["gangs"])) == 2
    assert len(state["hands"]) == len(state["hideouts"]) == 2


def test_setup_identities_give_each_seat_its_gang(engine):
    gangs = ["indians", "cowboys", "deserters"]
    state = engine.setup(engine.default_config(), 3, 9, identities=gangs)
    assert [engine.seat_identity(state, seat) for seat in range(3)] == gangs
    assert engine.identities(engine.default_config()) == [
        "cowboys",
        "mexicans",
        "deserters",
        "indians",
    ]


def test_setup_gangs_and_first_player_come_from_the_seed(engine):
    config = engine.default_config()
    deals = {tuple(engine.setup(config, 2, seed)["gangs"]) for seed in range(20)}
    firsts = {engine.setup(config, 4, seed)["marker"] for seed in range(20)}
    assert len(deals) > 1
    assert firsts == {0, 1, 2, 3}
    assert engine.setup(config, 4, 5) == engine.setup(config, 4, 5)


def test_setup_first_player_chosen_by_the_table_holds_the_marker(engine):
    state = engine.setup(engine.default_config(), 4, 5, first_player=2)
    assert state["marker"] == 2
    assert engine.to_move(state) == [2]


@pytest.mark.parametrize(
    ("kwargs", "path"),
    [
        ({"players": 1}, "players"),
        ({"players": 5}, "players"),
        ({"players": 3, "first_player": 3}, "first_player"),
        ({"players": 2, "identities": ["cowboys"]}, "identities"),
        ({"players": 2, "identities": ["cowboys", "cowboys"]}, "identities"),
        ({"players": 2, "identities": ["cowboys", "pirates"]}, "identities"),
    ],
)
def test_setup_rejects_bad_tables(engine, kwargs, path):
    players = kwargs.pop("players")
    with pytest.raises(ConfigError) as error:
        engine.setup(engine.default_config(), players, 1, **kwargs)
    assert path in str(error.value)


# -- phase 1: attach wagons --------------------------------------------------------------------


def test_attach_one_wagon_per_cargo_each_round_and_leftovers_stay(engine, napad):
    state = napad.craft(
        engine,
        players=2,
        hands={0: [napad.Y4_R4, napad.Y2_R7], 1: [napad.R4_G4, napad.Y3_R6]},
        train=[napad.GOLD[2], napad.DYNAMITE[2], napad.MONEY[2]],
    )
    # Both bid 4 on red: a tie, so the dynamite wagon stays; nobody bids on gold or money.
    state, events = napad.run(
        engine, state, [(0, napad.Y4_R4, "red"), (1, napad.R4_G4, "red"), (0, "pass"), (1, "pass")]
    )
    assert state["round"] == 2
    assert len(state["train"]) == 6
    assert state["train"][:3] == [napad.GOLD[2], napad.DYNAMITE[2], napad.MONEY[2]]
    attached = next(e for e in events if e["type"] == "wagons_attached")
    assert [w["cargo"] for w in attached["args"]["wagons"]] == ["gold", "dynamite", "money"]
    assert [len(stack) for stack in state["treasury"]] == [4, 4, 4]


# -- phase 2: the robbery ----------------------------------------------------------------------


def test_bidding_starts_with_marker_and_goes_in_seat_order(engine, napad):
    state = napad.craft(engine, players=4, marker=2)
    order = []
    for _ in range(4):
        seat = engine.to_move(state)[0]
        order.append(seat)
        action = engine.legal_actions(state, seat)[0]
        state, _ = engine.apply(state, seat, action)
    assert order == [2, 3, 0, 1]


def test_play_sends_a_card_with_the_chosen_half_up(engine, napad):
    state = napad.craft(engine, hands={0: [napad.Y4_R4, napad.R2_G7]})
    state, events = napad.play(engine, state, 0, napad.R2_G7, "green")
    assert state["played"][0] == [[napad.R2_G7, "green"]]
    assert napad.R2_G7 not in state["hands"][0]
    event = events[0]
    assert event["type"] == "card_played" and "private_to" not in event
    assert event["args"] == {
        "seat": 0,
        "gang": "cowboys",
        "card": napad.R2_G7,
        "colour": "green",
        "value": 7,
        "bullets": 0,
        # The card as printed, for the log: the half sent, then the one facing down.
        "other_colour": "red",
        "other_value": 2,
    }
    assert engine.view(state, 1)["seats"][0]["totals"] == {"yellow": 0, "red": 0, "green": 7}


def test_the_table_sees_a_played_card_as_printed_with_the_half_sent_up(engine, napad):
    state = napad.craft(engine, hands={0: [napad.Y4_R4, napad.R2_G7]})
    state, _events = napad.play(engine, state, 0, napad.R2_G7, "green")
    state, _events = napad.play(engine, state, 1, *_first_play(engine, state, 1))
    state, _events = napad.play(engine, state, 2, *_first_play(engine, state, 2))
    state, _events = napad.play(engine, state, 0, napad.Y4_R4, "red")
    played = engine.view(state, 1)["seats"][0]["played"]
    # Both halves as printed (the default deck's), then the half sent and its bullets.
    assert played == [
        {
            "id": napad.R2_G7,
            "halves": [
                {"colour": "red", "cargo": "dynamite", "value": 2, "bullets": 2},
                {"colour": "green", "cargo": "money", "value": 7, "bullets": 0},
            ],
            "colour": "green",
            "value": 7,
            "bullets": 0,
        },
        {
            "id": napad.Y4_R4,
            "halves": [
                {"colour": "yellow", "cargo": "gold", "value": 4, "bullets": 1},
                {"colour": "red", "cargo": "dynamite", "value": 4, "bullets": 1},
            ],
            "colour": "red",
            "value": 4,
            "bullets": 1,
        },
    ]
    # Every seat and a spectator see the same cards on the table.
    assert all(
        engine.view(state, viewer)["seats"][0]["played"] == played for viewer in (0, 2, None)
    )


def _first_play(engine, state, seat):
    action = next(a for a in engine.legal_actions(state, seat) if a["type"] == "play")
    return action["card"], action["colour"]


def test_legal_actions_offer_both_halves_of_each_card_and_pass(engine, napad):
    state = napad.craft(engine, hands={0: [napad.Y4_R4], 1: [napad.G2_Y7]})
    state, _ = napad.play(engine, state, 0, napad.Y4_R4, "red")
    actions = engine.legal_actions(state, 1)
    assert actions == [
        {
            "type": "play",
            "card": 10,
            "colour": "green",
            "label": "Send money 2 (card money 2 / gold 7)",
        },
        {
            "type": "play",
            "card": 10,
            "colour": "yellow",
            "label": "Send gold 7 (card money 2 / gold 7)",
        },
        {"type": "pass", "label": "Pass"},
    ]
    assert engine.legal_actions(state, 0) == []


def test_marker_may_not_pass_on_first_turn(engine, napad):
    state = napad.craft(engine, marker=1)
    assert {a["type"] for a in engine.legal_actions(state, 1)} == {"play"}
    with pytest.raises(IllegalAction, match="may not pass"):
        napad.pass_(engine, state, 1)


def test_marker_may_pass_after_their_first_play(engine, napad):
    state = napad.craft(engine, marker=0)
    state, _ = engine.apply(state, 0, engine.legal_actions(state, 0)[0])
    state, _ = napad.pass_(engine, state, 1)
    state, _ = napad.pass_(engine, state, 2)
    assert engine.legal_actions(state, 0)[-1]["type"] == "pass"
    state, _ = napad.pass_(engine, state, 0)
    assert state["round"] == 2


def test_marker_with_empty_hand_passes_automatically(engine, napad):
    config = engine.default_config()
    config["reinforcements"] = 0
    state = napad.craft(
        engine,
        players=2,
        marker=1,
        config=config,
        hands={0: [napad.Y6_R3, napad.G2_Y7], 1: [napad.Y2_R7, napad.R2_G7]},
    )
    state, _ = napad.run(
        engine,
        state,
        [(1, napad.Y2_R7, "yellow"), (0, napad.Y6_R3, "yellow"), (1, "pass")],
    )
    # Seat 0 sends its last card: it wins the gold, keeps no cards, and next round it holds
    # the marker with an empty hand, so it is passed for and seat 1 opens.
    state, events = napad.play(engine, state, 0, napad.G2_Y7, "yellow")
    assert state["round"] == 2 and state["marker"] == 0
    assert state["hands"][0] == []
    assert engine.to_move(state) == [1]
    automatic = [e["args"] for e in events if e["type"] == "passed"]
    assert automatic == [
        {"seat": 0, "gang": "cowboys", "automatic": True},
        {"seat": 0, "gang": "cowboys", "automatic": True},
    ]
    assert {a["type"] for a in engine.legal_actions(state, 1)} == {"play", "pass"}


def test_empty_hand_passes_automatically_after_last_card(engine, napad):
    state = napad.craft(
        engine, players=2, hands={0: [napad.Y4_R4], 1: [napad.R4_G4, napad.Y2_R7, napad.Y3_R6]}
    )
    state, _ = napad.play(engine, state, 0, napad.Y4_R4, "yellow")
    state, events = napad.play(engine, state, 1, napad.R4_G4, "red")
    # Seat 0's turn came with no cards in hand: it passed by itself, so seat 1 bids again.
    assert types(events) == ["card_played", "passed"]
    assert events[1]["args"] == {"seat": 0, "gang": "cowboys", "automatic": True}
    assert state["passed"] == [True, False]
    assert engine.to_move(state) == [1]


def test_passed_player_is_out_of_the_rounds_bidding(engine, napad):
    state = napad.craft(engine, marker=0)

    def send_any(state, seat):
        return engine.apply(state, seat, engine.legal_actions(state, seat)[0])[0]

    state = send_any(state, 0)
    state, _ = napad.pass_(engine, state, 1)
    state = send_any(state, 2)
    state = send_any(state, 0)
    # Seat 1 passed: the turn skips it for the rest of the round.
    assert engine.to_move(state) == [2]
    assert engine.legal_actions(state, 1) == []
    with pytest.raises(IllegalAction, match="not seat 1's turn"):
        napad.pass_(engine, state, 1)


def test_bidding_ends_when_everyone_has_passed(engine, napad):
    state = napad.craft(engine, marker=0)
    state, _ = napad.play(engine, state, 0, state["hands"][0][0], "yellow")
    state, _ = napad.pass_(engine, state, 1)
    state, _ = napad.pass_(engine, state, 2)
    assert state["round"] == 1
    state, events = napad.pass_(engine, state, 0)
    assert state["round"] == 2
    assert types(events)[:2] == ["passed", "captured"]


# -- phase 3: divide the loot ------------------------------------------------------------------


def test_division_exclusive_highest_captures_all_wagons_of_the_colour(engine, napad):
    state = napad.craft(
        engine,
        players=2,
        hands={0: [napad.Y5_R5, napad.Y2_R7], 1: [napad.Y4_R4, napad.Y3_R6]},
        train=[napad.GOLD[2], napad.GOLD[5], napad.DYNAMITE[2], napad.MONEY[2]],
    )
    state, _ = napad.run(
        engine,
        state,
        [(0, napad.Y5_R5, "yellow"), (1, napad.Y4_R4, "yellow"), (0, "pass"), (1, "pass")],
    )
    # Both gold wagons (one left from an earlier round) go to the higher bid.
    assert sorted(state["captured"][0]) == [napad.GOLD[2], napad.GOLD[5]]
    assert state["captured"][1] == []
    assert not any(state["wagons"][w][0] == "yellow" for w in state["train"][:2])


def test_division_winners_cards_leave_the_game_and_losers_cards_return(engine, napad):
    state = napad.craft(
        engine,
        players=2,
        hands={0: [napad.Y5_R5, napad.G2_Y7], 1: [napad.Y4_R4, napad.R2_G7]},
    )
    state, _ = napad.run(
        engine,
        state,
        [
            (0, napad.Y5_R5, "yellow"),
            (1, napad.Y4_R4, "yellow"),
            (0, napad.G2_Y7, "yellow"),  # seat 0's last card: it is passed for
            (1, "pass"),
        ],
    )
    assert sorted(state["out"][0]) == [napad.Y5_R5, napad.G2_Y7]
    assert napad.Y4_R4 in state["hands"][1]
    assert state["out"][1] == []
    assert state["played"] == [[], []]


def test_division_tie_leaves_wagons_and_returns_every_card(engine, napad):
    state = napad.craft(
        engine,
        players=3,
        hands={0: [napad.Y4_R4], 1: [napad.G4_Y4], 2: [napad.Y3_R6]},
        train=[napad.GOLD[3], napad.DYNAMITE[3], napad.MONEY[3]],
    )
    state, events = napad.run(
        engine,
        state,
        [(0, napad.Y4_R4, "yellow"), (1, napad.G4_Y4, "yellow"), (2, napad.Y3_R6, "yellow")],
    )
    assert state["captured"] == [[], [], []]
    assert napad.GOLD[3] in state["train"]
    assert napad.Y4_R4 in state["hands"][0] and napad.G4_Y4 in state["hands"][1]
    assert napad.Y3_R6 in state["hands"][2]
    assert state["out"] == [[], [], []]
    assert "tie" in types(events)


def test_division_without_bids_leaves_the_wagons(engine, napad):
    state = napad.craft(engine, players=2, hands={0: [napad.Y4_R4], 1: [napad.R4_G4]})
    state, events = napad.run(engine, state, [(0, napad.Y4_R4, "yellow"), (1, "pass")])
    unclaimed = [e["args"]["cargo"] for e in events if e["type"] == "unclaimed"]
    assert unclaimed == ["dynamite", "money"]
    assert len(state["train"]) == 2 + 3


def test_division_remembers_which_cards_captured_what(engine, napad):
    state = napad.craft(engine, players=2, hands={0: [napad.Y6_R3, napad.R2_G7]}, train=[0, 6, 12])
    state, _ = napad.run(
        engine, state, [(0, napad.Y6_R3, "yellow"), (1, "pass"), (0, napad.R2_G7, "red")]
    )
    assert state["captures"][0] == [
        {"round": 1, "colour": "yellow", "total": 6, "wagons": [0], "cards": [napad.Y6_R3]},
        {"round": 1, "colour": "red", "total": 2, "wagons": [6], "cards": [napad.R2_G7]},
    ]


# -- phase 4: reinforcements and the marker ----------------------------------------------------


def test_reinforcements_draw_two_from_the_top_of_the_hideout(engine, napad):
    state = napad.craft(engine, players=2)
    tops = [hideout[:2] for hideout in state["hideouts"]]
    hand_sizes = [len(hand) for hand in state["hands"]]
    state, _ = napad.run(engine, state, [(0, state["hands"][0][0], "yellow"), (1, "pass")])
    state, events = napad.pass_(engine, state, 0)
    assert state["round"] == 2
    for seat in range(2):
        assert state["hands"][seat][-2:] == tops[seat]
    assert len(state["hands"][1]) == hand_sizes[1] + 2
    public = [e for e in events if e["type"] == "reinforcements"]
    assert [(e["args"]["seat"], e["args"]["count"]) for e in public] == [(0, 2), (1, 2)]
    assert all("private_to" not in e and "cards" not in e["args"] for e in public)
    private = [e for e in events if e["type"] == "cards_drawn"]
    assert [e["private_to"] for e in private] == [[0], [1]]
    assert [c["id"] for c in private[1]["args"]["cards"]] == tops[1]


def test_reinforcements_fewer_when_the_hideout_runs_low(engine, napad):
    state = napad.craft(engine, players=2)
    state["hideouts"][0], extra = state["hideouts"][0][:1], state["hideouts"][0][1:]
    state["hands"][0] = state["hands"][0] + extra
    state, events = napad.run(engine, state, [(0, state["hands"][0][0], "yellow"), (1, "pass")])
    state, events = napad.pass_(engine, state, 0)
    counts = {
        e["args"]["seat"]: e["args"]["count"] for e in events if e["type"] == "reinforcements"
    }
    assert counts == {0: 1, 1: 2}
    assert state["hideouts"][0] == []


def test_marker_passes_left_after_each_round(engine, napad):
    state = napad.craft(engine, players=3, marker=2)
    marker_by_round = {}
    while not engine.is_over(state):
        marker_by_round.setdefault(state["round"], state["marker"])
        seat = engine.to_move(state)[0]
        state, events = engine.apply(state, seat, engine.timeout_action(state, seat))
        passes = [e["args"]["seat"] for e in events if e["type"] == "marker_passed"]
        assert passes in ([], [state["marker"]])
    assert marker_by_round == {1: 2, 2: 0, 3: 1, 4: 2, 5: 0, 6: 1}


# -- end and scoring ---------------------------------------------------------------------------


def finished(engine, napad, captured, hands=None, players=None, config=None, captures=None):
    """A finished game with chosen loot (wagon ids per seat) and hand sizes."""
    players = players or len(captured)
    state = napad.craft(engine, players=players, config=config)
    state["captured"] = [list(loot) for loot in captured]
    taken = {w for loot in captured for w in loot}
    state["train"] = [w for w in state["train"] if w not in taken]
    state["treasury"] = [[w for w in stack if w not in taken] for stack in state["treasury"]]
    if captures is not None:
        state["captures"] = captures
    if hands is not None:
        for seat, size in enumerate(hands):
            everything = state["hands"][seat] + state["hideouts"][seat]
            state["hands"][seat], state["hideouts"][seat] = everything[:size], everything[size:]
    state["phase"], state["turn"], state["round"] = "over", None, 6
    return state


def test_game_ends_after_six_rounds(engine):
    state = engine.setup(engine.default_config(), 3, 11)
    rounds_seen = set()
    while not engine.is_over(state):
        rounds_seen.add(state["round"])
        seat = engine.to_move(state)[0]
        state, events = engine.apply(state, seat, engine.timeout_action(state, seat))
    assert rounds_seen == {1, 2, 3, 4, 5, 6}
    assert events[-1]["type"] == "game_over"
    assert engine.to_move(state) == []
    for seat in (0, None):
        with pytest.raises(IllegalAction, match="over"):
            engine.apply(state, seat, {"type": "pass"})


def test_result_is_refused_before_the_end(engine):
    with pytest.raises(IllegalAction, match="not over"):
        engine.result(engine.setup(engine.default_config(), 2, 1))


def test_scoring_sums_captured_wagon_values(engine, napad):
    state = finished(
        engine, napad, [[napad.GOLD[5], napad.MONEY[2]], [napad.DYNAMITE[4]], []], hands=[1, 1, 1]
    )
    result = engine.result(state)
    assert result["scores"] == [7, 4, 0]
    assert [(row["seat"], row["place"]) for row in result["ranking"]] == [(0, 1), (1, 2), (2, 3)]
    yellow = result["breakdown"][0]["colours"]["yellow"]
    assert yellow == {
        "cargo": "gold",
        "wagons": 1,
        "values": [5],
        "sum": 5,
        "highest": 5,
        "bullets": 0,
        "bullet_bonus": False,
        "points": 5,
    }


def test_tie_break_more_cards_in_hand_wins(engine, napad):
    state = finished(engine, napad, [[napad.GOLD[5]], [napad.MONEY[5]]], hands=[2, 3])
    result = engine.result(state)
    assert [(row["seat"], row["place"]) for row in result["ranking"]] == [(1, 1), (0, 2)]
    assert "cards left in hand" in result["tie_break"]


def test_tie_after_tie_break_is_a_shared_win(engine, napad):
    state = finished(engine, napad, [[napad.GOLD[5]], [napad.MONEY[5]], []], hands=[3, 3, 3])
    result = engine.result(state)
    assert [(row["seat"], row["place"]) for row in result["ranking"]] == [(0, 1), (1, 1), (2, 3)]
    assert "share the place" in result["tie_break"]


def test_game_over_event_names_the_winners(engine):
    state = engine.setup(engine.default_config(), 2, 4)
    events = []
    while not engine.is_over(state):
        seat = engine.to_move(state)[0]
        state, events = engine.apply(state, seat, engine.legal_actions(state, seat)[0])
    result = engine.result(state)
    winners = [row["seat"] for row in result["ranking"] if row["place"] == 1]
    assert events[-1]["args"]["seats"] == winners
    assert events[-1]["args"]["score"] == result["ranking"][0]["score"]


# -- variants ----------------------------------------------------------------------------------


def variant_config(engine, **flags):
    config = engine.default_config()
    config.update(flags)
    return config


def capture(colour, wagons, cards):
    return {"round": 1, "colour": colour, "total": 9, "wagons": wagons, "cards": cards}


def test_variant_a_scores_count_times_highest_per_colour(engine, napad):
    config = variant_config(engine, variant_a_bullets=True)
    loot = [[napad.GOLD[2], napad.GOLD[4]], [napad.MONEY[5]]]
    # Cards with 0 bullets on the capturing halves: nobody earns the +1.
    captures = [
        [capture("yellow", loot[0], [napad.Y6_R3])],
        [capture("green", loot[1], [napad.R2_G7])],
    ]
    state = finished(engine, napad, loot, config=config, captures=captures)
    result = engine.result(state)
    assert result["scores"] == [2 * 4, 1 * 5]


def test_variant_a_most_bullets_adds_one_to_highest(engine, napad):
    config = variant_config(engine, variant_a_bullets=True)
    loot = [[napad.GOLD[2], napad.GOLD[4]], [napad.GOLD[3]]]
    captures = [
        # yellow 2 (2 bullets) + yellow 3 (2 bullets) = 4 bullets
        [capture("yellow", loot[0], [napad.Y2_R7, napad.Y3_R6])],
        # yellow 5 (1 bullet)
        [capture("yellow", loot[1], [napad.Y5_R5])],
    ]
    state = finished(engine, napad, loot, config=config, captures=captures)
    result = engine.result(state)
    yellow = [entry["colours"]["yellow"] for entry in result["breakdown"]]
    assert [line["bullets"] for line in yellow] == [4, 1]
    assert [line["bullet_bonus"] for line in yellow] == [True, False]
    assert result["scores"] == [2 * (4 + 1), 1 * 3]


def test_variant_a_tied_bullets_each_get_the_bonus(engine, napad):
    config = variant_config(engine, variant_a_bullets=True)
    loot = [[napad.DYNAMITE[4]], [napad.DYNAMITE[2]]]
    captures = [
        [capture("red", loot[0], [napad.Y4_R4])],  # red 4: 1 bullet
        [capture("red", loot[1], [napad.R5_G5])],  # red 5: 1 bullet
    ]
    state = finished(engine, napad, loot, config=config, captures=captures)
    assert engine.result(state)["scores"] == [5, 3]


def test_variant_a_zero_bullets_never_get_the_bonus(engine, napad):
    config = variant_config(engine, variant_a_bullets=True)
    loot = [[napad.MONEY[5]], []]
    captures = [[capture("green", loot[0], [napad.R2_G7])], []]  # green 7: 0 bullets
    state = finished(engine, napad, loot, config=config, captures=captures)
    result = engine.result(state)
    assert result["breakdown"][0]["colours"]["green"]["bullet_bonus"] is False
    assert result["scores"] == [5, 0]


def test_variant_a_counts_bullets_printed_on_captured_wagons(engine, napad):
    config = variant_config(engine, variant_a_bullets=True)
    config["wagon_bullets"]["gold"] = [0, 0, 0, 0, 3, 0]
    loot = [[napad.GOLD[4]], [napad.GOLD[5]]]
    captures = [
        [capture("yellow", loot[0], [napad.Y6_R3])],  # 0 bullets on the card, 3 on the wagon
        [capture("yellow", loot[1], [napad.Y2_R7])],  # 2 bullets on the card
    ]
    state = finished(engine, napad, loot, config=config, captures=captures)
    result = engine.result(state)
    assert [e["colours"]["yellow"]["bullets"] for e in result["breakdown"]] == [3, 2]
    assert result["scores"] == [4 + 1, 5]


def test_variant_a_uses_bullets_of_cards_played_in_a_real_capture(engine, napad):
    config = variant_config(engine, variant_a_bullets=True)
    state = napad.craft(
        engine,
        players=2,
        config=config,
        hands={0: [napad.Y2_R7, napad.Y3_R6], 1: [napad.G5_Y5]},
        train=[napad.GOLD[4], napad.DYNAMITE[2], napad.MONEY[2]],
    )
    state, _ = napad.run(
        engine,
        state,
        [
            (0, napad.Y2_R7, "yellow"),
            (1, napad.G5_Y5, "green"),
            (0, napad.Y3_R6, "yellow"),
        ],
    )
    assert state["round"] == 2
    state["phase"], state["turn"] = "over", None
    yellow = engine.result(state)["breakdown"][0]["colours"]["yellow"]
    assert yellow["bullets"] == 4 and yellow["bullet_bonus"] is True
    assert yellow["points"] == 1 * (4 + 1)


def test_variant_b_most_twos_score_one_extra_each(engine, napad):
    config = variant_config(engine, variant_b_twos=True)
    loot = [[napad.GOLD[2], napad.MONEY[2]], [napad.DYNAMITE[2], napad.DYNAMITE[5]]]
    state = finished(engine, napad, loot, config=config)
    result = engine.result(state)
    assert [entry["twos_bonus"] for entry in result["breakdown"]] == [2, 0]
    assert result["scores"] == [4 + 2, 7]


def test_variant_b_tied_twos_all_score_the_bonus(engine, napad):
    config = variant_config(engine, variant_b_twos=True)
    loot = [[napad.GOLD[2]], [napad.MONEY[2], napad.MONEY[5]], [napad.GOLD[5]]]
    state = finished(engine, napad, loot, config=config)
    assert engine.result(state)["scores"] == [2 + 1, 7 + 1, 5]


def test_variant_b_needs_at_least_one_two(engine, napad):
    config = variant_config(engine, variant_b_twos=True)
    state = finished(engine, napad, [[napad.GOLD[5]], [napad.MONEY[3]]], config=config)
    assert engine.result(state)["scores"] == [5, 3]


def test_variants_off_ignore_bullets_and_twos(engine, napad):
    loot = [[napad.GOLD[2], napad.GOLD[4]], [napad.GOLD[3]]]
    captures = [[capture("yellow", loot[0], [napad.Y2_R7])], []]
    state = finished(engine, napad, loot, captures=captures)
    assert engine.result(state)["scores"] == [6, 3]


def test_variants_a_and_b_combine(engine, napad):
    config = variant_config(engine, variant_a_bullets=True, variant_b_twos=True)
    loot = [[napad.GOLD[2], napad.GOLD[4]], [napad.MONEY[3]]]
    captures = [[capture("yellow", loot[0], [napad.Y2_R7])], [capture("green", loot[1], [])]]
    state = finished(engine, napad, loot, config=config, captures=captures)
    # yellow: 2 wagons × (4 + 1 for the only bullets) = 10, plus 1 for the single two.
    assert engine.result(state)["scores"] == [11, 3]


def test_options_list_the_variants_and_public_captures(engine):
    options = engine.options(engine.default_config())
    assert [option["key"] for option in options] == [
        "variant_a_bullets",
        "variant_b_twos",
        "public_captures",
    ]
    assert all(
        option["type"] == "bool" and option["label"] and option["help"] for option in options
    )
    config = engine.apply_options(engine.default_config(), {"variant_b_twos": True})
    assert config["variant_b_twos"] is True
    assert engine.setup(config, 2, 1)["rules"]["variant_b_twos"] is True


# -- the clock -------------------------------------------------------------------------------


def test_timeout_action_passes_when_passing_is_allowed(engine, napad):
    state = napad.craft(engine, marker=0)
    state, _ = napad.play(engine, state, 0, state["hands"][0][0], "yellow")
    assert engine.timeout_action(state, 1) == {"type": "pass", "label": "Pass"}


def test_timeout_action_plays_the_lowest_card_when_the_marker_must_play(engine, napad):
    state = napad.craft(engine, marker=0, hands={0: [napad.Y6_R3, napad.G4_Y4, napad.R5_G5]})
    action = engine.timeout_action(state, 0)
    assert (action["card"], action["colour"]) == (napad.Y6_R3, "red")
    engine.apply(state, 0, action)
