"""The tournaments app's wiring: signals connected once the apps are ready (snapshots retaken
after a correction, sanctions audited) and the organisers' scope over their tables' matches."""

from typing import Any

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from scoring.signals import protocol_corrected

        protocol_corrected.connect(_retake_snapshots, dispatch_uid="tournaments.snapshots")

        from tournaments.discipline import audit

        audit.connect()

        from scoring import services as scoring

        if _organises_the_matchs_event not in scoring.ORGANISER_SCOPE:
            scoring.ORGANISER_SCOPE.append(_organises_the_matchs_event)


def _organises_the_matchs_event(user: Any, match: Any) -> bool | None:
    """A table's match is overseen by its tournament's organisers only (None: no tournament)."""
    from tournaments.models import Tournament

    events = Tournament.objects.filter(round_set__pairings__match=match)
    if not events.exists():
        return None
    return events.filter(organisers=user).exists()


def _retake_snapshots(sender: Any, match: Any, **kwargs: Any) -> None:
    """A corrected protocol changes the snapshots of its round and the later ones. Run inside
    the correction's transaction: ``refresh_snapshots`` locks those rounds, so a round being
    finished at the same moment counts the correction too (it retakes it, or waits for it)."""
    from tournaments import results
    from tournaments.models import Pairing

    pairing = Pairing.objects.select_related("round__tournament").filter(match=match).first()
    if pairing is not None:
        results.refresh_snapshots(pairing.round.tournament, pairing.round.number)
