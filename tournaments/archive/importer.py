"""Writing a checked archive as a new tournament, in one transaction: all of it, or nothing.

    import_tournament(data, user, *, raw=None) -> Tournament    a new tournament, as archived

An archive is a claim, not a credential. Usernames are never linked to users of this site: every
user field of an imported row (a protocol's referee, who confirmed it, who recorded a deal or a
sanction …) is left empty, and the names are kept as text in the tournament's ``ArchiveImport``
with who imported which archive (the SHA-256 of ``raw``, the bytes received), when, and the
archive's ``exported_at``. Only the importing user organises the new tournament. Players with a
federation ID are linked to the player here as he is (a note says what the archive says
otherwise); others are created; clubs are matched by name. Results are the engine's count of the
imported deals (``archive.protocols``), and the standings snapshots of finished rounds are
retaken from them: the archive's own are not trusted.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from typing import Any

from django.db import DatabaseError, IntegrityError, transaction
from django.db.models import Model
from django.utils.translation import gettext as _

from accounts import audit
from config.inputs import quoted
from scoring import services as scoring_services
from scoring.models import LEGACY_ROUND, Deal, Match, MatchVersion
from tournaments import results
from tournaments.access import User, can_create_tournament
from tournaments.archive.format import HAS_DEALS_WON, SECTIONS, SPECS, USER
from tournaments.archive.matching import match_players
from tournaments.archive.reader import Plan, read_archive
from tournaments.errors import NotAllowed, TournamentError
from tournaments.models import (
    ArchiveImport,
    Category,
    Club,
    Entry,
    EntryAbsence,
    Pairing,
    PairingEntry,
    Player,
    Prize,
    Round,
    Sanction,
    Season,
    Stage,
    Substitute,
    Tournament,
)


def digest(data: Any, raw: bytes | None) -> str:
    """The SHA-256 of the bytes received; of the canonical JSON (keys sorted, no spaces) when
    the caller has only the parsed document."""
    if raw is None:
        raw = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"),
                         default=str).encode()  # fmt: skip
    return hashlib.sha256(raw).hexdigest()


def import_tournament(data: Any, user: User, *, raw: bytes | None = None,
                      sha256: str | None = None, source: str | None = None,
                      links: Mapping[str, int | None] | None = None,
                      guard: bool = False) -> Tournament:  # fmt: skip
    """A new tournament from an archive (``export_tournament``'s dict), in one transaction. It
    arrives private and unrated: only a site administrator counts it in the ratings.

    ``raw``: the archive's bytes as received, whose SHA-256 the import keeps (``sha256``: that
    digest, already taken). ``links``: per archive player id (as text), the registry player he
    is, or None to create him (``review.match_players``; computed here when not given).
    ``guard``: the database keeps this the only copy of the archive and of its exported
    tournament (``review.confirm``). The returned tournament carries ``archive_notes`` (what
    could not be restored exactly) and ``import_record``.
    """
    if not can_create_tournament(user):
        raise NotAllowed.one("not_organiser", _("Only organisers create tournaments."))
    plan = read_archive(data)
    if links is None:
        links = {str(p["id"]): p["player"] for p in match_players(plan, user)}
    try:
        with transaction.atomic():
            tournament = _write(plan, user, links)
            record = ArchiveImport.objects.create(
                tournament=tournament, imported_by=user, imported_by_name=user.get_username(),
                sha256=sha256 or digest(data, raw), exported_at=plan.exported_at,
                source=plan.source if source is None else source, guarded=guard,
                organisers=plan.organisers, usernames=sorted(plan.usernames),
                names=tournament.archive_names,  # type: ignore[attr-defined]
            )  # fmt: skip
            audit.record(user, "tournament.import", tournament, tournament_id=tournament.pk,
                         after={"name": tournament.name, "notes": tournament.archive_notes,
                                "sha256": record.sha256, "exported_at": record.exported_at,
                                "organisers_in_archive": record.organisers,
                                "usernames_in_archive": record.usernames})  # fmt: skip
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


def _write(
    plan: Plan,
    importer: User,  # noqa: C901 - one step per table
    links: Mapping[str, int | None],
) -> Tournament:
    notes: list[str] = []
    # the usernames the archive gives, per new row: kept as text, never linked (ArchiveImport)
    names: dict[str, dict[str, dict[str, str]]] = {}

    def fields_of(section: str, fields: Mapping[str, Any],
                  maps: Mapping[str, Callable[[Any], Any]]) -> dict[str, Any]:  # fmt: skip
        out: dict[str, Any] = {}
        for name, kind in SPECS[section].items():
            value = fields[name]
            if kind == USER:
                out[f"{name}_id"] = None
            elif kind.startswith("ref:"):
                out[f"{name}_id"] = None if value is None else maps[kind[4:].rstrip("!")](value)
            else:
                out[name] = value
        return out

    def remember(section: str, key: Any, fields: Mapping[str, Any]) -> None:
        given = {name: fields[name] for name, kind in SPECS[section].items()
                 if kind == USER and fields[name] is not None}  # fmt: skip
        if given:
            names.setdefault(section, {})[str(key)] = given

    new: dict[str, dict[Any, int]] = {s: {} for s in SECTIONS}
    maps = {s: new[s].__getitem__ for s in SECTIONS}

    # clubs by name, players by federation ID: linked as they are here, never changed
    clubs = plan.rows["clubs"]
    existing = {c.name: c.pk for c in Club.objects.filter(name__in=[f["name"] for _i, f in clubs])}
    to_create = [f for _i, f in clubs if f["name"] not in existing]
    for club in Club.objects.bulk_create(
        [Club(**f) for f in {f["name"]: f for f in to_create}.values()]
    ):
        existing[club.name] = club.pk
    for archive_id, f in clubs:
        new["clubs"][archive_id] = existing[f["name"]]
    # players as the review showed them: linked to the registry player, or created for this
    # tournament only (out of the registry: ``Player.objects.offered_to``)
    players = plan.rows["players"]
    linked = {p.pk: p for p in Player.objects.select_related("club").filter(
        pk__in=[pk for pk in links.values() if pk is not None])}  # fmt: skip
    fresh = [(i, f) for i, f in players if links.get(str(i)) not in linked]
    taken = set(Player.objects.filter(federation_id__in=[
        f["federation_id"] for _i, f in fresh if f["federation_id"]]).values_list(
        "federation_id", flat=True))  # fmt: skip
    created_players = Player.objects.bulk_create(
        [Player(**fields_of("players", f, maps) | {"in_registry": False}
                | ({"federation_id": ""} if f["federation_id"] in taken else {}))
         for _i, f in fresh], batch_size=1000,
    )  # fmt: skip
    for (archive_id, _f), player in zip(fresh, created_players, strict=True):
        new["players"][archive_id] = player.pk
    club_names = {archive_id: f["name"] for archive_id, f in clubs}
    for archive_id, f in players:
        if archive_id not in new["players"]:
            known = linked[links[str(archive_id)]]  # type: ignore[index]
            new["players"][archive_id] = known.pk
            notes += _player_differs(known, f, club_names)

    # the tournament: only the importer organises it
    settings = dict(plan.tournament)
    created_at = settings.pop("created_at")
    # private and unrated, whatever the archive says: an archive is no lever on the ratings
    settings.update(public=False, rated=False)
    tournament = Tournament.objects.create(**settings)
    Player.objects.filter(pk__in=[p.pk for p in created_players]).update(imported_in=tournament)
    Tournament.objects.filter(pk=tournament.pk).update(created_at=created_at)
    tournament.created_at = created_at
    # only the importer: an archive's usernames (organisers, chief referees) grant nothing here
    tournament.organisers.add(importer)  # type: ignore[arg-type]

    # entries (teams linked afterwards), their players and absences
    entries = plan.rows["entries"]
    created_entries = _bulk(Entry, [
        Entry(tournament=tournament, **fields_of("entries", f | {"team": None}, maps))
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
    _bulk(EntryAbsence, [EntryAbsence(**fields_of("absences", f, maps))
                         for _i, f in plan.rows["absences"]], {})  # fmt: skip
    substitutes = plan.rows["substitutes"]
    created_subs = _bulk(
        Substitute, [Substitute(tournament=tournament, **fields_of("substitutes", f, maps))
                     for _i, f in substitutes],
        {"created_at": [f["created_at"] for _i, f in substitutes]})  # fmt: skip
    for (_i, f), sub in zip(substitutes, created_subs, strict=True):
        remember("substitutes", sub.pk, f)

    # stages (before the rounds that point at them), their seeds as the entries here
    for archive_id, f in plan.rows["stages"]:
        stage = Stage.objects.create(
            tournament=tournament, **fields_of("stages", f, maps),
            seeds=[new["entries"][e] for e in plan.stage_seeds.get(archive_id, [])],
            members=[[new["entries"][e] for e in group]
                     for group in plan.stage_members.get(archive_id, [])],
        )  # fmt: skip
        new["stages"][archive_id] = stage.pk
        remember("stages", stage.pk, f)

    # rounds
    rounds = plan.rows["rounds"]
    objects = []
    for _archive_id, f in rounds:
        values = fields_of("rounds", f, maps)
        if values["status"] == Round.Status.PAIRING:
            notes.append(_("Round %(n)s was being paired when it was exported; it is imported "
                           "as new.") % {"n": f["number"]})  # fmt: skip
            values.update(status=Round.Status.NEW, task_id="", progress=0, step="")
        objects.append(Round(tournament=tournament, **values))
    created_rounds = _bulk(Round, objects, {"created_at": [f["created_at"] for _i, f in rounds]})
    round_of: dict[Any, Round] = {}
    for (archive_id, f), round_ in zip(rounds, created_rounds, strict=True):
        new["rounds"][archive_id] = round_.pk
        round_of[archive_id] = round_
        remember("rounds", round_.pk, f)

    # matches, their deals and history
    matches = plan.rows["matches"]
    created_matches = _bulk(Match, [
        Match(confirm_pin="", **fields_of("matches", f, maps),
              **({"deals_won": f.get("deals_won", {})} if HAS_DEALS_WON else {}))
        for _i, f in matches
    ], {"created_at": [f["created_at"] for _i, f in matches],
        "updated_at": [f["updated_at"] for _i, f in matches]})  # fmt: skip
    for (archive_id, f), match in zip(matches, created_matches, strict=True):
        new["matches"][archive_id] = match.pk
        remember("matches", match.pk, f)
    _bulk(Deal, [Deal(match_id=new["matches"][m], **fields_of("deals", f, maps))
                 for m, f in plan.deals],
          {"created_at": [f["created_at"] for _m, f in plan.deals]})  # fmt: skip
    _bulk(MatchVersion,
          [MatchVersion(match_id=new["matches"][m], **fields_of("history", f, maps))
           for m, f in plan.history],
          {"at": [f["at"] for _m, f in plan.history]})  # fmt: skip
    scoring_services.recount_removals(new["matches"].values())
    for m, f in plan.deals:
        remember("deals", f"{new['matches'][m]}/{f['n']}", f)
    for m, f in plan.history:
        remember("history", f"{new['matches'][m]}/{f['version']}", f)

    # pairings and places
    pairings = plan.rows["pairings"]
    created_pairings = _bulk(Pairing, [Pairing(**fields_of("pairings", f, maps))
                                       for _i, f in pairings], {})  # fmt: skip
    round_by_pairing: dict[Any, int] = {}
    for (archive_id, f), pairing in zip(pairings, created_pairings, strict=True):
        new["pairings"][archive_id] = pairing.pk
        round_by_pairing[archive_id] = new["rounds"][f["round"]]
        remember("pairings", pairing.pk, f)
    _number_matches(created_pairings, round_of)
    _bulk(PairingEntry, [
        PairingEntry(pairing_id=new["pairings"][p], round_id=round_by_pairing[p],
                     **fields_of("places", f, maps))
        for p, f in plan.places
    ], {})  # fmt: skip

    # discipline; the standings snapshots are retaken from what was imported, not read
    sanctions = plan.rows["sanctions"]
    created_sanctions = _bulk(
        Sanction, [Sanction(tournament=tournament, **fields_of("sanctions", f, maps))
                   for _i, f in sanctions],
        {"created_at": [f["created_at"] for _i, f in sanctions]})  # fmt: skip
    for (_i, f), sanction in zip(sanctions, created_sanctions, strict=True):
        remember("sanctions", sanction.pk, f)
    for round_ in sorted(created_rounds, key=lambda r: r.number):
        if round_.status == Round.Status.FINISHED:
            results.take_snapshot(round_)

    # categories (the entries the organiser chose, as the entries here) and prizes
    for archive_id, f in plan.rows["categories"]:
        category = Category.objects.create(tournament=tournament,
                                           **fields_of("categories", f, maps))  # fmt: skip
        new["categories"][archive_id] = category.pk
        category.entries.set([new["entries"][e] for e in plan.category_entries.get(archive_id,
                                                                                    [])])
    _bulk(Prize, [Prize(tournament=tournament, **fields_of("prizes", f, maps))
                  for _i, f in plan.rows["prizes"]], {})  # fmt: skip
    notes += _link_seasons(tournament, plan.seasons, importer)
    tournament.archive_notes = notes  # type: ignore[attr-defined]
    tournament.archive_names = names  # type: ignore[attr-defined]
    return tournament


def _player_differs(player: Player, fields: Mapping[str, Any],
                    club_names: Mapping[Any, str]) -> list[str]:  # fmt: skip
    """A note when the archive says otherwise of a player linked by federation ID."""
    given = {"last_name": fields["last_name"], "first_name": fields["first_name"],
             "club": club_names.get(fields["club"], ""), "rating": fields["rating"]}  # fmt: skip
    here = {"last_name": player.last_name, "first_name": player.first_name,
            "club": player.club.name if player.club else "", "rating": player.rating}  # fmt: skip
    differing = [name for name, value in given.items()
                 if value not in (None, "") and value != here[name]]  # fmt: skip
    if not differing:
        return []
    listed = "; ".join(
        _("%(field)s %(file)s (here %(stored)s)")
        % {"field": Player._meta.get_field(name).verbose_name, "file": quoted(given[name]),
           "stored": quoted("—" if here[name] in (None, "") else here[name])}
        for name in differing
    )  # fmt: skip
    return [
        _(
            "Player %(id)s is linked to the player of this site as he is; the archive "
            "differs: %(differences)s."
        )
        % {"id": player.federation_id, "differences": listed}
    ]


def _link_seasons(tournament: Tournament, seasons: list[dict[str, Any]],
                  importer: User) -> list[str]:  # fmt: skip
    """Count the tournament in the archive's seasons, by name. Seasons are the club's (set up in
    the administration): only staff link an import to them, creating one that is missing; for
    an organiser the seasons are named in a note and linked by staff if they should be."""
    if not seasons:
        return []
    if not getattr(importer, "is_staff", False):
        return [_("The archive counted this tournament in the seasons %(names)s; only an "
                  "administrator adds a tournament to a season.")
                % {"names": ", ".join(quoted(s["name"]) for s in seasons)}]  # fmt: skip
    for item in seasons:
        season, _created = Season.objects.get_or_create(
            name=item["name"], defaults={"scope": item["scope"], "scale": item["scale"],
                                         "best_of": item["best_of"]})  # fmt: skip
        season.tournaments.add(tournament)
    return []


def _number_matches(pairings: list[Pairing], round_of: dict[Any, Round]) -> None:
    """A table's match knows its round (``Match.title`` composes it when shown); an archive made
    before it did has the round in the label («… · тур 4»), taken out here. One update per
    round and one per old label."""
    number = {r.pk: r.number for r in round_of.values()}
    by_round: dict[int, list[int]] = {}
    for pairing in pairings:
        if pairing.match_id is not None:
            by_round.setdefault(number[pairing.round_id], []).append(pairing.match_id)
    for round_number, ids in by_round.items():
        Match.objects.filter(pk__in=ids).update(round=round_number)
    ids = [i for group in by_round.values() for i in group]
    for label in set(Match.objects.filter(pk__in=ids).values_list("label", flat=True)):
        old = LEGACY_ROUND.match(label)
        if old:
            Match.objects.filter(pk__in=ids, label=label).update(label=old["label"])
