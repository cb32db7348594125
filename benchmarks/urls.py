"""The site's URLs plus the bench-only baseline view; the bench's ROOT_URLCONF, never the
site's."""

from django.urls import path

from napad_site.urls import urlpatterns as site_urlpatterns

from .baseline import bench_baseline

urlpatterns = [path("bench/baseline", bench_baseline, name="bench_baseline"), *site_urlpatterns]
