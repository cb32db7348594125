"""Each game keeps its log's last lines on its own row (now games/selectors/log_copy.py); the games
that have moves get their copy here, so their next page needs no query for it. (A game without
one reads its events as before, and its next move writes the copy: this only saves that first
query.) A move's event now takes the move's own time rather than the moment its row was
inserted."""

import django.utils.timezone
from django.db import migrations, models

# The log copy's length (games.selectors.log_copy.RECENT_EVENTS) when this migration was written
# (a migration keeps its own copy).
KEPT_EVENTS = 20


def recent_events_copy(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    GameEvent = apps.get_model("games", "GameEvent")
    for game in Game.objects.filter(version__gt=0).only("pk", "version").iterator():
        events = list(
            GameEvent.objects.filter(game_id=game.pk, seq__lte=game.version)
            .defer("action")
            .order_by("-seq")[:KEPT_EVENTS]
        )
        events.reverse()
        kept = [
            {
                "seq": event.seq,
                "seat": event.seat,
                "public": event.public_events,
                "private": event.private_events,
                "by_clock": event.by_clock,
                "at": event.created_at.isoformat(),
            }
            for event in events
        ]
        Game.objects.filter(pk=game.pk).update(recent_events=kept)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0015_simulation_lease"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="recent_events",
            field=models.JSONField(blank=True, default=list, editable=False),
        ),
        migrations.AlterField(
            model_name="gameevent",
            name="created_at",
            field=models.DateTimeField(default=django.utils.timezone.now, editable=False),
        ),
        migrations.RunPython(recent_events_copy, migrations.RunPython.noop, elidable=True),
    ]
