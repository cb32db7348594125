"""Admin for the turn clocks: read-only views of clocks, the reminder ledger, "+24 h" grants
and table notices; members' leave can be corrected by staff.

Standing orders are left out on purpose: an order names the kind of a card that may still lie
face down on the pile, and staff members play too.
"""

from __future__ import annotations

from django.contrib import admin
from django.http import Http404

from games.admin.secrets import SecretFieldsAdminMixin
from games.models import DeadlineExtension, Leave, ReminderSent, TableNotice, TurnClock
from games.text.parsing import strict_int
from games.web.converters import DB_ID_MAX, DB_ID_MIN


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

    # A clock's key is its game's (a one-to-one): Django's guard against a number out of a
    # column's range covers integer fields, not relations, so the admin's object pages would
    # send the database a number no id can be (a 500). Such a number is no clock: 404.
    def change_view(self, request, object_id, form_url="", extra_context=None):
        _clock_key(object_id)
        return super().change_view(request, object_id, form_url, extra_context)

    def delete_view(self, request, object_id, extra_context=None):
        _clock_key(object_id)
        return super().delete_view(request, object_id, extra_context)

    def history_view(self, request, object_id, extra_context=None):
        _clock_key(object_id)
        return super().history_view(request, object_id, extra_context)


def _clock_key(object_id: str) -> None:
    if strict_int(object_id, minimum=DB_ID_MIN, maximum=DB_ID_MAX) is None:
        raise Http404("No such turn clock.")


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
