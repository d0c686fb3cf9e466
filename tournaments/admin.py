"""The admin of clubs, players, tournaments and entries; rounds, sanctions and standings are
read only there (they change through their services). Players and clubs are shared by every
tournament: their changes and deletions are logged, as the admin user, in the audit log of each
tournament that uses them (``registration.shared``)."""

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from accounts import audit
from accounts.admin import ReadOnlyAdmin
from tournaments.models import (
    ArchiveImport,
    Club,
    Entry,
    EntryAbsence,
    Pairing,
    Player,
    PlayerRating,
    RatingsJob,
    Round,
    Sanction,
    Season,
    Standing,
    Tournament,
)
from tournaments.registration import shared


class SharedRowAdmin(admin.ModelAdmin):
    """Saves and deletes made here are logged as the signed-in admin's."""

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        with shared.acting(request.user):
            super().save_model(request, obj, form, change)

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        with shared.acting(request.user):
            super().delete_model(request, obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        with shared.acting(request.user):
            super().delete_queryset(request, queryset)


@admin.register(Club)
class ClubAdmin(SharedRowAdmin):
    list_display = ["name", "city"]
    search_fields = ["name", "city"]


@admin.register(Player)
class PlayerAdmin(SharedRowAdmin):
    list_display = ["last_name", "first_name", "club", "rating", "federation_id"]
    list_filter = ["club"]
    search_fields = ["last_name", "first_name", "federation_id"]


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    autocomplete_fields = ["players", "club"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "start_date", "format", "system", "rounds", "status", "public",
                    "rated"]  # fmt: skip
    list_filter = ["status", "format", "system", "public", "rated"]
    actions = ["mark_rated", "mark_unrated"]

    @admin.action(description=_("Count in the ratings (mark rated)"),
                  permissions=["change"])  # fmt: skip
    def mark_rated(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        """Only a site administrator counts a tournament in the ratings (an import arrives
        unrated, issue 25); the ratings are recomputed."""
        self._rate(request, queryset, True)

    @admin.action(description=_("Leave out of the ratings (mark unrated)"),
                  permissions=["change"])  # fmt: skip
    def mark_unrated(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self._rate(request, queryset, False)

    def _rate(self, request: HttpRequest, queryset: QuerySet[Tournament], rated: bool) -> None:
        from tournaments import ratings

        ids = list(queryset.exclude(rated=rated).values_list("pk", flat=True))
        Tournament.objects.filter(pk__in=ids).update(rated=rated)
        for pk in ids:
            audit.record(request.user, "tournament.rated", Tournament(pk=pk),
                         tournament_id=pk, after={"rated": rated})  # fmt: skip
        if ids:
            ratings.schedule(ids[0])
    search_fields = ["name", "venue"]
    filter_horizontal = ["organisers", "chief_referees"]
    inlines = [EntryInline]


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ["name", "tournament", "club", "seed", "status"]
    list_filter = ["tournament", "status"]
    search_fields = ["name"]
    autocomplete_fields = ["players", "club", "tournament"]


class PairingInline(admin.TabularInline):
    model = Pairing
    extra = 0
    fields = ["table", "seat_n", "seat_e", "seat_s", "seat_w", "referee", "flags", "locked",
              "match"]  # fmt: skip
    readonly_fields = fields
    can_delete = False


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    """Read-only: rounds change through the organiser's pages and the pairing task."""

    list_display = ["tournament", "number", "status", "progress", "paired_at", "published_at"]
    list_filter = ["status"]
    readonly_fields = [f.name for f in Round._meta.fields]
    inlines = [PairingInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(EntryAbsence)
class EntryAbsenceAdmin(admin.ModelAdmin):
    list_display = ["entry", "round_number", "reason"]


@admin.register(Sanction)
class SanctionAdmin(admin.ModelAdmin):
    """Read-only: sanctions are recorded and revoked on the discipline page or through the API,
    which keep the standings snapshots up to date; nothing is deleted."""

    list_display = ["tournament", "round_number", "kind", "entry", "match_points", "game_points",
                    "created_by", "created_at", "revoked_at"]  # fmt: skip
    list_filter = ["kind", "tournament"]
    search_fields = ["entry__name", "reason"]
    readonly_fields = [f.name for f in Sanction._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Standing)
class StandingAdmin(admin.ModelAdmin):
    """Read-only: snapshots are taken when a round is finished."""

    list_display = ["round", "scope", "rank", "entry", "match_points"]
    list_filter = ["scope", "round__tournament"]
    readonly_fields = [f.name for f in Standing._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(ArchiveImport)
class ArchiveImportAdmin(admin.ModelAdmin):
    """Read-only: where an imported tournament came from is a record, not a setting."""

    list_display = ["tournament", "imported_by_name", "imported_at", "sha256", "exported_at"]
    search_fields = ["tournament__name", "imported_by_name", "sha256"]
    readonly_fields = [f.name for f in ArchiveImport._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    """Seasons are set up here: a name, the tournaments, the points per place, the best N."""

    list_display = ("name", "scope", "best_of", "public")
    filter_horizontal = ("tournaments",)


@admin.register(PlayerRating)
class PlayerRatingAdmin(admin.ModelAdmin):
    """Read only: ratings are recomputed from the matches (``tournaments.ratings``)."""

    list_display = ("player", "rating", "uncertainty", "matches", "last_played")
    search_fields = ("player__last_name", "player__first_name")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(RatingsJob)
class RatingsJobAdmin(ReadOnlyAdmin):
    """Read only: how the ratings' recompute stands (``tournaments.ratings.jobs``) — as of when,
    and, while the last attempt failed, since when and why."""

    list_display = ("__str__", "succeeded_at", "failed_at", "failing", "error", "queued", "runs",
                    "matches", "replayed_from")  # fmt: skip
    readonly_fields = list_display[1:] + ("queued_at", "requested_at", "started_at", "skipped")

    @admin.display(boolean=True, description=_("failing"))
    def failing(self, obj: RatingsJob) -> bool:
        return obj.failing
