from django.contrib import admin

from tournaments.models import Club, Entry, Player, Tournament


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "city"]
    search_fields = ["name", "city"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["last_name", "first_name", "club", "rating", "federation_id"]
    list_filter = ["club"]
    search_fields = ["last_name", "first_name", "federation_id"]


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    autocomplete_fields = ["players", "club"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "start_date", "format", "system", "rounds", "status", "public"]
    list_filter = ["status", "format", "system", "public"]
    search_fields = ["name", "venue"]
    filter_horizontal = ["organisers"]
    inlines = [EntryInline]


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ["name", "tournament", "club", "seed", "status"]
    list_filter = ["tournament", "status"]
    search_fields = ["name"]
    autocomplete_fields = ["players", "club", "tournament"]
