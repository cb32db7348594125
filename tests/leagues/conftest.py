"""Fixtures for the league tests: a Napad ruleset and league, members by the dozen."""

from __future__ import annotations

import pytest

from games.models import League, Ruleset
from tests.gamekit import default_ruleset
from tests.leaguekit import napad_league
from tests.personakit import member


@pytest.fixture
def napad_ruleset(db) -> Ruleset:
    return default_ruleset()


@pytest.fixture
def make_members(db):
    """``make_members(n)``: n new members (Players), named m01, m02, …"""
    counter = {"n": 0}

    def make(count: int):
        players = []
        for _ in range(count):
            counter["n"] += 1
            name = f"m{counter['n']:02d}"
            players.append(member(name, name.upper()).player)
        return players

    return make


@pytest.fixture
def league(napad_ruleset) -> League:
    return napad_league(ruleset=napad_ruleset, min_table_size=3, max_table_size=4)
