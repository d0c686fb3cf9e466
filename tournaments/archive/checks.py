"""What the API refuses, the archive refuses too, with the same translated message and the row
named: counts (before a row is read), the registry's fields, a player once per entry and once
per table and round (directly or as a substitute), and teams.

    check_counts(problems, data)       the caps of ``LIMITS`` (an archive of 200,000 players is
                                       refused before anything is read or written)
    check_rows(problems, plan)         the rows' meaning, as ``registration``, ``substitutes``
                                       and ``scoring`` check the same data
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from tournaments.archive.format import SEATS
from tournaments.models import Category, Club, Entry, Player, Prize

#: the most rows of a list an archive may have (a 200-pair, 15-round event is far below)
LIMITS = {"clubs": 2_000, "players": 5_000, "entries": 3_000, "absences": 30_000,
          "substitutes": 5_000, "stages": 10, "rounds": 600, "matches": 30_000, "pairings": 30_000,
          "sanctions": 10_000, "standings": 600_000, "categories": 200,
          "prizes": 2_000}  # fmt: skip
#: deals and history rows of one match (the rules' deal limit is far below)
MAX_PER_MATCH = 1_000


class Problems(Protocol):
    def problem(self, code: str, message: Any, field: str | None = None) -> None: ...


def check_counts(problems: Problems, data: Mapping[str, Any]) -> bool:
    """False when a list is longer than its cap (the rest is not read)."""
    ok = True
    for section, cap in LIMITS.items():
        rows = data.get(section)
        if isinstance(rows, list) and len(rows) > cap:
            problems.problem("too_many", _("The archive has %(n)s rows in “%(name)s”; at most "
                                           "%(cap)s are imported.")
                             % {"n": len(rows), "name": section, "cap": cap}, section)  # fmt: skip
            ok = False
    for i, match in enumerate(data.get("matches") or []):
        for name in ("deals", "history"):
            rows = match.get(name) if isinstance(match, Mapping) else None
            if isinstance(rows, list) and len(rows) > MAX_PER_MATCH:
                problems.problem("too_many", _("The archive has %(n)s rows in “%(name)s”; at "
                                               "most %(cap)s are imported.")
                                 % {"n": len(rows), "name": name, "cap": MAX_PER_MATCH},
                                 f"matches[{i}].{name}")  # fmt: skip
                ok = False
    return ok


def _clean(problems: Problems, obj: Any, where: str, exclude: list[str]) -> None:
    try:
        obj.full_clean(exclude=exclude, validate_unique=False, validate_constraints=False)
    except ValidationError as err:
        for field, messages in err.message_dict.items():
            for message in messages:
                problems.problem("bad_value", message, f"{where}.{field}")


def _registry(problems: Problems, plan: Any) -> None:
    """Clubs and players as the registry's forms check them; a federation ID once."""
    for i, (_id, f) in enumerate(plan.rows["clubs"]):
        _clean(problems, Club(**f), f"clubs[{i}]", [])
    seen: dict[str, int] = {}
    for i, (_id, f) in enumerate(plan.rows["players"]):
        fields = {k: v for k, v in f.items() if k != "club"}
        _clean(problems, Player(**fields), f"players[{i}]", ["club", "imported_in"])
        fid = f.get("federation_id")
        if fid and fid in seen:
            problems.problem("duplicate_player", _("A player is listed twice."),
                             f"players[{i}].federation_id")  # fmt: skip
        elif fid:
            seen[fid] = i


def _entries(problems: Problems, plan: Any) -> None:
    """A player in one active entry, once; a pair's team a team of the tournament."""
    names = {pid: f"{f['last_name']} {f['first_name']}".strip() for pid, f in plan.rows["players"]}
    entries = dict(plan.rows["entries"])
    index = {eid: i for i, (eid, _f) in enumerate(plan.rows["entries"])}
    has_pairs = {f["team"] for _e, f in plan.rows["entries"] if f.get("team") is not None}
    for eid, f in plan.rows["entries"]:
        team = f.get("team")
        if team is not None and (team == eid or entries[team].get("team") is not None
                                 or eid in has_pairs):  # fmt: skip
            problems.problem("bad_team", _("No such team in this tournament."),
                             f"entries[{index[eid]}].team")  # fmt: skip
    members: dict[Any, list[Any]] = {}
    for eid, pid in plan.entry_players:
        members.setdefault(eid, []).append(pid)
    playing: dict[Any, Any] = {}
    for eid, pids in members.items():
        where = f"entries[{index[eid]}].players"
        if len(set(pids)) != len(pids):
            problems.problem("duplicate_player", _("A player is listed twice."), where)
        if entries[eid].get("status") != Entry.Status.ACTIVE:
            continue
        for pid in set(pids):
            if playing.setdefault(pid, eid) != eid:
                problems.problem("player_taken", _("%(name)s already plays in another entry.")
                                 % {"name": names.get(pid, pid)}, where)  # fmt: skip
    plan.playing = playing


