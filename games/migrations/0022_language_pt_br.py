"""Portuguese is stored as ``pt-br``: the club's Portuguese is Brazilian, and under ``pt``
Django's own catalogues (the admin, auth, forms) answered in European Portuguese.

Members whose profile language was ``pt`` now have ``pt-br``, and so do the rules texts in
Portuguese. A ruleset that somehow already has a ``pt-br`` text keeps it, and its ``pt`` text
stays as it is (the rules page still finds it under ``pt``). Going back turns ``pt-br`` into
``pt`` again.
"""

from django.db import migrations, models

CHOICES_AFTER = [("en", "English"), ("pl", "Polish"), ("pt-br", "Brazilian Portuguese")]


def _rename(apps, old: str, new: str) -> None:
    Player = apps.get_model("games", "Player")
    RulesText = apps.get_model("games", "RulesText")
    Player.objects.filter(language=old).update(language=new)
    taken = RulesText.objects.filter(language=new).values("ruleset_id")
    RulesText.objects.filter(language=old).exclude(ruleset_id__in=taken).update(language=new)


def forwards(apps, schema_editor):
    _rename(apps, "pt", "pt-br")


def backwards(apps, schema_editor):
    _rename(apps, "pt-br", "pt")


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0021_player_display_name_key"),
    ]

    operations = [
        migrations.AlterField(
            model_name="player",
            name="language",
            field=models.CharField(
                choices=CHOICES_AFTER, default="en", max_length=8, verbose_name="language"
            ),
        ),
        migrations.AlterField(
            model_name="rulestext",
            name="language",
            field=models.CharField(choices=CHOICES_AFTER, max_length=8, verbose_name="language"),
        ),
        migrations.RunPython(forwards, backwards),
    ]
