"""A federation's rating list read into the registry: previewed, then applied as previewed.

    read(data) -> (rows, problems)          the file: ``federation_id, name, rating`` (a header
                                            row; comma or semicolon; UTF-8, a BOM is fine)
    plan(rows, create) -> Plan              each row against the registry: matched (a rating to
                                            change or unchanged), conflicting, new
    apply(user, rows, create, digest) -> Plan   the plan again, refused if it is no longer the
                                            one previewed (``digest``), then written

Matched is a registry player with the row's federation id and the same name (case, «ё» and
spaces aside; «Last First» or «Last, First»). Conflicting: the id's player has another name,
or the file gives one id twice with different ratings — such rows are listed and never
applied, a person's rating is not moved on a guess. New: no registry player has the id;
created only when the administrator asks. Ratings are changed by model saves inside
``acting(user)``, so the registry's signals log each change in every tournament that uses
the player; one ``registry.rating_import`` entry sums the import up.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from accounts import audit
from tournaments.errors import Conflict, TournamentError
from tournaments.models import Player
from tournaments.registration.shared import acting

MAX_BYTES = 2 * 1024 * 1024
MAX_ROWS = 20_000
RATING_RANGE = (0, 4000)


@dataclass(frozen=True)
class Row:
    line: int
    federation_id: str
    last_name: str
    first_name: str
    rating: int


@dataclass
class Plan:
    changes: list[tuple[Row, Player]] = field(default_factory=list)
    unchanged: list[tuple[Row, Player]] = field(default_factory=list)
    conflicts: list[tuple[Row, str]] = field(default_factory=list)
    new: list[Row] = field(default_factory=list)
    create: bool = False

    def digest(self) -> str:
        """What applying would write: the same digest means the same writes."""
        body = [[r.federation_id, p.pk, p.rating, r.rating] for r, p in self.changes]
        body.append(sorted(r.federation_id for r in self.new) if self.create else [])
        return hashlib.sha256(json.dumps(body).encode()).hexdigest()[:32]


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


def same_name(a: str, b: str) -> bool:
    def norm(text: str) -> str:
        return " ".join(text.replace(",", " ").lower().replace("ё", "е").split())

    return norm(a) == norm(b)


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
        reason = None
        if not value["federation_id"]:
            reason = _("no federation ID")
        elif not last:
            reason = _("no name")
        elif not value["rating"].lstrip("-").isdigit():
            reason = _("the rating «%(value)s» is not a whole number") % {"value": value["rating"]}
        elif not RATING_RANGE[0] <= int(value["rating"]) <= RATING_RANGE[1]:
            reason = _("the rating %(value)s is outside 0–4000") % {"value": value["rating"]}
        if reason:
            problems.append(_("Line %(line)s: %(reason)s.") % {"line": number, "reason": reason})
            continue
        rows.append(Row(number, value["federation_id"][:50], last[:100], first[:100],
                        int(value["rating"])))  # fmt: skip
    return rows, problems


def plan(rows: list[Row], create: bool, lock: bool = False) -> Plan:
    result = Plan(create=create)
    ratings: dict[str, set[int]] = {}
    for row in rows:
        ratings.setdefault(row.federation_id, set()).add(row.rating)
    players = Player.objects.in_registry().filter(federation_id__in=list(ratings))
    if lock:
        players = players.select_for_update()
    known = {p.federation_id: p for p in players}
    seen: set[str] = set()
    for row in rows:
        player = known.get(row.federation_id)
        if len(ratings[row.federation_id]) > 1:
            result.conflicts.append((row, _("the list gives this ID more than one rating")))
        elif row.federation_id in seen:
            continue  # the same line again
        elif player is None:
            result.new.append(row)
        elif not same_name(player.full_name, f"{row.last_name} {row.first_name}"):
            result.conflicts.append((row, _("the registry's player with this ID is %(name)s")
                                     % {"name": player.full_name}))  # fmt: skip
        elif player.rating == row.rating:
            result.unchanged.append((row, player))
        else:
            result.changes.append((row, player))
        seen.add(row.federation_id)
    return result


def apply(user: Any, rows: list[Row], create: bool, digest: str) -> Plan:
    with transaction.atomic():
        result = plan(rows, create, lock=True)
        if result.digest() != digest:
            raise Conflict.one("changed", _(
                "The registry has changed since the preview: check the new preview and apply "
                "it again."))  # fmt: skip
        with acting(user):
            for row, player in result.changes:
                player.rating = row.rating
                player.save(update_fields=["rating"])
            if create:
                for row in result.new:
                    Player.objects.create(last_name=row.last_name, first_name=row.first_name,
                                          federation_id=row.federation_id, rating=row.rating)
        audit.record(user, "registry.rating_import", None, object_type="player", after={
            "changed": len(result.changes), "unchanged": len(result.unchanged),
            "conflicts": len(result.conflicts), "created": len(result.new) if create else 0})
        return result