def _substitutes(problems: Problems, plan: Any) -> None:
    """A substitute is a reserve: not a player of an active entry, for one player at a time."""
    names = {pid: f"{f['last_name']} {f['first_name']}".strip() for pid, f in plan.rows["players"]}
    spans: dict[Any, list[tuple[int, float]]] = {}
    for i, (_id, f) in enumerate(plan.rows["substitutes"]):
        where = f"substitutes[{i}]"
        if f["player"] in plan.playing or f["player"] == f["replaced"]:
            problems.problem("player", _(
                "%(name)s already plays in this tournament; a substitute is a reserve or "
                "another player of the club.") % {"name": names.get(f["player"])},
                f"{where}.player")  # fmt: skip
        if (f["entry"], f["replaced"]) not in plan.member_pairs:
            problems.problem(
                "replaced",
                _("Choose a player of an active entry of this tournament."),
                f"{where}.replaced",
            )
        first, last = f["from_round"], f["to_round"] if f["to_round"] is not None else 1e9
        for key in (("player", f["player"]), ("replaced", f["replaced"], f["entry"])):
            taken = spans.setdefault(key, [])
            if any(a <= last and first <= b for a, b in taken):
                problems.problem("overlap", _(
                    "%(name)s already has a substitute from round %(n)s; remove it first.")
                    % {"name": names.get(key[1]), "n": first}, f"{where}.from_round")  # fmt: skip
            taken.append((first, last))


def _seats(problems: Problems, plan: Any) -> None:
    """A player takes one seat of a match and one table of a round."""
    round_of_match: dict[Any, Any] = {}
    seated: dict[tuple[Any, Any], int] = {}
    numbers = {rid: f["number"] for rid, f in plan.rows["rounds"]}
    names = {pid: f"{f['last_name']} {f['first_name']}".strip() for pid, f in plan.rows["players"]}
    for i, (_pid, f) in enumerate(plan.rows["pairings"]):
        if f.get("match") is not None:
            round_of_match[f["match"]] = f["round"]
        seen = [f[s] for s in SEATS if f.get(s) is not None]
        if len(set(seen)) != len(seen):
            problems.problem("duplicate_player", _("A player cannot take two seats."),
                             f"pairings[{i}].seats")  # fmt: skip
        for pid in set(seen):
            other = seated.setdefault((f["round"], pid), i)
            if other != i:
                problems.problem("seat_taken", _(
                    "Round %(n)s: %(name)s sits at two tables (rows %(a)s and %(b)s).")
                    % {"n": numbers.get(f["round"]), "name": names.get(pid), "a": other,
                       "b": i}, f"pairings[{i}].seats")  # fmt: skip
    for i, (_mid, f) in enumerate(plan.rows["matches"]):
        seen = [f[s] for s in SEATS if f.get(s) is not None]
        if len(set(seen)) != len(seen):
            problems.problem("duplicate_player", _("A player cannot take two seats."),
                             f"matches[{i}].seats")  # fmt: skip


def _prizes(problems: Problems, plan: Any) -> None:
    """Categories and prizes as the prizes page checks them: a name once, ages and ratings in
    order, one prize per place of a list."""
    names: set[str] = set()
    for i, (_id, f) in enumerate(plan.rows["categories"]):
        fields = {k: v for k, v in f.items() if k != "club"}
        category = Category(**fields)
        _clean(problems, category, f"categories[{i}]", ["tournament", "club"])
        try:
            category.validate_constraints(exclude=["tournament", "club"])
        except ValidationError as err:
            for message in err.messages:
                problems.problem("bad_value", message, f"categories[{i}]")
        if f["name"] in names:
            problems.problem("duplicate", _("A category is listed twice."),
                             f"categories[{i}].name")  # fmt: skip
        names.add(f["name"])
    places: set[tuple[Any, Any]] = set()
    for i, (_id, f) in enumerate(plan.rows["prizes"]):
        fields = {k: v for k, v in f.items() if k != "category"}
        _clean(problems, Prize(**fields), f"prizes[{i}]", ["tournament", "category"])
        if (f["category"], f["place"]) in places:
            problems.problem("duplicate", _("A prize is listed twice."), f"prizes[{i}].place")
        places.add((f["category"], f["place"]))


def check_rows(problems: Problems, plan: Any) -> None:
    plan.member_pairs = set(plan.entry_players)
    _registry(problems, plan)
    _prizes(problems, plan)
    _entries(problems, plan)
    _substitutes(problems, plan)
    _seats(problems, plan)
