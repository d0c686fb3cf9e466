"""Writing a checked archive as a new tournament, in one transaction: all of it, or nothing.

    import_tournament(data, user) -> Tournament    a new tournament, exactly as archived

Users are never created: a username is linked to the existing user of that name, else the field
is left empty and the import reports it (``Tournament.archive_notes``). The importing user
becomes an organiser of the new tournament. Players with a federation ID reuse the existing
player with that ID (unchanged), others are created; clubs are matched by name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from django.contrib.auth import get_user_model
from django.db import DatabaseError, IntegrityError, transaction
from django.db.models import Model
from django.utils.translation import gettext as _

from accounts import audit
from accounts.roles import CHIEF_REFEREE, has_role
from scoring.models import Deal, Match, MatchVersion
from tournaments.access import User, can_create_tournament
from tournaments.archive.format import HAS_DEALS_WON, SECTIONS, SPECS, USER
from tournaments.archive.reader import Plan, read_archive
from tournaments.errors import NotAllowed, TournamentError
from tournaments.models import (
    Club,
    Entry,
    EntryAbsence,
    Pairing,
    PairingEntry,
    Player,
    Round,
    Sanction,
    Standing,
    Tournament,
)


def _users(names: Iterable[str]) -> dict[str, Any]:
    return {u.username: u for u in get_user_model().objects.filter(username__in=set(names))}


def import_tournament(data: Any, user: User) -> Tournament:
    """A new tournament from an archive (``export_tournament``'s dict), in one transaction.

    The returned tournament carries ``archive_notes``: what could not be restored exactly
    (usernames unknown here, a round that was being paired).
    """
    if not can_create_tournament(user):
        raise NotAllowed.one("not_organiser", _("Only organisers create tournaments."))
    plan = read_archive(data)
    try:
        with transaction.atomic():
            tournament = _write(plan, user)
            audit.record(user, "tournament.import", tournament, tournament_id=tournament.pk,
                         after={"name": tournament.name, "notes": tournament.archive_notes})
            return tournament
    except (IntegrityError, DatabaseError, ValueError, TypeError) as err:
        raise TournamentError.one(
            "invalid_archive",
            _("The archive breaks a rule of the database: %(detail)s")
            % {"detail": str(err).splitlines()[0] if str(err) else type(err).__name__},
        ) from err


def _bulk(model: type[Model], objects: list[Any], stamps: dict[str, list[Any]]) -> list[Any]:
    """Insert ``objects`` and then restore the automatic timestamps ``stamps`` (field: values in
    the objects' order), which an insert would set to now."""
    created = model._default_manager.bulk_create(objects, batch_size=1000)  # type: ignore[attr-defined]
    if created and stamps:
        for name, values in stamps.items():
            for obj, value in zip(created, values, strict=True):
                setattr(obj, name, value)
        model._default_manager.bulk_update(created, list(stamps), batch_size=500)  # type: ignore[attr-defined]
    return created


def _write(plan: Plan, importer: User) -> Tournament:  # noqa: C901 - one step per table
    notes: list[str] = []
    users = _users(plan.usernames)
    missing: dict[str, list[str]] = {}

    def user_id(name: str | None, where: str) -> int | None:
        if name is None:
            return None
        found = users.get(name)
        if found is None:
            missing.setdefault(name, []).append(where)
            return None
        return int(found.pk)

    def fields_of(section: str, fields: Mapping[str, Any], where: str,
                  maps: Mapping[str, Callable[[Any], Any]]) -> dict[str, Any]:  # fmt: skip
        out: dict[str, Any] = {}
        for name, kind in SPECS[section].items():
            value = fields[name]
            if kind == USER:
                out[f"{name}_id"] = user_id(value, f"{where} {name}")
            elif kind.startswith("ref:"):
                out[f"{name}_id"] = None if value is None else maps[kind[4:].rstrip("!")](value)
            else:
                out[name] = value
        return out

    new: dict[str, dict[Any, int]] = {s: {} for s in SECTIONS}
    maps = {s: new[s].__getitem__ for s in SECTIONS}

    # clubs by name, players by federation ID
    clubs = plan.rows["clubs"]
    existing = {c.name: c.pk for c in Club.objects.filter(name__in=[f["name"] for _i, f in clubs])}
    to_create = [f for _i, f in clubs if f["name"] not in existing]
    for club in Club.objects.bulk_create(
        [Club(**f) for f in {f["name"]: f for f in to_create}.values()]
    ):
        existing[club.name] = club.pk
    for archive_id, f in clubs:
        new["clubs"][archive_id] = existing[f["name"]]
    players = plan.rows["players"]
    federation = {
        p.federation_id: p.pk
        for p in Player.objects.filter(
            federation_id__in=[f["federation_id"] for _i, f in players if f["federation_id"]]
        )
    }
    fresh = [(i, f) for i, f in players if not (f["federation_id"] and f["federation_id"] in
                                                  federation)]  # fmt: skip
    created_players = Player.objects.bulk_create(
        [Player(**fields_of("players", f, "player", maps)) for _i, f in fresh], batch_size=1000
    )
    for (archive_id, _f), player in zip(fresh, created_players, strict=True):
        new["players"][archive_id] = player.pk
    for archive_id, f in players:
        if archive_id not in new["players"]:
            new["players"][archive_id] = federation[f["federation_id"]]

    # the tournament
    settings = dict(plan.tournament)
    created_at = settings.pop("created_at")
    tournament = Tournament.objects.create(**settings)
    Tournament.objects.filter(pk=tournament.pk).update(created_at=created_at)
    tournament.created_at = created_at
    organisers = {users[n].pk for n in plan.organisers if n in users} | {importer.pk}
    for name in plan.organisers:
        if name not in users:
            missing.setdefault(name, []).append("organiser")
    tournament.organisers.add(*organisers)
    # a chief referee judges the copy only if he is one here too
    chiefs = [users[n] for n in plan.chief_referees if n in users]
    for name in plan.chief_referees:
        if name not in users:
            missing.setdefault(name, []).append("chief_referee")
    tournament.chief_referees.add(*(u for u in chiefs if has_role(u, CHIEF_REFEREE)))

    # entries (teams linked afterwards), their players and absences
    entries = plan.rows["entries"]
    created_entries = _bulk(Entry, [
        Entry(tournament=tournament, **fields_of("entries", f | {"team": None}, "entry", maps))
        for _i, f in entries
    ], {})  # fmt: skip
    for (archive_id, _f), entry in zip(entries, created_entries, strict=True):
        new["entries"][archive_id] = entry.pk
    teamed = []
    for (_i, f), entry in zip(entries, created_entries, strict=True):
        if f["team"] is not None:
            entry.team_id = new["entries"][f["team"]]
            teamed.append(entry)
    Entry.objects.bulk_update(teamed, ["team"], batch_size=500)
    Entry.players.through.objects.bulk_create(
        [Entry.players.through(entry_id=new["entries"][e], player_id=new["players"][p])
         for e, p in plan.entry_players], batch_size=1000,
    )  # fmt: skip
    _bulk(EntryAbsence, [EntryAbsence(**fields_of("absences", f, "absence", maps))
                         for _i, f in plan.rows["absences"]], {})  # fmt: skip

    # rounds
    rounds = plan.rows["rounds"]
    objects = []
    for _archive_id, f in rounds:
        values = fields_of("rounds", f, f"round {f['number']}", maps)
        if values["status"] == Round.Status.PAIRING:
            notes.append(_("Round %(n)s was being paired when it was exported; it is imported "
                           "as new.") % {"n": f["number"]})  # fmt: skip
            values.update(status=Round.Status.NEW, task_id="", progress=0, step="")
        objects.append(Round(tournament=tournament, **values))
    created_rounds = _bulk(Round, objects, {"created_at": [f["created_at"] for _i, f in rounds]})
    round_of: dict[Any, Round] = {}
    for (archive_id, _f), round_ in zip(rounds, created_rounds, strict=True):
        new["rounds"][archive_id] = round_.pk
        round_of[archive_id] = round_

    # matches, their deals and history
    matches = plan.rows["matches"]
    created_matches = _bulk(Match, [
        Match(confirm_pin="", **fields_of("matches", f, f"match {f['label']}", maps),
              **({"deals_won": f.get("deals_won", {})} if HAS_DEALS_WON else {}))
        for _i, f in matches
    ], {"created_at": [f["created_at"] for _i, f in matches],
        "updated_at": [f["updated_at"] for _i, f in matches]})  # fmt: skip
    for (archive_id, _f), match in zip(matches, created_matches, strict=True):
        new["matches"][archive_id] = match.pk
    _bulk(Deal, [Deal(match_id=new["matches"][m], **fields_of("deals", f, "deal", maps))
                 for m, f in plan.deals],
          {"created_at": [f["created_at"] for _m, f in plan.deals]})  # fmt: skip
    _bulk(MatchVersion,
          [MatchVersion(match_id=new["matches"][m], **fields_of("history", f, "history", maps))
           for m, f in plan.history],
          {"at": [f["at"] for _m, f in plan.history]})  # fmt: skip

    # pairings and places
    pairings = plan.rows["pairings"]
    created_pairings = _bulk(Pairing, [Pairing(**fields_of("pairings", f, "table", maps))
                                       for _i, f in pairings], {})  # fmt: skip
    round_by_pairing: dict[Any, int] = {}
    for (archive_id, f), pairing in zip(pairings, created_pairings, strict=True):
        new["pairings"][archive_id] = pairing.pk
        round_by_pairing[archive_id] = new["rounds"][f["round"]]
    _bulk(PairingEntry, [
        PairingEntry(pairing_id=new["pairings"][p], round_id=round_by_pairing[p],
                     **fields_of("places", f, "place", maps))
        for p, f in plan.places
    ], {})  # fmt: skip

    # discipline and standings snapshots
    sanctions = plan.rows["sanctions"]
    _bulk(Sanction, [Sanction(tournament=tournament, **fields_of("sanctions", f, "sanction", maps))
                     for _i, f in sanctions],
          {"created_at": [f["created_at"] for _i, f in sanctions]})  # fmt: skip
    _bulk(Standing, [Standing(**fields_of("standings", f, "standing", maps))
                     for _i, f in plan.rows["standings"]], {})  # fmt: skip

    for name, places in sorted(missing.items()):
        notes.append(_("No user “%(name)s” here: left empty (%(count)s fields, e.g. %(where)s).")
                     % {"name": name, "count": len(places), "where": places[0]})  # fmt: skip
    tournament.archive_notes = notes  # type: ignore[attr-defined]
    return tournament
