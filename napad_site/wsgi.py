"""WSGI entry point: serves HTTP pages when scaling out (e.g. gunicorn napad_site.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "napad_site.settings")

application = get_wsgi_application()
