"""The bot simulator: summaries per seat, bot and identity, for any engine of the contract."""

from __future__ import annotations

import json
import random

import pytest

import games.engines as engines
from games.engines.base import ConfigError, Engine, IllegalAction
from games.engines.simulator import simulate

TIMINGS = ("seconds", "games_per_second", "cpu_seconds", "games_per_cpu_second")


def without_timings(summary):
    return {key: value for key, value in summary.items() if key not in TIMINGS}


def test_summary_counts_every_seat_bot_and_gang():
    summary = simulate("napad", 12, 3, 5, bots=["heuristic", "random"])
    assert json.loads(json.dumps(summary)) == summary
    assert summary["games"] == 12 and summary["players"] == 3
    assert summary["bots"] == ["heuristic", "random", "heuristic"]
    assert [seat["games"] for seat in summary["per_seat"]] == [12, 12, 12]
    assert summary["per_bot"]["heuristic"]["games"] == 24
    assert summary["per_bot"]["random"]["games"] == 12
    assert sum(gang["games"] for gang in summary["per_identity"].values()) == 36
    assert set(summary["per_identity"]) <= {"cowboys", "mexicans", "deserters", "indians"}
    # Every game has at least one winner (shared wins count for each winner).
    assert sum(seat["wins"] for seat in summary["per_seat"]) >= 12
    assert summary["games_per_second"] > 0 and summary["seconds"] > 0
    assert summary["mean_actions_per_game"] > 10
    assert summary["options"] == {
        "variant_a_bullets": False,
        "variant_b_twos": False,
        "public_captures": False,
    }


def test_summary_is_deterministic_for_a_seed():
    first = simulate("napad", 6, 4, "abc", bots=["heuristic", "random"])
    again = simulate("napad", 6, 4, "abc", bots=["heuristic", "random"])
    other = simulate("napad", 6, 4, "abd", bots=["heuristic", "random"])
    assert without_timings(first) == without_timings(again)
    assert without_timings(first) != without_timings(other)


def test_rotation_puts_every_bot_in_every_seat():
    rotated = simulate("napad", 4, 4, 1, bots=["heuristic", "random", "random", "random"])
    fixed = simulate(
        "napad", 4, 4, 1, bots=["heuristic", "random", "random", "random"], rotate=False
    )
    assert rotated["per_bot"]["heuristic"]["games"] == 4
    # Without rotation seat 0 is always the heuristic bot, which wins most games.
    assert fixed["rotate"] is False
    assert fixed["per_seat"][0]["mean_score"] == fixed["per_bot"]["heuristic"]["mean_score"]


def test_config_variants_are_played_and_reported():
    engine = engines.get_engine("napad")
    config = {**engine.default_config(), "variant_a_bullets": True}
    summary = simulate("napad", 3, 2, 1, config=config)
    assert summary["options"]["variant_a_bullets"] is True


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"bots": ["genius"]}, "unknown bot"),
        ({"players": 5}, "2..4 players"),
        ({"games": 0}, "positive"),
    ],
)
def test_bad_requests_are_refused_clearly(kwargs, message):
    arguments = {"games": 2, "players": 2, **kwargs}
    with pytest.raises(ValueError, match=message):
        simulate("napad", arguments["games"], arguments["players"], 1, bots=kwargs.get("bots"))


def test_invalid_config_is_refused():
    with pytest.raises(ConfigError):
        simulate("napad", 1, 2, 1, config={"rounds": 9})


class CountToTen(Engine):
    """A tiny game on the same contract: take 1 or 2 in turn; whoever reaches 10 wins."""

    kind = "count"
    name = "Count to ten"
    min_players = 2
    max_players = 3

    def default_config(self):
        return {"target": 10}

    def validate_config(self, config):
        if config.get("target") != 10:
            raise ConfigError([("target", "must be 10")])
        return dict(config)

    def identities(self, config):
        return ["odd", "even", "other"]

    def setup(self, config, players, seed, *, first_player=None, identities=None):
        return {"total": 0, "players": players, "turn": 0, "winner": None}

    def to_move(self, state):
        return [] if state["winner"] is not None else [state["turn"]]

    def legal_actions(self, state, seat):
        if self.to_move(state) != [seat]:
            return []
        return [{"take": n, "label": f"Take {n}"} for n in (1, 2) if state["total"] + n <= 10]

    def apply(self, state, seat, action):
        if action not in self.legal_actions(state, seat):
            raise IllegalAction("not now")
        total = state["total"] + action["take"]
        winner = seat if total == 10 else None
        turn = (seat + 1) % state["players"]
        return {**state, "total": total, "turn": turn, "winner": winner}, []

    def view(self, state, seat):
        return dict(state)

    def is_over(self, state):
        return state["winner"] is not None

    def result(self, state):
        players = state["players"]
        scores = [1 if seat == state["winner"] else 0 for seat in range(players)]
        ranking = [
            {"seat": seat, "place": 1 if scores[seat] else 2, "score": scores[seat]}
            for seat in sorted(range(players), key=lambda s: -scores[s])
        ]
        return {"ranking": ranking, "scores": scores, "breakdown": [{}] * players, "tie_break": ""}

    def seat_identity(self, state, seat):
        return self.identities({})[seat]

    def timeout_action(self, state, seat):
        return self.legal_actions(state, seat)[0]

    def to_json(self, state):
        return dict(state)

    def from_json(self, data):
        return dict(data)


def greedy(engine, state, seat, rng: random.Random):
    return engine.legal_actions(state, seat)[-1]


def test_simulator_uses_only_the_engine_contract(monkeypatch):
    engine = CountToTen()
    engine.bots = {"greedy": greedy, "first": lambda e, s, seat, rng: e.legal_actions(s, seat)[0]}
    monkeypatch.setitem(engines._loaded, "count", engine)
    summary = simulate("count", 10, 2, 1, bots=["greedy", "first"])
    assert summary["per_bot"]["greedy"]["games"] == 10
    assert summary["per_bot"]["greedy"]["wins"] + summary["per_bot"]["first"]["wins"] == 10
    assert set(summary["per_identity"]) == {"odd", "even"}
    assert summary["options"] == {}
