"""The To jest napad! search bot (hard): it decides from its seat's view only, its sampled
worlds agree with that view, its playout policy is the medium bot, and a decision can be
reproduced from the bot's seed."""

from __future__ import annotations

import copy
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from test_napad_properties import hide_differently, new_game, tables

from games.engines.napad.bots import heuristic_bot
from games.engines.napad.search import SEARCH_BOT, fast_choice, sample_world
from games.engines.search import Budget, observe

# Small and playout-bound (the CPU cap never ends these searches), so every run is the same.
TEST_BUDGET = Budget(playouts=24, cpu_seconds=60.0)
SEARCH = settings(max_examples=25, deadline=None, derandomize=True)


def _position(engine, table, steps):
    _config, state = new_game(engine, table)
    rng = random.Random(table["choices"])
    for _ in range(steps):
        if engine.is_over(state):
            break
        (seat,) = engine.to_move(state)
        state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    return state


def _decide(engine, state, seat, seed):
    return SEARCH_BOT.decide(engine, observe(engine, state, seat), random.Random(seed), TEST_BUDGET)


def test_engine_offers_three_levels(engine):
    assert engine.bot_levels == {"easy": "random", "medium": "heuristic", "hard": "search"}
    assert set(engine.bot_levels.values()) <= set(engine.bots)


@SEARCH
@given(table=tables, steps=st.integers(min_value=0, max_value=120), seed=st.integers(0, 2**32))
def test_a_decision_ignores_everything_the_seat_cannot_see(engine, table, steps, seed):
    """Honesty: other hands, every hideout's order, the treasury, others' private captures
    and the seed changed — the same bot seed picks the same action."""
    state = _position(engine, table, steps)
    if engine.is_over(state):
        return
    (seat,) = engine.to_move(state)
    chosen = _decide(engine, state, seat, seed)
    assert chosen in engine.legal_actions(state, seat)
    for variant in range(3):
        changed = hide_differently(state, seat, random.Random(seed + variant))
        assert _decide(engine, changed, seat, seed) == chosen


def test_the_honesty_test_can_tell_a_peeking_bot(engine, monkeypatch):
    """A bot that read the true hands would be caught: with worlds made from the state
    instead of the view, the decision changes with what the seat cannot see."""
    from games.engines.napad import search

    truth = {}

    def true_world(_observation, _rng):
        return copy.deepcopy(truth["state"])

    caught = 0
    for number in range(40):
        table = {
            "seed": number,
            "players": 3,
            "choices": number,
            "variant_a_bullets": False,
            "variant_b_twos": False,
            "public_captures": False,
        }
        state = _position(engine, table, 4 + number % 9)
        if engine.is_over(state):
            continue
        (seat,) = engine.to_move(state)
        changed = hide_differently(state, seat, random.Random(number))
        with monkeypatch.context() as patch:
            patch.setattr(search, "sample_world", true_world)
            truth["state"] = state
            first = _decide(engine, state, seat, 1)
            truth["state"] = changed
            second = _decide(engine, changed, seat, 1)
        caught += first != second
    assert caught > 0


@settings(max_examples=40, deadline=None, derandomize=True)
@given(table=tables, steps=st.integers(min_value=0, max_value=140), seed=st.integers(0, 2**32))
def test_a_sampled_world_looks_exactly_like_the_seats_view(engine, table, steps, seed):
    state = _position(engine, table, steps)
    if engine.is_over(state):
        return
    (seat,) = engine.to_move(state)
    observation = observe(engine, state, seat)
    world = sample_world(observation, random.Random(seed))
    assert engine.view(world, seat) == observation["view"]
    assert engine.legal_actions(world, seat) == observation["legal_actions"]
    # A complete, consistent table: every gang holds its 15 cards, all 18 wagons are there.
    for other in range(world["players"]):
        cards = world["hands"][other] + world["hideouts"][other] + world["out"][other]
        cards += [card for card, _colour in world["played"][other]]
        assert sorted(cards) == list(range(15))
    wagons = world["train"] + [w for stack in world["treasury"] for w in stack]
    wagons += [w for loot in world["captured"] for w in loot]
    assert sorted(wagons) == list(range(18))


