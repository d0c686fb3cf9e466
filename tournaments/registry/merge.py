"""Two records of one person made one, and undone from the audit log.

    merge(user, kept_id, dropped_id) -> Player      the dropped record's results move to the kept
    undo(user, merge_id) -> Player                  the dropped record back, as it was
    references()                                    every column that points at a player

A CSV typo, an archive import or a namesake leaves one person as two players. ``merge`` moves
everything that points at the dropped record — his entries, his seats at the tables, the
protocols' seats, his sanctions and substitutions — to the kept one, fills the kept record's
empty fields from the dropped one, deletes the dropped record and asks the ratings to replay
(his matches are now the kept player's). One ``player.merge`` entry goes into the audit log of
every tournament either played in; it holds the dropped record and the rows moved, so ``undo``
can put them back (rows changed since keep their new value). Both sides need ``may_change``.

Refused, with the reason: the same record twice, two records in one tournament (one person
does not play twice in one event: they are two people), two different federation ids.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.apps import apps
from django.db import models, transaction
from django.utils.translation import gettext as _

from accounts import audit
from accounts.models import AuditEntry
from tournaments.errors import Conflict, NotAllowed, TournamentError
from tournaments.models import Club, Entry, Player, PlayerRating, RatingChange, Tournament
from tournaments.ratings import jobs
from tournaments.registration.shared import acting
from tournaments.registry.rights import changeable, tournaments_by_player

#: filled on the kept record when empty there and set on the dropped one
FILLED = ("first_name", "club", "federation_id", "rating", "sex", "birth_year")
#: derived from the matches: dropped with the record and rebuilt by the ratings' replay
DERIVED = (PlayerRating, RatingChange)
MERGE, UNMERGE = "player.merge", "player.unmerge"


def references() -> list[models.ForeignKey]:
    """Every foreign key of the project to ``Player`` (seats, sanctions, substitutes…), found
    from the models so that a new one cannot be forgotten."""
    found = []
    for model in apps.get_models():
        if model in DERIVED or model is Player:
            continue
        for field in model._meta.get_fields():
            if (isinstance(field, models.ForeignKey) and field.concrete
                    and field.related_model is Player):  # fmt: skip
                found.append(field)
    return found


def _key(field: models.Field) -> str:
    return f"{field.model._meta.label}.{field.name}"


def _record(dropped: Player) -> dict[str, Any]:
    return {f.attname: getattr(dropped, f.attname) for f in Player._meta.concrete_fields}


def _locked(ids: list[int]) -> dict[int, Player]:
    return {p.pk: p for p in Player.objects.select_for_update().filter(pk__in=sorted(ids))}


def merge(user: Any, kept_id: int, dropped_id: int) -> Player:
    if kept_id == dropped_id:
        raise TournamentError.one("same_player", _("Choose two different records."), "other")
    with transaction.atomic():
        players = _locked([kept_id, dropped_id])
        if len(players) < 2:
            raise TournamentError.one("not_found", _("No such player."), "other")
        kept, dropped = players[kept_id], players[dropped_id]
        if changeable(user, [kept, dropped]) != {kept_id, dropped_id}:
            raise NotAllowed.one("not_yours", _(
                "Only an organiser of every tournament both players are in, or a site "
                "administrator, may merge them."))  # fmt: skip
        used = tournaments_by_player([kept_id, dropped_id])
        both = used[kept_id] & used[dropped_id]
        if both:
            names = ", ".join(Tournament.objects.filter(pk__in=both).values_list("name",
                                                                                 flat=True))
            raise Conflict.one("same_tournament", _(
                "Both records play in %(names)s: one person does not play twice in one "
                "tournament, so they are two people.") % {"names": names})  # fmt: skip
        if kept.federation_id and dropped.federation_id and (
                kept.federation_id != dropped.federation_id):  # fmt: skip
            raise Conflict.one("two_ids", _(
                "The records have different federation IDs (%(a)s, %(b)s): they are two "
                "people.") % {"a": kept.federation_id, "b": dropped.federation_id})
        record = _record(dropped)
        moved: dict[str, list[int]] = {}
        for field in references():
            rows = field.model._default_manager.filter(**{field.name: dropped_id})
            ids = sorted(rows.values_list("pk", flat=True))
            if ids:
                rows.update(**{field.name: kept_id})
                moved[_key(field)] = ids
        through = Entry.players.through.objects.filter(player_id=dropped_id)
        entries = sorted(through.values_list("entry_id", flat=True))
        through.update(player_id=kept_id)
        moved["tournaments.Entry.players"] = entries
        filled: dict[str, Any] = {}
        for name in FILLED:
            attname = Player._meta.get_field(name).attname
            if getattr(kept, attname) in ("", None) and getattr(dropped, attname) not in ("",
                                                                                          None):
                filled[attname] = getattr(kept, attname)
                setattr(kept, attname, getattr(dropped, attname))
        for model in DERIVED:
            model._default_manager.filter(player_id=dropped_id).delete()
        Player.objects.filter(pk=dropped_id).update(federation_id="")  # unique: free it first
        with acting(user):
            dropped.delete()
            kept.save()
        merge_id = uuid.uuid4().hex
        after = {"merge_id": merge_id, "kept": kept_id, "moved": moved, "filled": filled}
        for tournament_id in sorted(used[kept_id] | used[dropped_id]) or [None]:
            audit.record(user, MERGE, kept, tournament_id=tournament_id,
                         before={"dropped": record}, after=after)  # fmt: skip
        jobs.request()
        return kept


def merge_entry(merge_id: str) -> AuditEntry | None:
    return AuditEntry.objects.filter(action=MERGE, after__merge_id=merge_id).first()


def undone(merge_id: str) -> bool:
    return AuditEntry.objects.filter(action=UNMERGE, after__merge_id=merge_id).exists()


def undo(user: Any, merge_id: str) -> Player:
    with transaction.atomic():
        entry = merge_entry(merge_id)
        if entry is None:
            raise TournamentError.one("not_found", _("No such merge in the log."))
        record = dict(entry.before["dropped"])
        kept_id = entry.after["kept"]
        players = _locked([kept_id, record["id"]])
        if undone(merge_id) or record["id"] in players:
            raise Conflict.one("undone", _("This merge has been undone already."))
        kept = players.get(kept_id)
        if kept is None:
            raise Conflict.one("kept_gone", _(
                "The record the merge kept has been deleted since: nothing to undo."))
        if not changeable(user, [kept]):
            raise NotAllowed.one("not_yours", _(
                "Only an organiser of every tournament the player is in, or a site "
                "administrator, may undo this merge."))  # fmt: skip
        for attname, value in entry.after["filled"].items():
            setattr(kept, attname, value)
        with acting(user):
            kept.save()
            record["club_id"] = Club.objects.filter(pk=record.get("club_id")).values_list(
                "pk", flat=True).first()  # fmt: skip
            record["imported_in_id"] = Tournament.objects.filter(
                pk=record.get("imported_in_id")).values_list("pk", flat=True).first()
            dropped = Player(**record)
            dropped.save(force_insert=True)
        fields = {_key(f): f for f in references()}
        for key, ids in entry.after["moved"].items():
            if key == "tournaments.Entry.players":
                Entry.players.through.objects.filter(entry_id__in=ids, player_id=kept_id).update(
                    player_id=dropped.pk)  # fmt: skip
            elif key in fields:
                field = fields[key]
                field.model._default_manager.filter(pk__in=ids, **{field.name: kept_id}).update(
                    **{field.name: dropped.pk})  # fmt: skip
        used = tournaments_by_player([kept_id, dropped.pk])
        after = {"merge_id": merge_id, "kept": kept_id, "restored": dropped.pk}
        for tournament_id in sorted(used[kept_id] | used[dropped.pk]) or [None]:
            audit.record(user, UNMERGE, dropped, tournament_id=tournament_id, after=after)
        jobs.request()
        return dropped
