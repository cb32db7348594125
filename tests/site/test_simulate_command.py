"""``manage.py simulate``: bot games through the engine contract, a JSON summary out."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError


def run_simulate(*args):
    out = StringIO()
    call_command("simulate", *args, stdout=out)
    return json.loads(out.getvalue())


def test_it_prints_a_json_summary_of_napad_bot_games():
    summary = run_simulate(
        "--game", "napad", "--games", "8", "--players", "4", "--seed", "1",
        "--bots", "heuristic,random,random,random",
    )  # fmt: skip
    assert summary["game"] == "napad" and summary["games"] == 8
    assert summary["bots"] == ["heuristic", "random", "random", "random"]
    assert summary["per_bot"]["heuristic"]["games"] == 8
    assert summary["per_bot"]["random"]["games"] == 24
    assert len(summary["per_seat"]) == 4
    assert summary["games_per_second"] > 0


def test_it_takes_levels_for_bots_and_plays_the_hard_one(monkeypatch):
    from dataclasses import replace

    from games.engines import get_engine

    hard = get_engine("colt").bots["search"]
    # A tiny budget: this checks the wiring, the strength figures are in docs/performance.md.
    monkeypatch.setattr(hard, "budget", replace(hard.budget, playouts=6))
    summary = run_simulate(
        "--game", "colt", "--games", "2", "--players", "2", "--bots", "hard,medium",
    )  # fmt: skip
    assert summary["bots"] == ["search", "heuristic"]
    assert summary["per_bot"]["search"]["games"] == 2


def test_it_switches_variants_on_by_short_name():
    summary = run_simulate("--game", "napad", "--games", "2", "--variant", "a,b")
    assert summary["options"] == {
        "variant_a_bullets": True,
        "variant_b_twos": True,
        "public_captures": False,
    }


def test_it_accepts_a_text_seed_and_is_repeatable():
    first = run_simulate("--games", "3", "--players", "2", "--seed", "club-night")
    again = run_simulate("--games", "3", "--players", "2", "--seed", "club-night")
    assert first["seed"] == "club-night"
    assert first["per_seat"] == again["per_seat"]


def test_it_plays_colt_express_with_the_time_machine():
    summary = run_simulate("--game", "colt", "--games", "2", "--players", "3", "--time-machine")
    assert summary["game"] == "colt" and summary["games"] == 2
    assert summary["options"]["time_machine"] is True


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--game", "chess"], "Unknown game 'chess'"),
        (["--bots", "random,genius"], "Unknown bot(s) genius"),
        (["--variant", "z"], "Unknown variant 'z'"),
        (["--players", "6"], "2 to 4 players"),
        (["--games", "0"], "at least 1"),
        (["--time-machine"], "time_machine: is not a setting"),
    ],
)
def test_it_refuses_unknown_games_bots_and_variants_clearly(args, message):
    with pytest.raises(CommandError) as error:
        call_command("simulate", *args, stdout=StringIO())
    assert message in str(error.value)
