"""Admin for the turn clocks: read-only views of clocks, the reminder ledger, "+24 h" grants
and table notices; members' leave can be corrected by staff.

Standing orders are left out on purpose: an order names the kind of a card that may still lie
face down on the pile, and staff members play too.
"""

from __future__ import annotations

from django.contrib import admin

from .admin_secrets import SecretFieldsAdminMixin
from .models import DeadlineExtension, Leave, ReminderSent, TableNotice, TurnClock


class ReadOnlyAdmin(SecretFieldsAdminMixin, admin.ModelAdmin):
    """Ledgers are written by the clocks alone: staff may look, never edit."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(TurnClock)
class TurnClockAdmin(ReadOnlyAdmin):
    list_display = ["game", "version", "started_at", "next_step", "next_reminder_at"]
    list_select_related = ["game"]


@admin.register(ReminderSent)
class ReminderSentAdmin(ReadOnlyAdmin):
    list_display = ["game", "version", "seat", "step", "player", "outcome"]
    list_filter = ["outcome"]
    list_select_related = ["game", "player"]


@admin.register(DeadlineExtension)
class DeadlineExtensionAdmin(ReadOnlyAdmin):
    list_display = ["game", "seat", "version", "hours", "granted_by", "created_at"]
    list_select_related = ["game", "granted_by"]


@admin.register(TableNotice)
class TableNoticeAdmin(ReadOnlyAdmin):
    list_display = ["game", "kind", "created_at"]
    list_filter = ["kind"]
    list_select_related = ["game"]


@admin.register(Leave)
class LeaveAdmin(SecretFieldsAdminMixin, admin.ModelAdmin):
    list_display = ["player", "start", "end", "reason"]
    list_select_related = ["player"]
    search_fields = ["player__display_name", "player__user__username"]
    date_hierarchy = "start"
