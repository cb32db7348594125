"""The organisers' Django admin, one module per area, each registering its own models when
Django's autodiscovery imports this package: ``tables`` (games, seats, the log, the chat, read
only), ``moderation`` (the moderators' buttons on a game: abort, extend, hand a seat over),
``rulesets`` (rulesets, rules texts, balance simulations), ``clocks`` (turn clocks, reminders,
leave, notices), ``leagues`` (leagues, seasons, fixtures, standings, ratings). ``secrets`` is
what every one of them mixes in: no filter, search, ordering or column on a secret field.
Changes go through services; nothing outside the admin imports it.
"""

from games.admin import (  # noqa: F401 (each module registers its models)
    clocks,
    leagues,
    rulesets,
    tables,
)
