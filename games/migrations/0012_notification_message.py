# Notifications keep their message (English text and arguments) so they read in the member's
# language of the moment; rows written before keep their rendered text.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0011_push'),
    ]

    operations = [
        migrations.AddField(
            model_name='notification',
            name='message',
            field=models.JSONField(blank=True, default=dict),
        ),
    ]
