from django.urls import path

from tournaments import manage_views as manage
from tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("", views.HomeView.as_view(), name="home"),
    path("tournaments/<int:pk>/", views.TournamentDetailView.as_view(), name="detail"),
    path("tournaments/<int:pk>/rounds/<int:number>/", views.RoundPairingsView.as_view(),
         name="round"),
    # the organiser's pages
    path("manage/", manage.ManageListView.as_view(), name="manage_list"),
    path("manage/new/", manage.TournamentCreateView.as_view(), name="manage_create"),
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
    path("manage/<int:pk>/discipline/", manage.DisciplineView.as_view(),
         name="manage_discipline"),
    path("manage/<int:pk>/discipline/<int:sanction_id>/revoke/",
         manage.RevokeSanctionView.as_view(), name="manage_revoke_sanction"),
]
