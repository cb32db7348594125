"""WSGI entry point: serves HTTP pages when scaling out (e.g. gunicorn napad_site.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "napad_site.settings")

application = get_wsgi_application()

from .startup import heap_settled, static_files_ready  # noqa: E402

# A release whose static files were not collected stops here, saying what to run.
static_files_ready()
heap_settled()