@settings(max_examples=30, deadline=None, derandomize=True)
@given(table=tables, steps=st.integers(min_value=0, max_value=140), seed=st.integers(0, 2**32))
def test_playouts_play_the_medium_bots_moves(engine, table, steps, seed):
    state = _position(engine, table, steps)
    if engine.is_over(state):
        return
    (seat,) = engine.to_move(state)
    medium = heuristic_bot(engine, state, seat, random.Random(seed))
    fast = fast_choice(state, seat, random.Random(seed))
    assert fast == {key: value for key, value in medium.items() if key != "label"}


def test_a_decision_is_reproduced_from_the_bots_seed_and_changes_nothing(engine):
    state = _position(
        engine,
        {
            "seed": 5,
            "players": 4,
            "choices": 5,
            "variant_a_bullets": True,
            "variant_b_twos": True,
            "public_captures": False,
        },
        10,
    )
    (seat,) = engine.to_move(state)
    before = copy.deepcopy(state)
    observation = observe(engine, state, seat)
    kept = copy.deepcopy(observation)
    first = SEARCH_BOT.decide(engine, observation, random.Random(3), TEST_BUDGET)
    assert observation == kept, "the search changed the observation it was given"
    assert state == before
    assert SEARCH_BOT.decide(engine, observation, random.Random(3), TEST_BUDGET) == first


def test_a_single_legal_action_is_played_without_searching(engine, monkeypatch):
    def no_world(*_args):
        raise AssertionError("searched a decision with one option")

    monkeypatch.setattr(SEARCH_BOT.adapter, "sample_world", no_world)
    lone = {"seat": 0, "view": {}, "legal_actions": [{"type": "pass", "label": "Pass"}]}
    assert SEARCH_BOT.decide(engine, lone, random.Random(1)) == {"type": "pass", "label": "Pass"}


def test_a_playout_keeps_the_table_totals_it_is_given_right(engine, monkeypatch):
    """Playouts add each played card to the totals instead of adding the table up again:
    at every step of whole playouts the running totals equal a fresh count."""
    from games.engines.napad import search

    original = search.choose
    checked = []

    def checking(world, seat, rng, prizes, totals):
        assert (prizes, totals) == search.board_of(world)
        checked.append(seat)
        return original(world, seat, rng, prizes, totals)

    monkeypatch.setattr(search, "choose", checking)
    for number in range(6):
        state = _position(
            engine,
            {
                "seed": number,
                "players": 2 + number % 3,
                "choices": number,
                "variant_a_bullets": False,
                "variant_b_twos": False,
                "public_captures": False,
            },
            number * 7,
        )
        (seat,) = engine.to_move(state)
        observation = observe(engine, state, seat)
        action = {k: v for k, v in observation["legal_actions"][0].items() if k != "label"}
        world = sample_world(observation, random.Random(number))
        reward = SEARCH_BOT.adapter.playout(engine, world, seat, action, random.Random(number))
        assert 0.0 <= reward <= 1.0
    assert len(checked) > 100


@settings(max_examples=30, deadline=None, derandomize=True)
@given(table=tables)
def test_playout_scores_rank_like_the_engines_result(engine, table):
    from games.engines.napad.search import effective_scores

    state = _position(engine, table, 10_000)
    assert engine.is_over(state)
    scores = effective_scores(state)
    result = engine.result(state)
    assert [round(score) for score in scores] == result["scores"]
    best = max(scores)
    winners = {seat for seat, score in enumerate(scores) if score == best}
    assert winners == {row["seat"] for row in result["ranking"] if row["place"] == 1}
