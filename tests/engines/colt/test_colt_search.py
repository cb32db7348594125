"""The Colt Express search bot (hard): it decides from its seat's view only, its sampled
worlds agree with that view, its playouts run the engine's own rules in place, and a decision
can be reproduced from the bot's seed."""

from __future__ import annotations

import copy
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_colt_properties import _advance, secret_variants

from games.engines.colt.bots import heuristic_bot
from games.engines.colt.engine import ENGINE
from games.engines.colt.search import SEARCH_BOT, fast_choice, sample_world, step
from games.engines.search import Budget, observe

TEST_BUDGET = Budget(playouts=16, cpu_seconds=60.0)
POSITIONS = settings(
    max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
positions = {
    "players": st.integers(2, 6),
    "seed": st.integers(0, 2**32),
    "steps": st.integers(0, 160),
    "tm": st.booleans(),
}


def _decide(state, seat, seed):
    return SEARCH_BOT.decide(ENGINE, observe(ENGINE, state, seat), random.Random(seed), TEST_BUDGET)


def test_engine_offers_three_levels():
    assert ENGINE.bot_levels == {"easy": "random", "medium": "heuristic", "hard": "search"}
    assert set(ENGINE.bot_levels.values()) <= set(ENGINE.bots)


@settings(
    max_examples=20, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(**positions)
def test_a_decision_ignores_everything_the_seat_cannot_see(players, seed, steps, tm):
    """Honesty: other hands and decks, face-down cards, purse values on the floors and in
    other loot, a hidden traveller's car, the round cards to come and the seed changed — the
    same bot seed picks the same action."""
    state = _advance(players, seed, steps, tm)
    if ENGINE.is_over(state):
        return
    seat = ENGINE.to_move(state)[0]
    chosen = _decide(state, seat, seed)
    assert chosen in ENGINE.legal_actions(state, seat)
    for secret, changed in secret_variants(state, seat):
        assert _decide(changed, seat, seed) == chosen, secret


@POSITIONS
@given(**positions, world_seed=st.integers(0, 2**32))
def test_a_sampled_world_looks_exactly_like_the_seats_view(players, seed, steps, tm, world_seed):
    state = _advance(players, seed, steps, tm)
    if ENGINE.is_over(state):
        return
    seat = ENGINE.to_move(state)[0]
    observation = observe(ENGINE, state, seat)
    world = sample_world(observation, random.Random(world_seed))
    assert ENGINE.view(world, seat) == observation["view"]
    assert ENGINE.legal_actions(world, seat) == observation["legal_actions"]
    # Every bandit owns his ten action cards and the bullets he received, nowhere twice.
    for other in range(players):
        cards = world["deck"][other] + world["hand"][other]
        cards += [card for owner, card, _down, _turn in world["pile"] if owner == other]
        assert len(cards) == 10 + world["received"][other]
        assert sum(1 for card in cards if card[0] != "b") == 10


@POSITIONS
@given(**positions, bot_seed=st.integers(0, 2**32))
def test_playouts_step_like_apply_and_play_the_medium_bots_moves(
    players, seed, steps, tm, bot_seed
):
    state = _advance(players, seed, steps, tm)
    if ENGINE.is_over(state):
        return
    seat = ENGINE.to_move(state)[0]
    medium = heuristic_bot(ENGINE, state, seat, random.Random(bot_seed))
    option = fast_choice(state, seat, random.Random(bot_seed))
    assert option == {key: value for key, value in medium.items() if key != "label"}
    applied, _events = ENGINE.apply(state, seat, medium)
    world = copy.deepcopy(state)
    step(world, seat, option)
    assert world == applied


def test_a_decision_is_reproduced_from_the_bots_seed_and_changes_nothing():
    state = _advance(4, 11, 7, True)
    seat = ENGINE.to_move(state)[0]
    before = copy.deepcopy(state)
    observation = observe(ENGINE, state, seat)
    kept = copy.deepcopy(observation)
    first = SEARCH_BOT.decide(ENGINE, observation, random.Random(3), TEST_BUDGET)
    assert observation == kept, "the search changed the observation it was given"
    assert state == before
    assert SEARCH_BOT.decide(ENGINE, observation, random.Random(3), TEST_BUDGET) == first


@POSITIONS
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32), tm=st.booleans())
def test_playout_scores_rank_like_the_engines_result(players, seed, tm):
    from games.engines.colt.search import effective_scores

    state = _advance(players, seed, 10_000, tm)
    assert ENGINE.is_over(state)
    scores = effective_scores(state)
    best = max(scores)
    winners = {seat for seat, score in enumerate(scores) if score == best}
    result = ENGINE.result(state)
    assert winners == {row["seat"] for row in result["ranking"] if row["place"] == 1}
