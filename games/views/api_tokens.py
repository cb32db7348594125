"""The member's API tokens page: create a token (shown once), see and revoke their tokens."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from games.services.api_tokens import (
    ApiTokenError,
    api_token_create,
    api_token_revoke,
    api_tokens_of,
)


class ApiTokenForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("Name"),
        max_length=60,
        help_text=gettext_lazy("What the token is for, e.g. “my bot” or “standings script”."),
    )


@never_cache
@login_required
def api_tokens(request: HttpRequest) -> HttpResponse:
    """List the member's tokens; a POST creates one and shows it on this response only."""
    form = ApiTokenForm(request.POST or None)
    new_token = None
    if request.method == "POST" and form.is_valid():
        try:
            _token, new_token = api_token_create(user=request.user, name=form.cleaned_data["name"])
        except ApiTokenError as error:
            form.add_error("name", error.message)
        else:
            form = ApiTokenForm()
    return render(
        request,
        "accounts/api_tokens.html",
        {"form": form, "tokens": api_tokens_of(request.user), "new_token": new_token},
    )


@login_required
@require_POST
def api_token_revoke_view(request: HttpRequest, token_id: int) -> HttpResponse:
    if api_token_revoke(user=request.user, token_id=token_id):
        messages.success(request, _("The token is revoked; it no longer works."))
    else:
        messages.error(request, _("You have no such token."))
    return redirect("api_tokens")
