"""``manage.py simulate``: play many bot games of one engine and print the balance as JSON.

For organisers checking house rules before publishing them, and for the engine benchmark
(games per second). It knows no game by name: everything goes through the engine contract
and ``games.engines.simulator``.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.engines import KINDS, ConfigError, get_engine
from games.engines.base import bot_name
from games.engines.simulator import simulate
from games.text.parsing import strict_int


def _seed(text: str) -> int | str:
    number = strict_int(text, minimum=None, maximum=None)
    return text if number is None else number


def _variant_keys(engine: Any, config: dict[str, Any], names: list[str]) -> list[str]:
    """Option keys for ``--variant`` names: a key itself or its short letter (``a`` for
    ``variant_a_bullets``)."""
    switches = [option["key"] for option in engine.options(config) if option["type"] == "bool"]
    keys = []
    for name in names:
        matches = [
            key
            for key in switches
            if key == name or key == f"variant_{name}" or key.startswith(f"variant_{name}_")
        ]
        if len(matches) != 1:
            known = ", ".join(switches) or "none"
            raise CommandError(f"Unknown variant {name!r} for {engine.kind}; options: {known}.")
        keys.extend(matches)
    return keys


class Command(BaseCommand):
    help = "Play bot games with a game engine and print a JSON summary of wins and scores."

    def add_arguments(self, parser):
        parser.add_argument("--game", default="napad", help=f"one of: {', '.join(KINDS)}")
        parser.add_argument("--games", type=int, default=100, help="how many games to play")
        parser.add_argument("--players", type=int, default=4, help="seats at each table")
        parser.add_argument("--seed", default="1", help="base seed; game n uses '<seed>-<n>'")
        parser.add_argument(
            "--bots",
            default="random",
            help="comma-separated bot or level (easy, medium, hard) per seat (repeated to fill); "
            "seats rotate every game",
        )
        parser.add_argument(
            "--variant", default="", help="comma-separated options to switch on, e.g. a,b"
        )
        parser.add_argument(
            "--time-machine",
            action="store_true",
            help="Colt Express: play with the Time Machine expansion",
        )

    def handle(self, *args, **options):
        kind = options["game"]
        if kind not in KINDS:
            raise CommandError(f"Unknown game {kind!r}; choose one of {', '.join(KINDS)}.")
        engine = get_engine(kind)
        if options["games"] < 1:
            raise CommandError("--games must be at least 1.")
        if not engine.min_players <= options["players"] <= engine.max_players:
            raise CommandError(
                f"{engine.name} takes {engine.min_players} to {engine.max_players} players."
            )
        bots = [name.strip() for name in options["bots"].split(",") if name.strip()]
        unknown = [name for name in bots if bot_name(engine, name) is None]
        if unknown:
            raise CommandError(
                f"Unknown bot(s) {', '.join(unknown)}; {kind} has {', '.join(sorted(engine.bots))}."
            )
        config = engine.default_config()
        names = [name.strip() for name in options["variant"].split(",") if name.strip()]
        chosen = {key: True for key in _variant_keys(engine, config, names)}
        if options["time_machine"]:
            config["time_machine"] = True
        try:
            config = engine.validate_config({**config, **chosen})
        except ConfigError as error:
            raise CommandError(f"Invalid settings for {kind}: {error}") from error
        summary = simulate(
            kind,
            options["games"],
            options["players"],
            _seed(options["seed"]),
            bots=bots,
            config=config,
        )
        self.stdout.write(json.dumps(summary, indent=2))
