"""What a committed change still owes, as indexed facts on the game (games/services/followups.py):
``auto_move_due_at`` (a bot's move or a standing order's answer) and ``results_due_at`` (a
finished game's results). Running games whose bot is to move, Colt Express games waiting on a
member (a standing order may answer), and finished games the results ledger is missing are
marked due now, so the first sweep catches up whatever was lost before this release."""

from django.db import migrations, models
from django.utils import timezone


def mark_owed(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Seat = apps.get_model("games", "Seat")
    ResultRecord = apps.get_model("games", "ResultRecord")
    now = timezone.now()
    bots = {}
    for game_id, position in Seat.objects.exclude(bot_kind="").values_list("game_id", "position"):
        bots.setdefault(game_id, set()).add(position)
    owed = []
    for game_id, kind, to_move in Game.objects.filter(status="running").values_list(
        "pk", "kind", "to_move"
    ):
        if bots.get(game_id, set()).intersection(to_move or []) or (kind == "colt" and to_move):
            owed.append(game_id)
    Game.objects.filter(pk__in=owed).update(auto_move_due_at=now)
    recorded = ResultRecord.objects.filter(game__isnull=False).values_list("game_id", flat=True)
    Game.objects.filter(status="finished", finished_at__isnull=False).exclude(
        pk__in=recorded
    ).update(results_due_at=now)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0009_game_setup_args"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="auto_move_due_at",
            field=models.DateTimeField(blank=True, db_index=True, null=True),
        ),
        migrations.AddField(
            model_name="game",
            name="results_due_at",
            field=models.DateTimeField(blank=True, db_index=True, null=True),
        ),
        migrations.RunPython(mark_owed, migrations.RunPython.noop),
    ]
