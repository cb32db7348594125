"""The large values every move writes compressed by lz4 on PostgreSQL, not pglz.

A move rewrites the game's state and its kept log (JSON, several kB each) and inserts an
event; PostgreSQL compresses each value over 2 kB before it stores it out of line, and
every page reading them back decompresses them. lz4 costs the database less CPU for both than
pglz (figures: docs/decisions/0007-lz4-toast-compression.md). Only
the column's setting changes (no rewrite): a value already stored stays pglz until it is
written again. Nothing to do on SQLite, on PostgreSQL before 14 or one built without lz4.
"""

from django.db import migrations

# (model, columns): the values a move writes or a page reads on every request.
COLUMNS = {
    "game": ("state", "recent_events", "config"),
    "gameevent": ("action", "public_events", "private_events"),
}


def _lz4_available(connection) -> bool:
    if connection.vendor != "postgresql" or connection.pg_version < 140000:
        return False
    with connection.cursor() as cursor:
        cursor.execute("SELECT enumvals FROM pg_settings WHERE name = 'default_toast_compression'")
        row = cursor.fetchone()
    return bool(row) and "lz4" in row[0]


def _compression_set(apps, schema_editor, method: str) -> None:
    connection = schema_editor.connection
    if not _lz4_available(connection):
        return
    quote = schema_editor.quote_name
    for model_name, columns in COLUMNS.items():
        meta = apps.get_model("games", model_name)._meta
        changes = ", ".join(
            f"ALTER COLUMN {quote(meta.get_field(name).column)} SET COMPRESSION {method}"
            for name in columns
        )
        schema_editor.execute(f"ALTER TABLE {quote(meta.db_table)} {changes}")


def lz4_use(apps, schema_editor):
    _compression_set(apps, schema_editor, "lz4")


def lz4_undo(apps, schema_editor):
    _compression_set(apps, schema_editor, "default")


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0017_game_recent_events_as_text"),
    ]

    operations = [
        migrations.RunPython(lz4_use, lz4_undo, elidable=False),
    ]
