"""The ``default`` database's settings from a URL: the same for the site and for
``manage.py bench --database-url``, so the bench measures the server as the site uses it.

On PostgreSQL the site binds parameters on the server and lets psycopg prepare a statement
the fifth time a connection runs it. The game page's queries join several tables and ask
several EXISTS, so planning them costs more than running them; a prepared statement is
planned once per connection (connections live 60 s, ``conn_max_age``). Figures:
docs/decisions/0006-persistent-connections-and-prepared-statements.md. Django
turns preparing off by default for transaction-mode connection poolers (PgBouncer), which
would hand a prepared statement's name to another server connection: behind one, set
``NAPAD_DB_PREPARED=0``.
"""

from __future__ import annotations

from typing import Any

import dj_database_url

# psycopg's own default: a statement run this many times on a connection is prepared.
PREPARE_THRESHOLD = 5


def database_from_url(url: str, *, prepared: bool = True) -> dict[str, Any]:
    """Django's settings for the database at ``url`` (``postgres://…`` or ``sqlite://…``)."""
    config = dj_database_url.parse(url, conn_max_age=60)
    config["CONN_HEALTH_CHECKS"] = True
    if prepared and config["ENGINE"] == "django.db.backends.postgresql":
        config.setdefault("OPTIONS", {}).update(
            server_side_binding=True, prepare_threshold=PREPARE_THRESHOLD
        )
    return config
