"""Import of players, clubs and entries from a CSV file: all of it, or nothing.

The file is UTF-8 (a byte-order mark is fine), comma- or semicolon-separated, with a header row.
One row per player; the columns, in any order (only ``last_name`` is required):

    entry          a key that groups rows: rows with the same key form one pair (or team
                   pair); digits («1»…«16») are as good as words. Empty where an entry is one
                   player (individual, head to head, each for himself).
    name           the entry's name, if it has one; else a pair is named after its players'
                   surnames («Иванов – Петров», ``names.py``) and one player by the full name
    last_name      фамилия
    first_name     имя
    club           the club's name; created if unknown
    city           the club's city (used when the club is created)
    rating         a whole number
    federation_id  a player with this id is linked, else one is created
    seed           the entry's seed (a whole number; the same on every row of the entry)
    team           teams format: the club team the pair plays for; created if unknown

Every bad line is reported with its number (the header is line 1) and the reason; if any line
is bad nothing is written. A good file is imported in one transaction.

Players and clubs are shared by every tournament of the site (federation IDs are public), so a
file never changes one that exists: a known federation ID links the stored player as it is, a
known club name the stored club, and every value of the file that differs from what is stored
is reported on its line (``ImportResult.notes``, code ``player_differs`` or ``club_differs``)
and in the import's audit entry. Empty cells are "not given", not a difference.
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from accounts import audit
from config.inputs import quoted, validate_name
from tournaments import formats
from tournaments.access import User, locked_tournament
from tournaments.errors import TournamentError, error
from tournaments.models import Club, Entry, Player, Tournament
from tournaments.registration.names import entry_name
from tournaments.registration.services import next_round_number

COLUMNS = ("entry", "name", "last_name", "first_name", "club", "city", "rating", "federation_id",
           "seed", "team")  # fmt: skip
MAX_BYTES = 2_000_000


@dataclass
class Row:
    line: int
    entry: str
    name: str
    last_name: str
    first_name: str
    club: str
    city: str
    rating: int | None
    federation_id: str
    seed: int | None
    team: str


@dataclass
class ImportResult:
    clubs: int = 0
    players: int = 0
    entries: int = 0
    teams: int = 0
    lines: int = 0
    created: list[str] = field(default_factory=list)
    #: existing players linked as they are, and what the file said differently (per line)
    linked: list[int] = field(default_factory=list)
    notes: list[dict[str, Any]] = field(default_factory=list)


def _bad(line: int, column: str | None, code: str, message: str) -> dict[str, Any]:
    item = error(code, _("Line %(line)s: %(reason)s") % {"line": line, "reason": message},
                 f"line.{line}" + (f".{column}" if column else ""))  # fmt: skip
    item["line"] = line
    return item


def _decode(data: bytes | str) -> str:
    if not isinstance(data, str | bytes):  # a JSON body's "csv" that is not text
        raise TournamentError.one("not_text", _("Give the CSV as text or as a file."), "csv")
    if isinstance(data, str):
        return data.lstrip("\ufeff")
    if len(data) > MAX_BYTES:
        raise TournamentError.one("too_big", _("The file is too large (2 MB at most)."), "file")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise TournamentError([_bad(line, None, "not_utf8", _("the file is not UTF-8 text."))]
                              ) from err  # fmt: skip


def _whole(value: str, line: int, column: str, errors: list[dict[str, Any]]) -> int | None:
    if not value:
        return None
    try:
        number = int(value)
    except ValueError:
        errors.append(_bad(line, column, "not_a_number",
                           _("%(column)s must be a whole number, not «%(value)s».")
                           % {"column": column, "value": value}))  # fmt: skip
        return None
    if number < 0 or (column == "seed" and number == 0):
        errors.append(_bad(line, column, "out_of_range",
                           _("%(column)s must be positive.") % {"column": column}))  # fmt: skip
        return None
    return number


def parse(text: str) -> tuple[list[Row], list[dict[str, Any]]]:
    """The rows of the file and every problem of a single line (a file the csv module cannot
    read at all, a quote left open, is one problem at the line it stopped)."""
    try:
        return _parse(text)
    except csv.Error as err:
        line = int(getattr(err, "line", 0) or text.count("\n") + 1)
        return [], [_bad(line, None, "bad_csv", _("the file cannot be read as CSV."))]


def _parse(text: str) -> tuple[list[Row], list[dict[str, Any]]]:
    lines = text.splitlines()
    if not lines or not lines[0].strip():
        return [], [_bad(1, None, "no_header", _("the header row is missing."))]
    delimiter = ";" if lines[0].count(";") > lines[0].count(",") else ","
    # newline="": the csv module reads line ends itself (a lone "\r" is one too)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    header = [name.strip().lower() for name in next(reader)]
    errors: list[dict[str, Any]] = []
    unknown = [name for name in header if name not in COLUMNS]
    if unknown:
        errors.append(_bad(1, None, "unknown_column",
                           _("unknown column(s): %(names)s; known: %(known)s.")
                           % {"names": ", ".join(unknown), "known": ", ".join(COLUMNS)}))
    if "last_name" not in header:
        errors.append(_bad(1, None, "no_last_name", _("the column last_name is required.")))
    if len(set(header)) != len(header):
        errors.append(_bad(1, None, "duplicate_column", _("a column is named twice.")))
    if errors:
        return [], errors
    rows: list[Row] = []
    for values in reader:
        line = reader.line_num
        if not any(v.strip() for v in values):
            continue
        if len(values) != len(header):
            errors.append(_bad(line, None, "columns",
                               _("%(found)s values where the header has %(wanted)s.")
                               % {"found": len(values), "wanted": len(header)}))
            continue
        cell = defaultdict(str, zip(header, (v.strip() for v in values), strict=True))
        get = cell.__getitem__
        if not get("last_name"):
            errors.append(_bad(line, "last_name", "required", _("the last name is empty.")))
        for name, limit in (("entry", 200), ("name", 200), ("last_name", 100), ("first_name", 100),
                            ("club", 200), ("city", 100), ("federation_id", 50), ("team", 200)):
            if len(get(name)) > limit:
                errors.append(_bad(line, name, "too_long",
                                   _("%(column)s is longer than %(n)s characters.")
                                   % {"column": name, "n": limit}))
            try:
                validate_name(get(name))
            except ValidationError as err:
                errors.append(_bad(line, name, "invisible_character", err.messages[0]))
        rows.append(Row(
            line=line, entry=get("entry"), name=get("name"), last_name=get("last_name"),
            first_name=get("first_name"), club=get("club"), city=get("city"),
            rating=_whole(get("rating"), line, "rating", errors),
            federation_id=get("federation_id"), seed=_whole(get("seed"), line, "seed", errors),
            team=get("team"),
        ))  # fmt: skip
    if not rows and not errors:
        errors.append(_bad(1, None, "empty", _("the file has no rows.")))
    return rows, errors


def _check_entries(tournament: Tournament, rows: list[Row]) -> list[dict[str, Any]]:
    """Problems that need several rows or the database: pair sizes, names and seeds taken."""
    errors: list[dict[str, Any]] = []
    fmt = tournament.format
    by_entry: dict[str, list[Row]] = defaultdict(list)
    seen_fed: dict[str, int] = {}
    for row in rows:
        if row.federation_id:
            if row.federation_id in seen_fed:
                errors.append(_bad(row.line, "federation_id", "duplicate",
                                   _("federation id %(id)s is also on line %(other)s.")
                                   % {"id": row.federation_id,
                                      "other": seen_fed[row.federation_id]}))
            seen_fed.setdefault(row.federation_id, row.line)
        name = row.entry or (row.last_name + " " + row.first_name).strip()
        if formats.players_per_entry(fmt) > 1 and not row.entry:
            errors.append(_bad(row.line, "entry", "required", _("the entry's name is empty.")))
            continue
        if fmt == Tournament.Format.TEAMS and not row.team:
            errors.append(_bad(row.line, "team", "required", _("the team's name is empty.")))
        by_entry[name].append(row)
    playing = set(Player.objects.filter(
        entries__tournament=tournament, entries__status=Entry.Status.ACTIVE,
        federation_id__in=list(seen_fed)).values_list("federation_id", flat=True))  # fmt: skip
    for row in rows:
        if row.federation_id in playing:
            errors.append(_bad(row.line, "federation_id", "player_taken",
                               _("the player %(id)s already plays in this tournament.")
                               % {"id": row.federation_id}))  # fmt: skip
    wanted = formats.players_per_entry(fmt)
    taken = set(tournament.entries.values_list("name", flat=True))
    taken_seeds = set(tournament.entries.exclude(seed=None).values_list("seed", flat=True))
    seeds: dict[int, str] = {}
    for name, group in by_entry.items():
        first = group[0]
        if len(group) != wanted:
            for row in group:
                errors.append(_bad(row.line, "entry", "players_count",
                                   _("entry %(name)s has %(found)s player(s), not %(wanted)s.")
                                   % {"name": quoted(name), "found": len(group), "wanted": wanted}))
        given = list(dict.fromkeys(r.name for r in group if r.name))
        if len(given) > 1:
            errors.append(_bad(group[-1].line, "name", "name_differs",
                               _("the rows of entry %(name)s give different names.")
                               % {"name": quoted(name)}))
        for named in given[:1]:
            if named in taken:
                errors.append(_bad(first.line, "name", "taken",
                                   _("entry %(name)s is already registered.")
                                   % {"name": quoted(named)}))
            taken.add(named)
        entry_seeds = {r.seed for r in group if r.seed is not None}
        if len(entry_seeds) > 1:
            errors.append(_bad(group[-1].line, "seed", "seed_differs",
                               _("the rows of entry %(name)s give different seeds.")
                               % {"name": quoted(name)}))
        for seed in entry_seeds:
            if seed in taken_seeds or seeds.get(seed, name) != name:
                errors.append(_bad(first.line, "seed", "seed_taken",
                                   _("seed %(seed)s is already taken.") % {"seed": seed}))
            seeds[seed] = name
        teams = {r.team for r in group}
        if fmt == Tournament.Format.TEAMS and len(teams) > 1:
            errors.append(_bad(group[-1].line, "team", "team_differs",
                               _("the rows of entry %(name)s give different teams.")
                               % {"name": quoted(name)}))
    return errors


def import_csv(user: User, tournament_id: int, data: bytes | str) -> ImportResult:
    """Import the file into the tournament, or raise ``TournamentError`` listing every bad line."""
    text = _decode(data)
    rows, errors = parse(text)
    with transaction.atomic():
        tournament = locked_tournament(user, tournament_id)
        if rows:
            errors += _check_entries(tournament, rows)
        if errors:
            raise TournamentError(sorted(errors, key=lambda e: e["line"]))
        result = _write(tournament, rows)
        audit.record(user, "entry.import", tournament, tournament_id=tournament.pk,
                     after={"lines": result.lines, "entries": result.entries,
                            "players": result.players, "clubs": result.clubs,
                            "teams": result.teams, "linked": result.linked,
                            "differences": len(result.notes)})  # fmt: skip
        return result


def _shown(value: Any) -> str:
    return "—" if value in (None, "") else str(value)


def _differences(player: Player, row: Row, club: Club | None) -> dict[str, dict[str, Any]]:
    """What the row says differently about a stored player (empty cells say nothing)."""
    given = {"last_name": row.last_name, "first_name": row.first_name,
             "club": club.name if club else "", "rating": row.rating}  # fmt: skip
    here = {"last_name": player.last_name, "first_name": player.first_name,
            "club": player.club.name if player.club else "", "rating": player.rating}  # fmt: skip
    return {name: {"stored": here[name], "file": value} for name, value in given.items()
            if value not in (None, "") and value != here[name]}  # fmt: skip


def _player_note(row: Row, differences: dict[str, dict[str, Any]]) -> dict[str, Any]:
    listed = "; ".join(
        _("%(field)s %(file)s (here %(stored)s)")
        % {"field": Player._meta.get_field(name).verbose_name, "file": quoted(_shown(d["file"])),
           "stored": quoted(_shown(d["stored"]))}
        for name, d in differences.items()
    )  # fmt: skip
    note = _bad(row.line, "federation_id", "player_differs",
                _("player %(id)s is already on this site and was linked unchanged; the file "
                  "differs: %(differences)s.") % {"id": row.federation_id, "differences": listed})
    note["differences"] = differences
    return note


def _club_note(row: Row, club: Club) -> dict[str, Any]:
    note = _bad(row.line, "city", "club_differs",
                _("the club %(club)s is already on this site with the city %(stored)s and was "
                  "kept unchanged (the file says %(file)s).")
                % {"club": quoted(club.name), "stored": quoted(_shown(club.city)),
                   "file": quoted(row.city)})
    note["differences"] = {"city": {"stored": club.city, "file": row.city}}
    return note


def _write(tournament: Tournament, rows: list[Row]) -> ImportResult:
    result = ImportResult(lines=len(rows))
    clubs = {c.name: c for c in Club.objects.filter(name__in={r.club for r in rows if r.club})}
    known = {p.federation_id: p for p in Player.objects.select_related("club").filter(
        federation_id__in={r.federation_id for r in rows if r.federation_id})}  # fmt: skip
    joins = next_round_number(tournament)
    entries: dict[str, Entry] = {}
    members: dict[str, list[Player]] = {}
    teams: dict[str, Entry] = {
        e.name: e for e in tournament.entries.filter(team=None, name__in={r.team for r in rows})
    }
    existing_clubs = set(clubs)
    noted_clubs: set[str] = set()
    for row in rows:
        club = None
        if row.club:
            club = clubs.get(row.club)
            if club is None:
                club = clubs[row.club] = Club.objects.create(name=row.club, city=row.city)
                result.clubs += 1
            elif (row.club in existing_clubs and row.city and row.city != club.city
                  and row.club not in noted_clubs):  # fmt: skip
                noted_clubs.add(row.club)
                result.notes.append(_club_note(row, club))
        player = known.get(row.federation_id) if row.federation_id else None
        if player is None:
            player = Player.objects.create(
                last_name=row.last_name, first_name=row.first_name, club=club,
                rating=row.rating, federation_id=row.federation_id,
            )  # fmt: skip
            result.players += 1
        else:
            # shared with other tournaments: linked as stored, never rewritten from the file
            result.linked.append(player.pk)
            differences = _differences(player, row, club)
            if differences:
                result.notes.append(_player_note(row, differences))
        team = None
        if tournament.format == Tournament.Format.TEAMS and row.team:
            team = teams.get(row.team)
            if team is None:
                team = teams[row.team] = Entry.objects.create(
                    tournament=tournament, name=row.team, club=club, joins_round=joins
                )
                result.teams += 1
        key = row.entry or player.full_name
        entry = entries.get(key)
        if entry is None:
            entry = entries[key] = Entry(
                tournament=tournament, name=row.name, club=club, seed=row.seed, team=team,
                joins_round=joins,
            )  # fmt: skip
            members[key] = []
        elif entry.seed is None and row.seed is not None:
            entry.seed = row.seed
        if row.name and not entry.name:
            entry.name = row.name
        members[key].append(player)
    # named once all its rows are read: a pair after both players, unless the file names it
    taken = set(tournament.entries.values_list("name", flat=True))
    taken |= {e.name for e in entries.values() if e.name}
    for key, entry in entries.items():
        if not entry.name:
            entry.name = entry_name(members[key], taken)
            taken.add(entry.name)
        entry.save()
        entry.players.add(*members[key])
        result.entries += 1
        result.created.append(entry.name)
    return result
