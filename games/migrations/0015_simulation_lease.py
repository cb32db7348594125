"""Simulation runs carry a lease and an attempt number, so a run whose worker died is found by
the sweep and run again; runs left unfinished before this migration are owed at once."""

from django.conf import settings
from django.db import migrations, models
from django.utils import timezone


def unfinished_runs_owed(apps, schema_editor):
    SimulationRun = apps.get_model("games", "SimulationRun")
    SimulationRun.objects.filter(status__in=["queued", "running"]).update(
        lease_until=timezone.now()
    )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0014_table_visits"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="simulationrun",
            name="attempt",
            field=models.PositiveIntegerField(default=0, verbose_name="attempt"),
        ),
        migrations.AddField(
            model_name="simulationrun",
            name="lease_until",
            field=models.DateTimeField(blank=True, null=True, verbose_name="lease until"),
        ),
        migrations.AddIndex(
            model_name="simulationrun",
            index=models.Index(fields=["status", "lease_until"], name="simulation_owed_idx"),
        ),
        migrations.RunPython(unfinished_runs_owed, migrations.RunPython.noop),
    ]
