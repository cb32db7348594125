"""The ``benchmarks`` app: ``manage.py bench`` and its measurements, a tool for developers.

It has no models and no URLs in the site; the site's code (``games``, ``napad_site``) never
imports it (``pyproject.toml``'s contracts), while it imports the site to measure it.
"""

from django.apps import AppConfig


class BenchmarksConfig(AppConfig):
    name = "benchmarks"
    verbose_name = "Benchmarks"
