"""The pages of the tournaments app, each served by the view of its concern."""

from django.urls import path, re_path

from tournaments.archive import views as archive
from tournaments.audit import views as audit
from tournaments.discipline import roll_call_views
from tournaments.discipline import views as discipline
from tournaments.live import views as live
from tournaments.personal import views as personal
from tournaments.prizes import organiser as prizes_organiser
from tournaments.prizes import views as prizes
from tournaments.ratings import views as ratings
from tournaments.registration import views as registration
from tournaments.registry import ratings_views as registry_ratings
from tournaments.registry import views as registry
from tournaments.results import views as results
from tournaments.rotation.views import RotationView
from tournaments.rounds import desk as rounds_desk
from tournaments.rounds import views as rounds
from tournaments.seasons import views as seasons
from tournaments.stages import views as stages
from tournaments.substitutes import views as substitutes

app_name = "tournaments"

urlpatterns = [
    path("", registration.HomeView.as_view(), name="home"),
    path("tournaments/<int:pk>/", registration.TournamentDetailView.as_view(), name="detail"),
    path("tournaments/<int:pk>/rounds/<int:number>/", rounds.RoundPairingsView.as_view(),
         name="round"),
    path("tournaments/<int:pk>/rounds/<int:number>/clock/", rounds.RoundClockView.as_view(),
         name="round_clock"),
    # results for players and spectators
    path("tournaments/<int:pk>/standings/", results.StandingsView.as_view(), name="standings"),
    path("tournaments/<int:pk>/rotation/", RotationView.as_view(), name="rotation"),
    path("tournaments/<int:pk>/crosstable/", results.CrosstableView.as_view(), name="crosstable"),
    path("tournaments/<int:pk>/hall/", results.HallView.as_view(), name="hall"),
    path("tournaments/<int:pk>/bracket/", stages.BracketView.as_view(), name="bracket"),
    re_path(r"^tournaments/(?P<pk>[0-9]+)/standings\.(?P<fmt>csv|xlsx|pdf)$",
            results.ExportView.as_view(what="standings"), name="standings_export"),
    re_path(r"^tournaments/(?P<pk>[0-9]+)/crosstable\.(?P<fmt>csv|xlsx|pdf)$",
            results.ExportView.as_view(what="crosstable"), name="crosstable_export"),
    # categories, clubs and the prize list (issue 30)
    path("tournaments/<int:pk>/categories/", prizes.CategoriesView.as_view(), name="categories"),
    re_path(r"^tournaments/(?P<pk>[0-9]+)/categories\.(?P<fmt>csv|xlsx|pdf)$",
            prizes.CategoriesView.as_view(), name="categories_export"),
    path("tournaments/<int:pk>/clubs/", prizes.ClubsView.as_view(), name="clubs"),
    re_path(r"^tournaments/(?P<pk>[0-9]+)/clubs\.(?P<fmt>csv|xlsx|pdf)$",
            prizes.ClubsView.as_view(), name="clubs_export"),
    path("tournaments/<int:pk>/prizes/", prizes.PrizesView.as_view(), name="prizes"),
    re_path(r"^tournaments/(?P<pk>[0-9]+)/prizes\.(?P<fmt>csv|xlsx|pdf)$",
            prizes.PrizesView.as_view(), name="prizes_export"),
    path("players/<int:pk>/", results.PlayerView.as_view(), name="player"),
    # the shared registry: a player's record, merging two records of one person
    path("registry/players/<int:pk>/", registry.PlayerView.as_view(), name="registry_player"),
    path("registry/players/<int:pk>/merge/", registry.MergeView.as_view(),
         name="registry_merge"),
    path("registry/ratings/import/", registry_ratings.RatingImportView.as_view(),
         name="registry_ratings"),
    path("registry/merges/<slug:merge_id>/undo/", registry.UndoMergeView.as_view(),
         name="registry_undo_merge"),
    # an entry's own page, by the key of its personal link (short: it is printed as a QR code)
    path("p/<str:token>/", personal.PersonalView.as_view(), name="personal"),
    path("p/<str:token>/clock/", personal.PersonalClockView.as_view(), name="personal_clock"),
    # ratings and seasons across tournaments
    path("ratings/", ratings.RatingListView.as_view(), name="ratings"),
    path("ratings/players/<int:pk>/", ratings.PlayerRatingView.as_view(), name="player_rating"),
    path("seasons/", seasons.SeasonListView.as_view(), name="seasons"),
    path("seasons/<int:pk>/", seasons.SeasonView.as_view(), name="season"),
    re_path(r"^seasons/(?P<pk>[0-9]+)/season\.(?P<fmt>csv|xlsx)$",
            seasons.SeasonExportView.as_view(), name="season_export"),
    # the organiser's pages
    path("manage/", rounds_desk.HomeView.as_view(), name="manage_list"),
    path("manage/new/", registration.TournamentCreateView.as_view(), name="manage_create"),
    path("manage/import/", archive.ArchiveImportView.as_view(),
         name="manage_archive_import"),
    path("manage/import/<str:token>/", archive.ArchiveConfirmView.as_view(),
         name="manage_archive_confirm"),
    path("manage/<int:pk>/archive.json", archive.ArchiveDownloadView.as_view(),
         name="manage_archive"),
    path("manage/<int:pk>/", rounds.DashboardView.as_view(), name="manage"),
    path("manage/<int:pk>/setup/", registration.SetupView.as_view(), name="manage_setup"),
    path("manage/<int:pk>/chief-referees/", registration.ChiefRefereesView.as_view(),
         name="manage_chief_referees"),
    path("manage/<int:pk>/entries/", registration.EntriesView.as_view(), name="manage_entries"),
    path("manage/<int:pk>/entries/import/", registration.ImportView.as_view(),
         name="manage_import"),
    path("manage/<int:pk>/entries/<int:entry_id>/", registration.EntryEditView.as_view(),
         name="manage_entry"),
    path("manage/<int:pk>/entries/<int:entry_id>/link/", personal.NewLinkView.as_view(),
         name="manage_entry_link"),
    path("manage/<int:pk>/entries/<int:entry_id>/<str:action>/",
         registration.EntryActionView.as_view(), name="manage_entry_action"),
    path("manage/<int:pk>/roll-call/", roll_call_views.RollCallView.as_view(),
         name="manage_roll_call"),
    path("manage/<int:pk>/rounds/pair/", rounds.PairRoundView.as_view(), name="manage_pair"),
    path("manage/<int:pk>/stages/", stages.StagesView.as_view(), name="manage_stages"),
    path("manage/<int:pk>/stages/start/", rounds.StartStageView.as_view(),
         name="manage_stage_start"),
    path("manage/<int:pk>/rounds/<int:number>/", rounds.RoundView.as_view(),
         name="manage_round"),
    path("manage/<int:pk>/rounds/<int:number>/status/", rounds.RoundStatusView.as_view(),
         name="manage_round_status"),
    path("manage/<int:pk>/rounds/<int:number>/paper.pdf", rounds.RoundPaperView.as_view(),
         name="manage_round_paper"),
    path("manage/<int:pk>/rounds/<int:number>/print/", rounds.PrintTablesView.as_view(),
         name="manage_round_print"),
    path("manage/<int:pk>/board/", live.CurrentBoardView.as_view(), name="manage_current_board"),
    path("manage/<int:pk>/rounds/<int:number>/board/", live.BoardView.as_view(),
         name="manage_board"),
    path("manage/<int:pk>/rounds/<int:number>/clock/<str:action>/",
         rounds.ClockActionView.as_view(), name="manage_round_clock"),
    path("manage/<int:pk>/rounds/<int:number>/<str:action>/", rounds.RoundActionView.as_view(),
         name="manage_round_action"),
    path("manage/<int:pk>/close/", rounds.CloseView.as_view(), name="manage_close"),
    path("manage/<int:pk>/substitutes/", substitutes.SubstitutesView.as_view(),
         name="manage_substitutes"),
    path("manage/<int:pk>/substitutes/<int:substitute_id>/remove/",
         substitutes.RemoveSubstituteView.as_view(), name="manage_remove_substitute"),
    path("manage/<int:pk>/prizes/", prizes_organiser.ManagePrizesView.as_view(),
         name="manage_prizes"),
    path("manage/<int:pk>/audit/", audit.AuditView.as_view(), name="manage_audit"),
    path("manage/<int:pk>/discipline/", discipline.DisciplineView.as_view(),
         name="manage_discipline"),
    path("manage/<int:pk>/discipline/<int:sanction_id>/revoke/",
         discipline.RevokeSanctionView.as_view(), name="manage_revoke_sanction"),
]
