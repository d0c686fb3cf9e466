"""A federation's rating list read into the registry: previewed, then applied as previewed.

    read(data) -> (rows, problems)          the file: ``federation_id, name, rating`` (a header
                                            row; comma or semicolon; UTF-8, a BOM is fine)
    plan(rows, create) -> Plan              each row against the registry: matched (a rating to
                                            change or unchanged), conflicting, new
    apply(user, rows, create, digest, accept=()) -> Plan   the plan again, refused if it is no
                                            longer the one previewed (``digest``), then written

Matched is a registry player with the row's federation id and the same name (case, «ё» and
spaces aside; «Last First» or «Last, First»). Conflicting: the id's player has another name
(applied only when the administrator ticks that line: ``accept``), the file gives one id
twice with different ratings or names, or the id belongs to a player an archive import made,
outside the registry (never applied) — a person's rating is not moved on a guess. New: no
player has the id; created only when the administrator asks. Ratings are changed by model
saves inside ``acting(user)``, so the registry's signals log each change in every tournament
that uses the player; one ``registry.rating_import`` entry sums the import up.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from accounts import audit
from config.inputs import validate_name
from tournaments.errors import Conflict, NotAllowed, TournamentError
from tournaments.models import Player
from tournaments.registration.shared import acting

MAX_BYTES = 2 * 1024 * 1024
MAX_ROWS = 20_000
RATING_RANGE = (0, 4000)
#: the longest federation id, last and first name the registry keeps (``Player``'s fields)
LIMITS = {"federation_id": 50, "last_name": 100, "first_name": 100}


@dataclass(frozen=True)
class Row:
    line: int
    federation_id: str
    last_name: str
    first_name: str
    rating: int


@dataclass(frozen=True)
class Clash:
    """A conflicting row; ``player`` is set when the administrator may still apply it (the
    id's registry player has another name), else it is never applied."""

    row: Row
    why: str
    player: Player | None = None


@dataclass
class Plan:
    changes: list[tuple[Row, Player]] = field(default_factory=list)
    unchanged: list[tuple[Row, Player]] = field(default_factory=list)
    conflicts: list[Clash] = field(default_factory=list)
    new: list[Row] = field(default_factory=list)
    create: bool = False
    #: how many of ``changes`` are conflicts the administrator ticked (``apply``)
    ticked: int = 0

    def digest(self) -> str:
        """What applying could write: the same digest means the same writes (the conflicts an
        administrator may tick included, with the name he saw)."""
        body: list[Any] = [[r.federation_id, p.pk, p.rating, r.rating] for r, p in self.changes]
        body.append([[c.row.line, c.player.pk, c.player.full_name, c.player.rating, c.row.rating]
                     for c in self.conflicts if c.player])  # fmt: skip
        body.append(sorted(r.federation_id for r in self.new) if self.create else [])
        return hashlib.sha256(json.dumps(body).encode()).hexdigest()[:32]

    def accepted(self, lines: Collection[int]) -> list[tuple[Row, Player]]:
        """The conflicts ticked on the preview that may be applied."""
        return [(c.row, c.player) for c in self.conflicts if c.player and c.row.line in lines]


def decode(data: bytes | str) -> str:
    if isinstance(data, str):
        if len(data.encode()) > MAX_BYTES:
            raise TournamentError.one("too_big", _("The list is too large (2 MB at most)."))
        return data.lstrip("\ufeff")
    if len(data) > MAX_BYTES:
        raise TournamentError.one("too_big", _("The list is too large (2 MB at most)."))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise TournamentError.one("not_utf8", _("The file is not UTF-8 text.")) from err


def split_name(name: str) -> tuple[str, str]:
    """«Иванов Пётр», «Иванов, Пётр» → ("Иванов", "Пётр")."""
    if "," in name:
        last, _comma, first = name.partition(",")
    else:
        last, _space, first = name.strip().partition(" ")
    return " ".join(last.split()), " ".join(first.split())


def normal_name(text: str) -> str:
    return " ".join(text.replace(",", " ").lower().replace("ё", "е").split())


def same_name(a: str, b: str) -> bool:
    return normal_name(a) == normal_name(b)


def _refusal(value: dict[str, str], last: str, first: str) -> str | None:
    """Why a row cannot be read, or None."""
    if not value["federation_id"]:
        return _("no federation ID")
    if not last:
        return _("no name")
    for column, text in (("federation_id", value["federation_id"]), ("last_name", last),
                         ("first_name", first)):  # fmt: skip
        if len(text) > LIMITS[column]:
            return (_("%(column)s is longer than %(n)s characters.") % {
                "column": "federation_id" if column == "federation_id" else "name",
                "n": LIMITS[column]}).rstrip(".")  # fmt: skip
        try:
            validate_name(text)
        except ValidationError as err:
            return err.messages[0].rstrip(".")
    if not value["rating"].lstrip("-").isdigit():
        return _("the rating «%(value)s» is not a whole number") % {"value": value["rating"]}
    if not RATING_RANGE[0] <= int(value["rating"]) <= RATING_RANGE[1]:
        return _("the rating %(value)s is outside 0–4000") % {"value": value["rating"]}
    return None


def read(data: bytes | str) -> tuple[list[Row], list[str]]:
    text = decode(data)
    lines = text.splitlines()
    if not lines or not lines[0].strip():
        raise TournamentError.one("no_header", _("The header row is missing."))
    delimiter = ";" if lines[0].count(";") > lines[0].count(",") else ","
    try:
        table = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))
    except csv.Error as err:
        raise TournamentError.one("bad_csv", _("The file cannot be read as CSV.")) from err
    header = [cell.strip().lower() for cell in table[0]]
    missing = [c for c in ("federation_id", "name", "rating") if c not in header]
    if missing:
        raise TournamentError.one("no_column", _(
            "The header needs the columns federation_id, name and rating; missing: %(names)s."
        ) % {"names": ", ".join(missing)})  # fmt: skip
    if len(table) - 1 > MAX_ROWS:
        raise TournamentError.one("too_many", _("The list has more than %(n)s rows.")
                                  % {"n": MAX_ROWS})  # fmt: skip
    at = {name: header.index(name) for name in ("federation_id", "name", "rating")}
    rows, problems = [], []
    for number, cells in enumerate(table[1:], start=2):
        if not any(cell.strip() for cell in cells):
            continue
        value = {k: (cells[i].strip() if i < len(cells) else "") for k, i in at.items()}
        last, first = split_name(value["name"])
        reason = _refusal(value, last, first)
        if reason:
            problems.append(_("Line %(line)s: %(reason)s.") % {"line": number, "reason": reason})
            continue
        rows.append(Row(number, value["federation_id"], last, first, int(value["rating"])))
    return rows, problems


