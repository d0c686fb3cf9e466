"""The admin of the audit log (read only)."""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from accounts.models import AuditEntry


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    """Read-only: the log is written by the application, never by hand."""

    list_display = ["at", "username", "action", "object_type", "object_id", "tournament_id"]
    list_filter = ["action", "object_type"]
    search_fields = ["username", "action", "object_repr", "=tournament_id"]
    readonly_fields = [f.name for f in AuditEntry._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
