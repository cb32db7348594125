"""Reads built on a service's computation, as plain data for pages, template tags and the API:
``leagues`` gives the league pages and ``/api/`` their standings, ratings, balance figures and
charts (worked out by ``games.services.leagues``); ``clock_panel`` gives the panel under a
running table its leave, notices, "+24 h" and standing orders (from the clocks', notices' and
standing orders' services). They import services, so they cannot sit with ``games.selectors``,
which the services import; nothing below the views imports them but the template tags.
"""
