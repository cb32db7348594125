from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0012_notification_message"),
    ]

    operations = [
        migrations.AddField(
            model_name="league",
            name="stand_in_level",
            field=models.CharField(
                choices=[("easy", "easy"), ("medium", "medium"), ("hard", "hard")],
                default="medium",
                help_text=(
                    "Plays for a member after their timeouts, or when a moderator hands their "
                    "seat to a bot."
                ),
                max_length=8,
                verbose_name="level of the bot that takes a seat",
            ),
        ),
        migrations.AddField(
            model_name="game",
            name="practice",
            field=models.BooleanField(default=False),
        ),
    ]
