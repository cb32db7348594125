"""The Celery app: configured from Django settings (``CELERY_*``), tasks found in ``games``."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "napad_site.settings")

app = Celery("napad_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
