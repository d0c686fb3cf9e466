"""Routes of the API, version 1. Each app contributes its own routes from its ``api.py``."""

from typing import Any

from django.urls import include, path
from rest_framework.routers import DefaultRouter

from accounts.api import LogoutView, MeView, ObtainTokenView, TokenViewSet
from scoring.api import MatchViewSet
from tournaments.api import TournamentViewSet
from tournaments.archive.api import ArchiveAPIView, ArchiveConfirmAPIView, ArchiveImportAPIView
from tournaments.discipline.api import SanctionViewSet
from tournaments.ratings.api import RatingViewSet
from tournaments.registration.api import ClubViewSet, EntryViewSet, PlayerViewSet
from tournaments.results.api import CrosstableAPIView, PlayerHistoryAPIView, StandingsAPIView
from tournaments.rounds.api import RoundViewSet
from tournaments.seasons.api import SeasonViewSet
from tournaments.stages.api import BracketAPIView


class Router(DefaultRouter):
    """Ids in the API's paths are numbers: ``/tournaments/abc/…`` is a 404 at routing, not a
    lookup that fails (``ValueError``: a 500) in every view that reads ``pk`` itself; and at
    most nine digits, so that no id overflows the database's integer (a 500 on PostgreSQL)."""

    def get_lookup_regex(self, viewset: Any, lookup_prefix: str = "") -> str:
        regex = str(super().get_lookup_regex(viewset, lookup_prefix))
        if getattr(viewset, "lookup_value_regex", None) is None:  # DRF's default: any text
            regex = regex.replace("[^/.]+", "[0-9]{1,9}")
        return regex


router = Router()
router.register("tournaments", TournamentViewSet, basename="tournament")
router.register("matches", MatchViewSet, basename="match")
router.register("clubs", ClubViewSet, basename="club")
router.register("players", PlayerViewSet, basename="player")
router.register("entries", EntryViewSet, basename="entry")
router.register("rounds", RoundViewSet, basename="round")
router.register("sanctions", SanctionViewSet, basename="sanction")
router.register("seasons", SeasonViewSet, basename="season")
router.register("ratings", RatingViewSet, basename="rating")
router.register("auth/tokens", TokenViewSet, basename="api-tokens")

urlpatterns = [
    path("auth/token/", ObtainTokenView.as_view(), name="api-token"),
    path("auth/logout/", LogoutView.as_view(), name="api-logout"),
    path("me/", MeView.as_view(), name="api-me"),
    # read-only results (tournaments.results.api), before the router's tournament routes
    path("tournaments/<int:pk>/standings/", StandingsAPIView.as_view(), name="api-standings"),
    path("tournaments/<int:pk>/crosstable/", CrosstableAPIView.as_view(), name="api-crosstable"),
    path("tournaments/<int:pk>/bracket/", BracketAPIView.as_view(), name="api-bracket"),
    path("players/<int:pk>/history/", PlayerHistoryAPIView.as_view(), name="api-player-history"),
    # the tournament archive (tournaments.archive.api), before the router's tournament routes
    path("tournaments/<int:pk>/archive/", ArchiveAPIView.as_view(), name="api-archive"),
    path("tournaments/import/", ArchiveImportAPIView.as_view(), name="api-archive-import"),
    path(
        "tournaments/import/<str:token>/",
        ArchiveConfirmAPIView.as_view(),
        name="api-archive-confirm",
    ),
    path("", include(router.urls)),
]
