"""Admin for moderators: the moderation actions on a game's admin page (abort, extend the
deadline, hand a seat to a bot or to a substitute member) and their read-only audit trail.

Each action is a small form page reached from a button on the game's page; it calls
``games.services.moderation`` (which writes the ``ModerationAction``) and logs to Django's
admin log as well. Only members with ``games.moderate_game`` (the Moderators group) see the
buttons or may post the forms.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.admin.secrets import SecretFieldsAdminMixin
from games.engines import get_engine
from games.forms.fields import WholeNumberField
from games.models import Game, ModerationAction, Player
from games.roles import is_moderator
from games.services.clocks.timeouts import stand_in_bot_kind
from games.services.moderation import (
    ModerationError,
    deadline_extend,
    game_abort,
    seat_to_bot,
    seat_to_substitute,
    table_view_record,
)
from games.text.bots import bot_choices, seat_bot_label

# -- forms ------------------------------------------------------------------------------------


class AbortForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("reason (the players will read it)"),
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        max_length=1000,
    )


class ViewTableForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("why you open this table (kept in the audit trail)"),
        widget=forms.Textarea(attrs={"rows": 2, "cols": 60}),
        max_length=1000,
    )


class ExtendDeadlineForm(forms.Form):
    hours = WholeNumberField(
        label=gettext_lazy("extend by (hours)"), min_value=1, max_value=30 * 24, initial=24
    )
    reason = forms.CharField(
        label=gettext_lazy("reason"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2, "cols": 60}),
        max_length=1000,
    )


def _seat_choices(game: Game) -> list[tuple[int, str]]:
    choices = []
    for seat in game.seats.select_related("player").order_by("position"):
        who = seat.player.display_name if seat.player else ""
        if seat.bot_kind:
            bot = seat_bot_label(seat.bot_kind)
            who = f"{who} ({bot})" if who else bot
        choices.append((seat.position, f"{seat.position + 1}: {who or '—'}"))
    return choices


class SeatToBotForm(forms.Form):
    seat = forms.TypedChoiceField(label=gettext_lazy("seat"), coerce=int)
    bot_kind = forms.ChoiceField(label=gettext_lazy("bot"))
    reason = forms.CharField(
        label=gettext_lazy("reason"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2, "cols": 60}),
        max_length=1000,
    )

    def __init__(self, *args, game: Game, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["seat"].choices = _seat_choices(game)
        engine = get_engine(game.kind)
        self.fields["bot_kind"].choices = bot_choices(engine)
        # The level the table's clock would hand the seat to (a league's stand-in level).
        self.fields["bot_kind"].initial = stand_in_bot_kind(game)


class SeatToSubstituteForm(forms.Form):
    seat = forms.TypedChoiceField(label=gettext_lazy("seat"), coerce=int)
    substitute = forms.ModelChoiceField(
        label=gettext_lazy("substitute member"), queryset=Player.objects.none()
    )
    reason = forms.CharField(
        label=gettext_lazy("reason"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2, "cols": 60}),
        max_length=1000,
    )

    def __init__(self, *args, game: Game, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["seat"].choices = _seat_choices(game)
        seated = game.seats.exclude(player=None).values("player_id")
        self.fields["substitute"].queryset = Player.objects.exclude(pk__in=seated)


# -- the game admin's moderation part ---------------------------------------------------------


class ModerationActionInline(SecretFieldsAdminMixin, admin.TabularInline):
    """The game's audit trail on its page, read-only."""

    model = ModerationAction
    extra = 0
    can_delete = False
    fields = ["created_at", "actor", "action", "seat_position", "reason", "details"]
    readonly_fields = fields
    verbose_name_plural = gettext_lazy("moderation history")

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class GameModerationMixin:
    """Adds the moderation buttons, their views and the audit inline to a ``ModelAdmin`` of
    ``Game``. Mixed into the game admin in ``games.admin``."""

    change_form_template = "admin/games/game/change_form.html"
    moderation_inlines = [ModerationActionInline]

    # url slug -> (button title, form). Only abort applies to a table that has not started.
    MODERATIONS = {
        "abort": (gettext_lazy("Abort the game"), AbortForm),
        "extend": (gettext_lazy("Extend the deadline"), ExtendDeadlineForm),
        "seat-bot": (gettext_lazy("Hand a seat to a bot"), SeatToBotForm),
        "seat-substitute": (gettext_lazy("Hand a seat to a substitute"), SeatToSubstituteForm),
        "view": (gettext_lazy("Open the table (kept in the audit trail)"), ViewTableForm),
    }

    def has_moderate_permission(self, request: HttpRequest) -> bool:
        return is_moderator(request.user)

    def get_inlines(self, request, obj):
        return [*super().get_inlines(request, obj), *self.moderation_inlines]

    def get_urls(self):
        wrap = self.admin_site.admin_view
        return [
            path(
                "<int:pk>/moderate/<slug:action>/",
                wrap(self.moderate_view),
                name="games_game_moderate",
            ),
            *super().get_urls(),
        ]

    def render_change_form(self, request, context, add=False, change=False, form_url="", obj=None):
        if obj is not None and self.has_moderate_permission(request):
            context["moderations"] = [
                (slug, title)
                for slug, (title, _form) in self.MODERATIONS.items()
                if (slug == "view" and obj.invite_only)
                or (
                    slug != "view"
                    and (obj.status == Game.Status.RUNNING or (slug == "abort" and not obj.is_over))
                )
            ]
        return super().render_change_form(request, context, add, change, form_url, obj)

    def _form_for(self, action: str, game: Game, data=None) -> forms.Form:
        form_class = self.MODERATIONS[action][1]
        if form_class in (SeatToBotForm, SeatToSubstituteForm):
            return form_class(data, game=game)
        return form_class(data)

    def _apply(self, request: HttpRequest, action: str, game: Game, data: dict[str, Any]):
        if action == "view":
            return table_view_record(game_id=game.pk, actor=request.user, reason=data["reason"])
        if action == "abort":
            return game_abort(game_id=game.pk, actor=request.user, reason=data["reason"])
        if action == "extend":
            return deadline_extend(
                game_id=game.pk,
                actor=request.user,
                by=timedelta(hours=data["hours"]),
                reason=data["reason"],
            )
        if action == "seat-bot":
            return seat_to_bot(
                game_id=game.pk,
                position=data["seat"],
                actor=request.user,
                bot_kind=data["bot_kind"],
                reason=data["reason"],
            )
        return seat_to_substitute(
            game_id=game.pk,
            position=data["seat"],
            actor=request.user,
            substitute=data["substitute"],
            reason=data["reason"],
        )

    def moderate_view(self, request: HttpRequest, pk: int, action: str) -> HttpResponse:
        if action not in self.MODERATIONS:
            raise PermissionDenied
        if not self.has_moderate_permission(request):
            raise PermissionDenied
        game = get_object_or_404(Game, pk=pk)
        form = self._form_for(action, game, request.POST if request.method == "POST" else None)
        if request.method == "POST" and form.is_valid():
            try:
                record = self._apply(request, action, game, form.cleaned_data)
            except ModerationError as error:
                form.add_error(None, error.message)
            else:
                summary = f"{record.get_action_display()}: {record.reason}".rstrip(": ")
                self.log_change(request, game, summary)
                messages.success(request, _("Done: %(what)s.") % {"what": summary})
                if action == "view":
                    return HttpResponseRedirect(reverse("game_detail", args=[game.pk]))
                return HttpResponseRedirect(reverse("admin:games_game_change", args=[game.pk]))
        title = self.MODERATIONS[action][0]
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": f"{title} · {game}",
            "original": game,
            "form": form,
            "action_title": title,
        }
        return TemplateResponse(request, "admin/games/game/moderate.html", context)

    @admin.action(
        description=gettext_lazy("Extend the deadlines of the selected games by 24 hours"),
        permissions=["moderate"],
    )
    def extend_deadline_24h(self, request, queryset):
        for game in queryset:
            try:
                record = deadline_extend(
                    game_id=game.pk, actor=request.user, by=timedelta(hours=24)
                )
            except ModerationError as error:
                messages.error(request, f"#{game.pk}: {error.message}")
            else:
                self.log_change(request, game, str(record.get_action_display()))
                messages.success(
                    request, _("Game #%(game)s: deadline extended.") % {"game": game.pk}
                )


@admin.register(ModerationAction)
class ModerationActionAdmin(SecretFieldsAdminMixin, admin.ModelAdmin):
    """The audit trail: who did what to which game, when and why. Nobody edits it."""

    list_display = ["created_at", "game", "action", "seat_position", "actor", "reason"]
    list_filter = ["action"]
    list_select_related = ["game", "actor"]
    search_fields = ["reason", "actor__username", "game__id"]
    date_hierarchy = "created_at"
    readonly_fields = [
        "created_at",
        "game",
        "action",
        "seat_position",
        "actor",
        "reason",
        "details",
    ]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
