"""URLs of the games app, grouped by area."""

from django.urls import path

from .views import pages

urlpatterns = [
    path("", pages.home, name="home"),
]
