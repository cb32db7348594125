"""``manage.py bench``: measurements of the whole site, one module per measurement.

* ``engines`` — complete random games per CPU second (the rules alone);
* ``move_path`` — moves through the full HTTP stack against the floor view (``baseline``);
* ``pages`` — the game page and its board fragment against the floor, late against early;
* ``comeback`` — game pages of a member coming back ("since your last visit"), of one who has
  seen everything, and the HTMX fragment, against the same floor;
* ``queries`` — SQL queries per game page and per move, early and late in a game;
* ``broadcast`` — what a committed move's broadcast costs, beside one Redis publish;
* ``fanout`` — one move reaching many open game pages over WebSockets, in this process;
* ``sweep`` — the turn-clock sweep (``sweep_turns --benchmark``) over many running games;
* ``wsgi`` (``--wsgi``) — the move path through real gunicorn workers, one and two;
* ``daphne`` — one move reaching 200 sockets on a real daphne, 1,000 over two.
* ``bots`` — CPU seconds per decision of the hard (search) bot, in whole games.

``environment`` builds the throwaway database and settings every measurement runs in,
``club`` the members and tables they play with, ``servers`` the gunicorn and daphne processes
(``settings`` is theirs). Targets (``TARGETS``) are printed next to the figures; nothing here
asserts them.

A Django app of its own beside ``games``, for developers: the command is
``management/commands/bench.py``, it imports the site to measure it, and the site never imports
it (``pyproject.toml``'s contracts).
"""

TARGETS = {
    "engines": "napad >= 1,000 games/s per core; colt >= 200 games/s per core",
    "move_path": "HTMX move answer / floor POST >= 0.40",
    "pages": "page / floor GET >= 0.40; board fragment / floor GET >= 0.60; "
    "page near the end / at move 10 <= 1.05",
    "comeback": "reported against the floor (no target of its own: the pages' are above)",
    "queries": "constant: the same count at move 1 and late in the game",
    "broadcast": "<= 2 ms per broadcast on Redis",
    "fanout": "200 sockets: p95 delivery <= 300 ms",
    "sweep": "beat sweep (find + queue) < 1 s on PostgreSQL (100,000 running games, 1,000 due)",
    "wsgi": "gunicorn: move / floor >= 0.40; 2 workers / 1 (moves) >= 1.6",
    "daphne": "200 sockets on one daphne: p95 <= 300 ms; 1,000 over two: p95 <= 1 s and "
    "<= 50 kB RSS per socket",
    "bots": "hard bot decision: median <= 0.3 CPU-s, max <= 1 CPU-s",
}
