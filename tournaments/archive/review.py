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

from tournaments import access
from tournaments.access import User
from tournaments.archive.importer import digest, import_tournament
from tournaments.archive.reader import Plan, read_archive
from tournaments.archive.source import existing_copy
from tournaments.errors import Conflict, NotAllowed, TournamentError
from tournaments.models import PendingImport, Player, Tournament

#: a review not confirmed within this time is gone
PENDING_FOR = dt.timedelta(days=1)
FEDERATION, NAME_CLUB, NEW, CONFLICT = "federation_id", "name_club", "new", "conflict"


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
        "This archive is already on the site: «%(name)s» (%(url)s). It is not imported again; "
        "that tournament's organisers may restore the archive over it.")
        % {"name": name, "url": url}, "file")  # fmt: skip
    err.errors[0]["url"] = url  # type: ignore[index]
    err.errors[0]["tournament"] = copy.pk  # type: ignore[index]
    return err


def match_players(plan: Plan, user: User) -> list[dict[str, Any]]:
    """Per archive player: ``status`` (federation_id, name_club, new, conflict), the registry
    ``player`` he is linked to (or None: created), and what the archive says of him."""
    clubs = {archive_id: f["name"] for archive_id, f in plan.rows["clubs"]}
    rows = plan.rows["players"]
    ids = {f["federation_id"] for _i, f in rows if f["federation_id"]}
    by_federation = {p.federation_id: p for p in Player.objects.filter(federation_id__in=ids)}
    offered = Player.objects.offered_to(user)
    names = sorted({f["last_name"] for _i, f in rows})
    by_name: dict[tuple[str, str, str], list[Player]] = {}
    for start in range(0, len(names), 500):
        for p in offered.filter(last_name__in=names[start : start + 500]).select_related("club"):
            key = (p.last_name, p.first_name, p.club.name if p.club else "")
            by_name.setdefault(key, []).append(p)
    out = []
    for archive_id, f in rows:
        club = clubs.get(f["club"], "")
        item = {"id": archive_id, "name": f"{f['last_name']} {f['first_name']}".strip(),
                "club": club, "federation_id": f["federation_id"], "player": None,
                "player_name": "", "status": NEW}  # fmt: skip
        known = by_federation.get(f["federation_id"]) if f["federation_id"] else None
        fits = by_name.get((f["last_name"], f["first_name"], club), [])
        if known is not None:
            same = (known.last_name, known.first_name) == (f["last_name"], f["first_name"])
            visible = known.in_registry or offered.filter(pk=known.pk).exists()
            item.update(status=FEDERATION if same and visible else CONFLICT,
                        player=known.pk if same and visible else None,
                        player_name=known.full_name)  # fmt: skip
        elif len(fits) == 1 and not (f["federation_id"] and fits[0].federation_id):
            item.update(status=NAME_CLUB, player=fits[0].pk, player_name=fits[0].full_name)
        elif fits:
            item.update(status=CONFLICT, player_name=", ".join(p.full_name for p in fits[:3]))
        out.append(item)
    return out


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


def pending_of(token: Any, user: User) -> PendingImport:
    """The user's own pending import (another user's token is not there)."""
    found = PendingImport.objects.filter(user=user, token=token).first() if _uuid(token) else None
    if found is None or found.created_at < timezone.now() - PENDING_FOR:
        raise TournamentError.one(
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
                replaces.delete()
            else:
                copy = existing_copy(pending.sha256, pending.source)
                if copy is not None:
                    raise already_here(copy, user)
            links = {str(p["id"]): p["player"] for p in pending.players}
            tournament = import_tournament(pending.data, user, sha256=pending.sha256,
                                           source=pending.source, links=links,
                                           guard=True)  # fmt: skip
            pending.delete()
            return tournament
    except IntegrityError as err:
        copy = existing_copy(pending.sha256, pending.source)
        if copy is not None:
            raise already_here(copy, user) from err
        raise


def counts(players: list[Mapping[str, Any]]) -> dict[str, int]:
    out = {FEDERATION: 0, NAME_CLUB: 0, NEW: 0, CONFLICT: 0}
    for p in players:
        out[p["status"]] += 1
    return out
