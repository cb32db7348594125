"""``manage.py bench``: measurements of the whole site, one module per measurement.

* ``engines`` — complete random games per CPU second (the rules alone);
* ``move_path`` — moves through the full HTTP stack against a one-row baseline view;
* ``queries`` — SQL queries per game page and per move, early and late in a game;
* ``fanout`` — one move reaching many open game pages over WebSockets;
* ``sweep`` — the turn-clock sweep (``sweep_turns --benchmark``) over many running games;
* ``bots`` — CPU seconds per decision of the hard (search) bot, in whole games.

``environment`` builds the throwaway database and settings every measurement runs in, and
``club`` the members and tables they play with. Targets (``TARGETS``) are printed next to the
figures; nothing here asserts them.
"""

TARGETS = {
    "engines": "napad >= 1,000 games/s per core; colt >= 200 games/s per core",
    "move_path": "moves/s >= 1/3 of the baseline's requests/s",
    "queries": "constant: the same count at move 1 and late in the game",
    "fanout": "200 sockets: p95 delivery < 1 s",
    "sweep": "beat sweep (find + queue) < 1 s on PostgreSQL (100,000 running games, 1,000 due)",
    "bots": "hard bot decision: median <= 0.3 CPU-s, max <= 1 CPU-s",
}
