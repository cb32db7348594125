"""The organisers' groups ("Rules editors", "Moderators") with their permissions."""

from django.db import migrations


def organiser_groups_install(apps, schema_editor):
    from games.services.organisers import organiser_groups_install as install

    install(apps)


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("games", "0003_rules_admin"),
    ]

    operations = [
        migrations.RunPython(organiser_groups_install, migrations.RunPython.noop),
    ]
