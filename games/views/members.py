"""The club's members: a searchable list and one page per member."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from games.models import Player
from games.services.accounts import player_get_or_create

MEMBERS_PER_PAGE = 50


@login_required
def member_list(request: HttpRequest) -> HttpResponse:
    # PostgreSQL cannot compare text holding NUL (DataError, a 500); no name has one.
    query = request.GET.get("q", "").replace("\x00", "").strip()[:100]
    players = Player.objects.filter(user__is_active=True).select_related("user")
    if query:
        players = players.filter(
            Q(display_name__icontains=query) | Q(user__username__icontains=query)
        )
    page = Paginator(players.order_by("display_name", "pk"), MEMBERS_PER_PAGE).get_page(
        request.GET.get("page")
    )
    return render(request, "members/list.html", {"page": page, "query": query})


@login_required
def member_detail(request: HttpRequest, username: str) -> HttpResponse:
    if "\x00" in username:  # no username has one, and PostgreSQL cannot compare it (a 500)
        raise Http404
    user = get_object_or_404(
        get_user_model().objects.select_related("player"), username=username, is_active=True
    )
    player = getattr(user, "player", None)
    if player is None:
        player = player_get_or_create(user=user)
    return render(
        request,
        "members/detail.html",
        {"member": player, "is_me": user.pk == request.user.pk},
    )
