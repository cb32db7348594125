"""Why a push did not reach a device: a failed delivery is recorded with its reason."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0019_moderation_view_table'),
    ]

    operations = [
        migrations.AddField(
            model_name='pushdelivery',
            name='failure',
            field=models.CharField(blank=True, choices=[('endpoint', "not sent: the endpoint is not a known push service's"), ('unreachable', 'the push service could not be reached'), ('refused', 'the push service refused the push'), ('signing', 'the push could not be signed (VAPID)'), ('keys', "the push could not be encrypted for the device's keys"), ('error', 'an unexpected error')], max_length=12),
        ),
    ]
