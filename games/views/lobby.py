"""The lobby: open tables to join, my games (my turn first), finished ones; create a table."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from games.forms.tables import TableCreateForm
from games.limits import limited_response, table_creation_refusal
from games.selectors.tables import lobby_finished_games, lobby_my_games, lobby_open_tables
from games.services.play import PlayError, game_create


@login_required
def lobby(request: HttpRequest) -> HttpResponse:
    my_games = lobby_my_games(request.user)
    mine = {game.pk for game in my_games}
    context = {
        "my_games": my_games,
        "open_tables": [g for g in lobby_open_tables(request.user) if g.pk not in mine],
        "finished_games": lobby_finished_games(request.user),
    }
    return render(request, "games/lobby.html", context)


@login_required
def game_create_view(request: HttpRequest) -> HttpResponse:
    form = TableCreateForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        refusal = table_creation_refusal(request)
        if refusal is not None:
            return limited_response(request, refusal, back_url=reverse("lobby"))
        try:
            game = game_create(
                creator=request.user,
                ruleset=data["ruleset"],
                seats=data["seats"],
                options=data["options"],
                turn_time_limit=data["turn_time_limit"],
                bot_seats=data["bot_seats"],
                invite_only=data["invite_only"],
                invitees=data["invitees"],
            )
        except PlayError as error:
            form.add_service_problems(error.problems)
        else:
            return redirect("game_detail", game_id=game.pk)
    return render(request, "games/game_create.html", {"form": form})
