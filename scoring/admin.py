"""Admin of the scoring app: read-only views of matches, deals and history.

Nothing is edited here directly: a row saved by the admin would skip the rules engine and the
audit trail. The one write, the "confirm" action, goes through ``scoring.services.confirm``.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from scoring import services
from scoring.errors import ScoringError
from scoring.models import Deal, Match, MatchVersion


class ReadOnlyMixin:
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class DealInline(ReadOnlyMixin, admin.TabularInline):
    model = Deal
    fields = ["n", "record", "verdict", "client_id", "created_by", "created_at"]
    readonly_fields = fields
    extra = 0
    ordering = ["n"]


class MatchVersionInline(ReadOnlyMixin, admin.TabularInline):
    model = MatchVersion
    fields = ["version", "action", "user", "at", "reason", "confirmed", "before", "after"]
    readonly_fields = fields
    extra = 0
    ordering = ["version"]


@admin.register(Match)
class MatchAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["__str__", "status", "version", "referee", "finished", "winner", "created_at"]
    list_filter = ["status", "finished", "rules_preset"]
    search_fields = ["label", "table"]
    readonly_fields = [f.name for f in Match._meta.fields if f.name != "confirm_pin"]
    exclude = ["confirm_pin"]
    inlines = [DealInline, MatchVersionInline]
    actions = ["confirm_matches"]

    @admin.action(description=_("Confirm the selected submitted protocols"))
    def confirm_matches(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        for match in queryset:
            try:
                services.confirm(match.pk, request.user)
            except ScoringError as exc:
                text = "; ".join(item["message"] for item in exc.errors)
                self.message_user(request, f"{match}: {text}", messages.ERROR)
            else:
                self.message_user(request, f"{match}: {_('confirmed')}", messages.SUCCESS)
