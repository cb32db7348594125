"""Template filters and tags, one library per area (``{% load board_labels %}`` and the like):
the boards' labels, dates and durations, seats, bots, push and the layout's chrome. The table's
Jinja2 templates get the same filters (``games/table/templating.py``). They sit above the
selectors and services they ask, and below ``games.table``, whose status line and boards use
the board labels.
"""
