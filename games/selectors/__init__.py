"""Reads under the services: what a page, a socket, a move or the API reads of the tables, and
the log as a viewer may read it. ``tables`` reads the lobby's tables, one game with its seats,
who may see what, the chat and the log's events; ``log_copy`` keeps the log's last lines on
the game's row (written by each move, read with the game); ``gamelog`` says the log in the
viewer's language; ``naming`` names a seat (its member, a bot, a bot standing in); ``leagues``
reads the league pages' standings, ratings, balance figures and charts. Services import these
(a move reads and locks its game here, the digest says the log and the seats), so nothing here
imports a service: the arithmetic a read shares with the services sits under both, in
``games.models`` (``ratings``, ``balance``).
"""
