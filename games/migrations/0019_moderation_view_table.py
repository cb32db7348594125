"""A new kind in the moderation audit trail: a moderator opened an invitation-only table."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0018_toast_lz4"),
    ]

    operations = [
        migrations.AlterField(
            model_name="moderationaction",
            name="action",
            field=models.CharField(
                choices=[
                    ("abort", "abort the game"),
                    ("extend_deadline", "extend the deadline"),
                    ("seat_to_bot", "hand a seat to a bot"),
                    ("seat_to_substitute", "hand a seat to a substitute"),
                    ("view_table", "open an invitation-only table"),
                ],
                max_length=24,
                verbose_name="action",
            ),
        ),
    ]
