"""What changes which part of the pages: receivers of the models' saves that ``announce`` it.

    a table's match saved (a deal, submitted, confirmed, corrected)  board; + queue when
        submitted; + standings, hall, queue when confirmed
    a round saved (paired, published, finished, its clock)   board; + pairings, hall,
        standings once published
    a sanction saved or deleted                               standings, hall
    a table (pairing) saved (referee, swap)                   board
    a tournament saved, its organisers or chief referees changed, a user signed out
        the sockets concerned check their rights again (``announce.recheck``)

A confirmation is announced to the public only in a published round: the public pages show
nothing of a round before it is published, so neither does its push.

Listening to saves rather than calling from each service keeps ``scoring`` unaware of
tournaments (as ``docs/architecture.md`` wants) and catches every path that writes: the web
form, the API, the desk's paper copy, the admin. The round of a match is looked up once per
process and remembered (it never changes).
"""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.auth.signals import user_logged_out
from django.db import DatabaseError, transaction
from django.db.models.signals import m2m_changed, post_delete, post_save

from scoring.models import Match
from tournaments.access import PUBLISHED
from tournaments.live.announce import (
    announce,
    public_group,
    recheck,
    staff_group,
    user_group,
)
from tournaments.models import Pairing, Round, Sanction, Tournament

logger = logging.getLogger(__name__)

#: match id -> (tournament id, round id), or None for a match that is no table of a round
_ROUND_OF: dict[int, tuple[int, int] | None] = {}
_REMEMBERED = 20_000


def round_of(match_id: int) -> tuple[int, int] | None:
    if match_id in _ROUND_OF:
        return _ROUND_OF[match_id]
    row = (Pairing.objects.filter(match_id=match_id)
           .values_list("round__tournament_id", "round_id").first())  # fmt: skip
    if len(_ROUND_OF) >= _REMEMBERED:
        _ROUND_OF.clear()
    found = (int(row[0]), int(row[1])) if row else None
    if found is not None:  # a match is made before its table: do not remember "none" early
        _ROUND_OF[match_id] = found
    return found


def match_saved(sender: Any, instance: Match, created: bool = False, **kwargs: Any) -> None:
    if created or kwargs.get("raw"):
        return
    # after the commit: the write's own transaction does no query more than before (the
    # referee's phone writes in a fixed number), and a rolled-back change is never announced
    match_id, status = instance.pk, instance.status
    transaction.on_commit(lambda: _match_changed(match_id, status))


def _match_changed(match_id: int, status: str) -> None:
    try:
        where = round_of(match_id)
    except DatabaseError:  # the change is saved; the pages will poll it
        logger.warning("live: no round for match %s", match_id, exc_info=True)
        return
    if where is None:
        return
    tournament, round_id = where
    announce(tournament, "board", round_id)
    if status in (Match.Status.SUBMITTED, Match.Status.CONFIRMED):
        announce(tournament, "queue", round_id)
    if status == Match.Status.CONFIRMED and _published(round_id):
        for part in ("standings", "hall"):  # the pairings page shows no results
            announce(tournament, part, round_id)


def _published(round_id: int) -> bool:
    try:
        return Round.objects.filter(pk=round_id, status__in=PUBLISHED).exists()
    except DatabaseError:
        logger.warning("live: no status for round %s", round_id, exc_info=True)
        return False


def round_saved(sender: Any, instance: Round, **kwargs: Any) -> None:
    if kwargs.get("raw"):
        return
    announce(instance.tournament_id, "board", instance.pk)
    if instance.status in PUBLISHED:
        for part in ("pairings", "hall", "standings"):
            announce(instance.tournament_id, part, instance.pk)


def sanction_changed(sender: Any, instance: Sanction, **kwargs: Any) -> None:
    if kwargs.get("raw"):
        return
    announce(instance.tournament_id, "standings")
    announce(instance.tournament_id, "hall")
    if instance.pairing_id:
        announce(instance.tournament_id, "board")


def pairing_saved(sender: Any, instance: Pairing, **kwargs: Any) -> None:
    if kwargs.get("raw") or not instance.table:
        return
    tournament_id = (Round.objects.filter(pk=instance.round_id)
                     .values_list("tournament_id", flat=True).first())  # fmt: skip
    if tournament_id is not None:
        announce(tournament_id, "board", instance.round_id)


def tournament_saved(sender: Any, instance: Tournament, **kwargs: Any) -> None:
    if kwargs.get("raw") or kwargs.get("created"):
        return
    recheck(public_group(instance.pk), staff_group(instance.pk))


def tournament_people_changed(sender: Any, instance: Any, action: str, **kwargs: Any) -> None:
    if action not in ("post_remove", "post_clear"):
        return
    if isinstance(instance, Tournament):
        recheck(staff_group(instance.pk), public_group(instance.pk))
    else:  # removed from the user's side of the relation
        recheck(user_group(instance.pk))


def signed_out(sender: Any, user: Any = None, **kwargs: Any) -> None:
    if user is not None and user.pk is not None:
        recheck(user_group(user.pk), after=1.0)


def connect() -> None:
    post_save.connect(tournament_saved, sender=Tournament, dispatch_uid="live.tournament")
    for through in (Tournament.organisers.through, Tournament.chief_referees.through):
        m2m_changed.connect(tournament_people_changed, sender=through,
                            dispatch_uid=f"live.people.{through.__name__}")  # fmt: skip
    user_logged_out.connect(signed_out, dispatch_uid="live.signed_out")
    post_save.connect(match_saved, sender=Match, dispatch_uid="live.match")
    post_save.connect(round_saved, sender=Round, dispatch_uid="live.round")
    post_save.connect(sanction_changed, sender=Sanction, dispatch_uid="live.sanction")
    post_delete.connect(sanction_changed, sender=Sanction, dispatch_uid="live.sanction_deleted")
    post_save.connect(pairing_saved, sender=Pairing, dispatch_uid="live.pairing")
