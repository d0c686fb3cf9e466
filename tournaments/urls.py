from django.urls import path, re_path

from tournaments import archive_views, audit_views, views
from tournaments import manage_views as manage
from tournaments import public_views as public

app_name = "tournaments"

urlpatterns = [
    path("", views.HomeView.as_view(), name="home"),
    path("tournaments/<int:pk>/", views.TournamentDetailView.as_view(), name="detail"),
    path("tournaments/<int:pk>/rounds/<int:number>/", views.RoundPairingsView.as_view(),
         name="round"),
    # results for players and spectators (public_views)
    path("tournaments/<int:pk>/standings/", public.StandingsView.as_view(), name="standings"),
    path("tournaments/<int:pk>/crosstable/", public.CrosstableView.as_view(), name="crosstable"),
    path("tournaments/<int:pk>/hall/", public.HallView.as_view(), name="hall"),
    re_path(r"^tournaments/(?P<pk>[0-9]+)/standings\.(?P<fmt>csv|xlsx)$",
            public.ExportView.as_view(what="standings"), name="standings_export"),
    re_path(r"^tournaments/(?P<pk>[0-9]+)/crosstable\.(?P<fmt>csv|xlsx)$",
            public.ExportView.as_view(what="crosstable"), name="crosstable_export"),
    path("players/<int:pk>/", public.PlayerView.as_view(), name="player"),
    # the organiser's pages
    path("manage/", manage.ManageListView.as_view(), name="manage_list"),
    path("manage/new/", manage.TournamentCreateView.as_view(), name="manage_create"),
    path("manage/import/", archive_views.ArchiveImportView.as_view(),
         name="manage_archive_import"),
    path("manage/<int:pk>/archive.json", archive_views.ArchiveDownloadView.as_view(),
         name="manage_archive"),
    path("manage/<int:pk>/", manage.DashboardView.as_view(), name="manage"),
    path("manage/<int:pk>/setup/", manage.SetupView.as_view(), name="manage_setup"),
    path("manage/<int:pk>/entries/", manage.EntriesView.as_view(), name="manage_entries"),
    path("manage/<int:pk>/entries/import/", manage.ImportView.as_view(), name="manage_import"),
    path("manage/<int:pk>/entries/<int:entry_id>/", manage.EntryEditView.as_view(),
         name="manage_entry"),
    path("manage/<int:pk>/entries/<int:entry_id>/<str:action>/",
         manage.EntryActionView.as_view(), name="manage_entry_action"),
    path("manage/<int:pk>/rounds/pair/", manage.PairRoundView.as_view(), name="manage_pair"),
    path("manage/<int:pk>/rounds/<int:number>/", manage.RoundView.as_view(),
         name="manage_round"),
    path("manage/<int:pk>/rounds/<int:number>/status/", manage.RoundStatusView.as_view(),
         name="manage_round_status"),
    path("manage/<int:pk>/rounds/<int:number>/print/", manage.PrintTablesView.as_view(),
         name="manage_round_print"),
    path("manage/<int:pk>/rounds/<int:number>/<str:action>/", manage.RoundActionView.as_view(),
         name="manage_round_action"),
    path("manage/<int:pk>/close/", manage.CloseView.as_view(), name="manage_close"),
    path("manage/<int:pk>/audit/", audit_views.AuditView.as_view(), name="manage_audit"),
    path("manage/<int:pk>/discipline/", manage.DisciplineView.as_view(),
         name="manage_discipline"),
    path("manage/<int:pk>/discipline/<int:sanction_id>/revoke/",
         manage.RevokeSanctionView.as_view(), name="manage_revoke_sanction"),
]
