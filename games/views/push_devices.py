"""A member's push devices (the profile's "Notifications on your phone"): turn push on in
this browser (the page's script sends the browser's subscription as JSON), remove a device."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.services.accounts import player_get_or_create
from games.services.push.devices import (
    PushDeviceError,
    push_device_remove,
    push_device_subscribe,
)

MAX_BODY = 4096


def _json_body(request: HttpRequest):
    if len(request.body) > MAX_BODY:
        raise PushDeviceError(_("The browser sent a subscription the site cannot use."))
    try:
        return json.loads(request.body or b"null")
    except (ValueError, UnicodeDecodeError):
        raise PushDeviceError(_("The browser sent a subscription the site cannot use.")) from None


@login_required
@require_POST
def push_device_subscribe_view(request: HttpRequest) -> JsonResponse:
    player = player_get_or_create(user=request.user)
    try:
        device = push_device_subscribe(
            player=player,
            data=_json_body(request),
            user_agent=request.headers.get("User-Agent", ""),
        )
    except PushDeviceError as error:
        # 409: the endpoint is another member's (nothing changed); 400: unusable.
        return JsonResponse({"error": error.message}, status=error.status)
    messages.success(
        request, _("Push notifications are on for %(device)s.") % {"device": device.device}
    )
    return JsonResponse({"id": device.pk, "device": device.device}, status=201)


@login_required
@require_POST
def push_device_forget_view(request: HttpRequest) -> JsonResponse:
    """This browser turned push off: forget its subscription (by its endpoint)."""
    player = player_get_or_create(user=request.user)
    try:
        data = _json_body(request)
    except PushDeviceError as error:
        return JsonResponse({"error": error.message}, status=400)
    endpoint = data.get("endpoint") if isinstance(data, dict) else None
    if not isinstance(endpoint, str) or not endpoint:
        return JsonResponse({"error": _("Which browser? The request did not say.")}, status=400)
    removed = push_device_remove(player=player, endpoint=endpoint[:1000])
    if removed:
        messages.success(request, _("Push notifications are off in this browser."))
    return JsonResponse({"removed": removed})


@login_required
@require_POST
def push_device_remove_view(request: HttpRequest, device_id: int) -> HttpResponse:
    player = player_get_or_create(user=request.user)
    if push_device_remove(player=player, device_id=device_id):
        messages.success(request, _("The device is removed: it gets no more pushes."))
    else:
        messages.error(request, _("You have no such device."))
    return redirect(reverse("profile") + "#push-devices")
