"""The WebSocket side of the site: ``consumers`` holds the sockets' consumers (a table's live
updates, the member's notifications, the refusal of any other path), routed by
``napad_site/routing.py``. Each socket renders its own viewer's fragment through
``games.table``. The message that wakes them, sent after a commit, is ``games.broadcast``: the
services send it, and services never import this package (``pyproject.toml``'s contracts), so
the broadcast stays outside it, at the root of ``games``.
"""
