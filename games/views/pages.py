"""General pages: the home page, with the member's own games on it."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.selectors.tables import home_games


def home(request: HttpRequest) -> HttpResponse:
    context = {"my_games": home_games(request.user)} if request.user.is_authenticated else {}
    return render(request, "home.html", context)
