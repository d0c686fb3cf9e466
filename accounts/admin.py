"""The admin of the audit log (read only); the admin's login form says when a sign-in was
refused for too many failures (``accounts.lockout``)."""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from accounts.lockout import AdminLoginForm
from accounts.models import AuditEntry

admin.site.login_form = AdminLoginForm


class ReadOnlyAdmin(admin.ModelAdmin):
    """Rows the application writes and nobody edits by hand: shown, never added, changed or
    deleted here."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    """Read-only: the log is written by the application, never by hand."""

    list_display = ["at", "username", "action", "object_type", "object_id", "tournament_id"]
    list_filter = ["action", "object_type"]
    search_fields = ["username", "action", "object_repr", "=tournament_id"]
    readonly_fields = [f.name for f in AuditEntry._meta.fields]
