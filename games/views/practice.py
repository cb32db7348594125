"""Practice ("Play against bots"): one POST deals a practice table (``games.services.practice``)
and opens it; a member who already has one running for that game is taken back to it."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from games.limits import PRACTICE, limit_reached, limited_response, member_key
from games.services.play import PlayError
from games.services.practice import practice_game_start


@login_required
@require_POST
def practice_start(request: HttpRequest) -> HttpResponse:
    refusal = limit_reached(request, PRACTICE, member_key(request))
    if refusal is not None:
        return limited_response(request, refusal, back_url=reverse("lobby"))
    try:
        game = practice_game_start(user=request.user, table=request.POST.get("table", ""))
    except PlayError as error:
        messages.error(request, error.message)
        return redirect("lobby")
    return redirect("game_detail", game_id=game.pk)
