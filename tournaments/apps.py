"""The tournaments app's wiring: signals connected once the apps are ready (snapshots retaken
after a correction, sanctions and shared players and clubs audited, ratings recomputed when a
tournament becomes private or public, pages pushed when what they show changes, with the
standings table inside the push) and the rule of ``tournaments.access`` over its tables'
matches, registered in scoring (``scoring.services.EVENT_SCOPES``): scoring cannot import
tournaments, so it asks through this hook who sees, oversees and corrects a table's match."""

from typing import Any

from django.apps import AppConfig
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from scoring.signals import protocol_corrected

        protocol_corrected.connect(_retake_snapshots, dispatch_uid="tournaments.snapshots")

        from tournaments.discipline import audit

        audit.connect()

        from tournaments.registration import shared

        shared.connect()

        from tournaments.ratings import signals

        signals.connect()

        from tournaments.live import signals as live

        live.connect()

        from tournaments.live import content
        from tournaments.results import views as results

        # the public standings table travels in the push (issue 31): rendered once per language
        content.register("standings", "standings", results.pushed_standings)

        from scoring import services as scoring

        if not any(isinstance(scope, TablesOfTournaments) for scope in scoring.EVENT_SCOPES):
            scoring.EVENT_SCOPES.append(TablesOfTournaments())


class TablesOfTournaments:
    """``scoring.services.EventScope`` of the matches that are tables of a round."""

    def matches(self) -> Q:
        return Q(pairing__isnull=False)

    def visible(self, user: Any) -> Q:
        from tournaments import access

        seen = access.visible_tables(user, "pairing__")
        if user.is_authenticated and user.is_active:
            seen |= Q(referee=user)  # the match's writer sees it, as the table's referee does
        return self.matches() & seen

    def desk(self, user: Any) -> Q:
        from tournaments import access

        return Q(pairing__round__tournament__in=access.judged_tournaments(user))

    def correctors(self, user: Any) -> Q:
        from tournaments import access

        return Q(pairing__round__tournament__in=access.corrected_tournaments(user))


def _retake_snapshots(sender: Any, match: Any, **kwargs: Any) -> None:
    """A corrected protocol changes the snapshots of its round and the later ones. Run inside
    the correction's transaction: ``refresh_snapshots`` locks those rounds, so a round being
    finished at the same moment counts the correction too (it retakes it, or waits for it)."""
    from tournaments import results
    from tournaments.models import Pairing

    pairing = Pairing.objects.select_related("round__tournament").filter(match=match).first()
    if pairing is not None:
        results.refresh_snapshots(pairing.round.tournament, pairing.round.number)
        if pairing.round.tournament.public:
            from tournaments import ratings

            ratings.schedule(pairing.round.tournament_id)  # the history changed: replay it
