"""The review before an import writes: who each archive player will be here, and whether the
archive is already here.

    prepare(data, user, *, raw=None, replaces=None) -> PendingImport
        the archive read and checked (nothing written but the pending row); each player matched
        to a registry player (by federation ID, or by name and club), new, or in conflict
    confirm(token, user) -> Tournament         the importer's confirmation: the tournament written

An archive already imported (the same SHA-256, or the same exported tournament: one of this
site, or the source of an earlier import) is refused with a link to the copy; restoring over
it is the explicit ``replaces`` of that copy's organisers. The matching looks only at the
players the importer may be offered (``Player.objects.offered_to``), so an import never links
to another organiser's imported players; a conflict (a federation ID held here by someone of
another name, a name and club that fit several players) is created as a new player.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from config.inputs import quoted
from scoring.models import Match
from tournaments import access
from tournaments.access import User
from tournaments.archive.importer import digest, import_tournament
from tournaments.archive.matching import CONFLICT, FEDERATION, NAME_CLUB, NEW, match_players
from tournaments.archive.reader import read_archive
from tournaments.archive.source import existing_copy
from tournaments.errors import Conflict, NotAllowed, TournamentError
from tournaments.models import (
    Pairing,
    PairingEntry,
    PendingImport,
    Player,
    Sanction,
    Standing,
    Tournament,
)

#: a review not confirmed within this time is gone
PENDING_FOR = dt.timedelta(days=1)


def already_here(copy: Tournament, user: User) -> TournamentError:
    """The refusal, with the link to the copy (named only to a user who may see it)."""
    if access.can_manage(user, copy):
        url = reverse("tournaments:manage", args=[copy.pk])
    else:
        url = reverse("tournaments:detail", args=[copy.pk])
    name = (
        copy.name
        if access.visible_tournaments(user).filter(pk=copy.pk).exists()
        else (_("tournament %(id)s") % {"id": copy.pk})
    )
    err = Conflict.one("already_imported", _(
        "This archive is already on the site: %(name)s (%(url)s). It is not imported again; "
        "that tournament's organisers may restore the archive over it.")
        % {"name": quoted(name), "url": url}, "file")  # fmt: skip
    err.errors[0]["url"] = url  # type: ignore[index]
    err.errors[0]["tournament"] = copy.pk  # type: ignore[index]
    return err


def prepare(data: Any, user: User, *, raw: bytes | None = None,
            replaces: Tournament | None = None) -> PendingImport:  # fmt: skip
    """Read and check the archive, refuse one already here (unless its organisers restore over
    it), and keep it for the importer's review."""
    if not access.can_create_tournament(user):
        raise NotAllowed.one("not_organiser", _("Only organisers create tournaments."))
    plan = read_archive(data)
    sha256 = digest(data, raw)
    # an archive that does not say which tournament it is (written before issue 25) is known
    # by its content, whatever its spacing
    source = plan.source or f"content:{digest(data, None)}"
    copy = existing_copy(sha256, source)
    if replaces is not None and not access.can_manage(user, replaces):
        raise NotAllowed.one(
            "not_organiser",
            _("Only the tournament's organisers restore an archive over it."),
            "replaces",
        )
    if copy is not None and copy != replaces:
        raise already_here(copy, user)
    PendingImport.objects.filter(user=user).delete()  # one review at a time per importer
    PendingImport.objects.filter(created_at__lt=timezone.now() - PENDING_FOR).delete()
    return PendingImport.objects.create(user=user, sha256=sha256, source=source, data=data,
                                        players=match_players(plan, user),
                                        replaces=replaces)  # fmt: skip


class NoSuchImport(TournamentError):
    status = 404


def pending_of(token: Any, user: User) -> PendingImport:
    """The user's own pending import (another user's token is not there: 404)."""
    found = PendingImport.objects.filter(user=user, token=token).first() if _uuid(token) else None
    if found is None or found.created_at < timezone.now() - PENDING_FOR:
        raise NoSuchImport.one(
            "no_such_import",
            _("No such import is waiting for confirmation; upload the archive again."),
            "token",
        )
    return found


def _uuid(value: Any) -> bool:
    import uuid

    try:
        uuid.UUID(str(value))
    except ValueError:
        return False
    return True


def confirm(token: Any, user: User) -> Tournament:
    """Write the reviewed import: the players linked as shown, the copy it restores over
    replaced, all in one transaction; the database refuses a second copy raced in meanwhile."""
    try:
        with transaction.atomic():
            pending = pending_of(token, user)
            pending = PendingImport.objects.select_for_update().get(pk=pending.pk)
            replaces = pending.replaces
            if replaces is not None:
                if not access.can_manage(user, replaces):
                    raise NotAllowed.one(
                        "not_organiser",
                        _("Only the tournament's organisers restore an archive over it."),
                    )
                _remove(replaces)
            else:
                copy = existing_copy(pending.sha256, pending.source)
                if copy is not None:
                    raise already_here(copy, user)
            links = {str(p["id"]): p["player"] for p in pending.players}
            tournament = import_tournament(pending.data, user, sha256=pending.sha256,
                                           source=pending.source, links=links,
                                           guard=True)  # fmt: skip
            # the players the replaced copy had created are this copy's now
            orphans = Player.objects.filter(in_registry=False, imported_in__isnull=True,
                                            entries__tournament=tournament).values("pk")
            Player.objects.filter(pk__in=list(orphans)).update(imported_in=tournament)
            PendingImport.objects.filter(pk=pending.pk).delete()
            return tournament
    except (IntegrityError, TournamentError) as err:
        # a copy confirmed meanwhile: the unique index refused this one (the importer reports
        # it as a database rule), and the copy is now there to link to
        if isinstance(err, TournamentError) and err.codes != ["invalid_archive"]:
            raise
        copy = existing_copy(pending.sha256, pending.source)
        if copy is not None:
            raise already_here(copy, user) from err
        raise


def _remove(tournament: Tournament) -> None:
    """The copy restored over, with its tables and protocols (which protect their rows)."""
    Sanction.objects.filter(tournament=tournament).delete()
    Standing.objects.filter(round__tournament=tournament).delete()
    PairingEntry.objects.filter(round__tournament=tournament).delete()
    matches = list(Pairing.objects.filter(round__tournament=tournament)
                   .exclude(match=None).values_list("match_id", flat=True))  # fmt: skip
    Pairing.objects.filter(round__tournament=tournament).delete()
    Match.objects.filter(pk__in=matches).delete()
    tournament.delete()


def counts(players: list[Mapping[str, Any]]) -> dict[str, int]:
    out = {FEDERATION: 0, NAME_CLUB: 0, NEW: 0, CONFLICT: 0}
    for p in players:
        out[p["status"]] += 1
    return out
