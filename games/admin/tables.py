"""The Django admin: tables, seats, the game log and the chat.

Rulesets and their simulations live in ``games.admin.rulesets``, moderation in
``games.admin.moderation`` (its buttons are mixed into the game's admin here). A game is changed
only through services (the moderation buttons), so its admin is read-only; ``Game.state``
(hands, decks) is never shown, and the seed only once the game is over.
"""

from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from games.admin.moderation import GameModerationMixin
from games.admin.secrets import SecretFieldsAdminMixin
from games.models import ChatMessage, Game, GameEvent, Invitation, Seat


class ReadOnlyAdminMixin:
    """Nobody adds or edits these rows by hand: services write them."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class SeatInline(ReadOnlyAdminMixin, SecretFieldsAdminMixin, admin.TabularInline):
    model = Seat
    extra = 0
    can_delete = False
    fields = [
        "position",
        "player",
        "bot_kind",
        "identity",
        "score",
        "place",
        "timeouts",
        "consecutive_timeouts",
        "replaced_by_bot",
    ]
    readonly_fields = fields


class InvitationInline(ReadOnlyAdminMixin, SecretFieldsAdminMixin, admin.TabularInline):
    model = Invitation
    extra = 0
    can_delete = False
    fields = ["player", "created_at"]
    readonly_fields = fields


@admin.register(Game)
class GameAdmin(GameModerationMixin, ReadOnlyAdminMixin, SecretFieldsAdminMixin, admin.ModelAdmin):
    list_display = [
        "pk",
        "kind",
        "ruleset",
        "status",
        "seats_count",
        "version",
        "deadline",
        "created_at",
        "finished_at",
    ]
    list_filter = ["status", "kind", "invite_only"]
    date_hierarchy = "created_at"
    list_select_related = ["ruleset"]
    search_fields = ["=pk", "seats__player__display_name"]
    fields = [
        "ruleset",
        "kind",
        "status",
        "abort_reason",
        "options",
        "config",
        "seats_count",
        "invite_only",
        "created_by",
        "turn_time_limit",
        "seed_hash",
        "revealed_seed",
        "version",
        "to_move",
        "deadline",
        "created_at",
        "started_at",
        "finished_at",
    ]
    readonly_fields = fields
    inlines = [SeatInline, InvitationInline]
    actions = ["extend_deadline_24h"]

    @admin.display(description=_("seed"))
    def revealed_seed(self, game: Game) -> str:
        # The seed is secret until the end, even from organisers who might also play.
        if game.status == Game.Status.FINISHED:
            return game.seed
        return _("secret until the game ends")


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdminMixin, SecretFieldsAdminMixin, admin.ModelAdmin):
    """Who sat where and how it ended; changed only by services (moderation hands a seat on)."""

    list_display = ["game", "position", "player", "bot_kind", "identity", "place", "score"]
    list_filter = ["bot_kind", "replaced_by_bot"]
    list_select_related = ["game", "player"]
    search_fields = ["=game__pk", "player__display_name"]
    fields = [*SeatInline.fields, "game", "breakdown"]
    readonly_fields = fields

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(GameEvent)
class GameEventAdmin(ReadOnlyAdminMixin, SecretFieldsAdminMixin, admin.ModelAdmin):
    """The append-only log: nobody adds, edits or deletes a row."""

    list_display = ["game", "seq", "seat", "by_clock", "created_at"]
    list_filter = ["by_clock"]
    list_select_related = ["game"]
    search_fields = ["=game__pk"]
    # The submitted action can hold a secret (a face-down card): only public events are shown.
    fields = ["game", "seq", "seat", "public_events", "by_clock", "created_at"]
    readonly_fields = fields

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(ChatMessage)
class ChatMessageAdmin(ReadOnlyAdminMixin, SecretFieldsAdminMixin, admin.ModelAdmin):
    """Table chat, for moderators: read, and delete what should not stay."""

    list_display = ["game", "player", "text", "created_at"]
    list_select_related = ["game", "player"]
    search_fields = ["text", "player__display_name", "=game__pk"]
    fields = ["game", "player", "text", "created_at"]
    readonly_fields = fields
