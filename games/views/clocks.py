"""Clock pages: the member's leave, the notifications list, "+24 h" for a slow tablemate,
and Colt Express standing orders. Thin: services do the work."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from games.models import Leave, Notification, Player
from games.services.clocks import ClockError, deadline_extend
from games.services.clocks.leave import LeaveError, leave_cancel, leave_declare
from games.services.clocks.leave_time import player_today
from games.services.notifications import notifications_mark_read
from games.services.standing_orders import StandingOrderError
from games.services.turns.orders import standing_order_set
from games.text.parsing import strict_int, strict_ints

from .play import game_live_response

NOTIFICATIONS_PER_PAGE = 30


class LeaveForm(forms.Form):
    start = forms.DateField(
        label=gettext_lazy("First day"), widget=forms.DateInput({"type": "date"})
    )
    end = forms.DateField(label=gettext_lazy("Last day"), widget=forms.DateInput({"type": "date"}))
    reason = forms.CharField(
        label=gettext_lazy("Reason (shown to your tablemates, optional)"),
        max_length=200,
        required=False,
    )


def _player(request: HttpRequest) -> Player:
    player = getattr(request.user, "player", None)
    if player is None:
        raise Http404(_("Your account has no player profile yet."))
    return player


@login_required
def leave_page(request: HttpRequest) -> HttpResponse:
    player = _player(request)
    form = LeaveForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            leave_declare(
                player=player,
                start=form.cleaned_data["start"],
                end=form.cleaned_data["end"],
                reason=form.cleaned_data["reason"],
            )
        except LeaveError as error:
            form.add_error(error.field, error.message)
        else:
            messages.success(request, _("Your leave is noted; your tables have been told."))
            return redirect("leave")
    today = player_today(player)
    context = {
        "form": form,
        "leaves": Leave.objects.filter(player=player, end__gte=today),
        "past": Leave.objects.filter(player=player, end__lt=today).order_by("-start")[:10],
        "today": today,
    }
    return render(request, "clocks/leave.html", context)


@login_required
@require_POST
def leave_cancel_view(request: HttpRequest, leave_id: int) -> HttpResponse:
    try:
        leave_cancel(player=_player(request), leave_id=leave_id)
    except LeaveError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Your leave is cancelled; your clocks run again."))
    return redirect("leave")


@login_required
def notification_list(request: HttpRequest) -> HttpResponse:
    player = _player(request)
    page = Paginator(Notification.objects.filter(player=player), NOTIFICATIONS_PER_PAGE).get_page(
        request.GET.get("page")
    )
    return render(request, "notifications/list.html", {"page": page})


@login_required
@require_POST
def notifications_read(request: HttpRequest) -> HttpResponse:
    player = _player(request)
    given = request.POST.getlist("id")
    ids = strict_ints(given, minimum=1)
    # No id at all means "mark all read"; ids that are not numbers mean nothing at all.
    notifications_mark_read(player=player, ids=ids if given else None)
    target = request.POST.get("next", "")
    if ids and target.startswith("/") and not target.startswith("//"):
        return redirect(target)
    return redirect("notification_list")


@login_required
@require_POST
def deadline_extend_view(request: HttpRequest, game_id: int) -> HttpResponse:
    seat = strict_int(request.POST.get("seat"), minimum=0)
    if seat is None:
        return game_live_response(
            request, game_id, message=_("Say whom to give more time."), ok=False
        )
    try:
        deadline_extend(game_id=game_id, user=request.user, position=seat)
    except ClockError as error:
        return game_live_response(request, game_id, message=error.message, ok=False)
    return game_live_response(request, game_id, message=_("You gave them 24 more hours."), ok=True)


@login_required
@require_POST
def standing_order_set_view(request: HttpRequest, game_id: int) -> HttpResponse:
    index = strict_int(request.POST.get("pile_index"), minimum=0)
    if index is None:
        return game_live_response(
            request, game_id, message=_("There is no such card on the pile."), ok=False
        )
    try:
        order = standing_order_set(
            game_id=game_id,
            user=request.user,
            pile_index=index,
            choice=request.POST.get("choice", ""),
        )
    except StandingOrderError as error:
        return game_live_response(request, game_id, message=error.message, ok=False)
    if order is None:
        return game_live_response(
            request, game_id, message=_("You will be asked when that card resolves."), ok=True
        )
    return game_live_response(request, game_id, message=_("Standing order saved."), ok=True)