def plan(rows: list[Row], create: bool, lock: bool = False) -> Plan:
    result = Plan(create=create)
    ratings: dict[str, set[int]] = {}
    names: dict[str, set[str]] = {}
    for row in rows:
        ratings.setdefault(row.federation_id, set()).add(row.rating)
        names.setdefault(row.federation_id, set()).add(
            normal_name(f"{row.last_name} {row.first_name}"))
    # every holder of an id, in the registry or not: the id is unique among all players
    players = Player.objects.filter(federation_id__in=list(ratings)).order_by("pk")
    if lock:
        players = players.select_for_update()
    known = {p.federation_id: p for p in players}
    seen: set[str] = set()
    for row in rows:
        player = known.get(row.federation_id)
        if len(ratings[row.federation_id]) > 1:
            result.conflicts.append(Clash(row, _("the list gives this ID more than one rating")))
        elif len(names[row.federation_id]) > 1:
            result.conflicts.append(Clash(row, _("the list gives this ID more than one name")))
        elif row.federation_id in seen:
            continue  # the same line again
        elif player is None:
            result.new.append(row)
        elif not player.in_registry:
            result.conflicts.append(Clash(row, _(
                "the ID belongs to %(name)s, a player an archive import added, not in the "
                "registry") % {"name": player.full_name}))  # fmt: skip
        elif not same_name(player.full_name, f"{row.last_name} {row.first_name}"):
            result.conflicts.append(Clash(row, _("the registry's player with this ID is "
                                                 "%(name)s") % {"name": player.full_name},
                                          player))  # fmt: skip
        elif player.rating == row.rating:
            result.unchanged.append((row, player))
        else:
            result.changes.append((row, player))
        seen.add(row.federation_id)
    return result


def apply(user: Any, rows: list[Row], create: bool, digest: str,
          accept: Collection[int] = ()) -> Plan:  # fmt: skip
    """Write the plan previewed (``digest``) and the conflicts ticked on it (their lines,
    ``accept``); the plan's ``changes`` then hold the ticked conflicts too. Superusers only,
    whoever calls: the registry's ratings seed every organiser's tournaments."""
    if not getattr(user, "is_superuser", False):
        raise NotAllowed.one("not_allowed", _("Only a site administrator imports a rating list: "
                                              "the registry's ratings seed every organiser's "
                                              "tournaments."))  # fmt: skip
    changed = Conflict.one("changed", _(
        "The registry has changed since the preview: check the new preview and apply it again."))
    try:
        with transaction.atomic():
            result = plan(rows, create, lock=True)
            if result.digest() != digest:
                raise changed
            ticked = result.accepted(accept)
            result.changes += ticked
            result.ticked = len(ticked)
            result.conflicts = [c for c in result.conflicts
                                if (c.row, c.player) not in ticked]  # fmt: skip
            with acting(user):
                for row, player in result.changes:
                    if player.rating != row.rating:
                        player.rating = row.rating
                        player.save(update_fields=["rating"])
                for row in result.new if create else []:
                    Player.objects.create(last_name=row.last_name, first_name=row.first_name,
                                          federation_id=row.federation_id, rating=row.rating)
            audit.record(user, "registry.rating_import", None, object_type="player", after={
                "changed": len(result.changes), "unchanged": len(result.unchanged),
                "conflicts": len(result.conflicts), "accepted": len(ticked),
                "created": len(result.new) if create else 0})  # fmt: skip
    except IntegrityError as err:  # an id taken by a player added meanwhile
        raise changed from err
    return result
