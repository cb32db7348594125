"""The HTTP wiring that every page goes through, named in the settings or at start:
``backends`` (log-in: a member's user read with their profile), ``converters`` (the
``<id:…>`` path converter: a whole number a column can hold, or no match),
``middleware`` (the Content-Security-Policy, no caching of rendered answers, the member's time
zone, a clear 503 when the database is away) and ``context_processors`` (what every template
gets: the member's profile and unread notifications). The pages themselves are in
``games.views``; nothing below the edges imports this package.
"""
