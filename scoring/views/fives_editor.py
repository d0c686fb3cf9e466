"""The move-list editor of the correction page for a game recorded move by move (the fives games
and «Телефон», RULES.md sections 17, 19 and 32): one deal's entries as rows of fields — seat,
what it did (a move, a draw, a pass), the tile or tiles, the end, the points announced — or, for a
points-only deal, its scoring plays as numbers; how the deal ended and the hands left.

The fields are plain server-rendered inputs of the correction form (``e<j>-seat`` …), so the page
works without JavaScript: ``apply`` writes the posted fields back into the deal they edit, and
the row buttons insert or take out an entry. ``static/js/fives_correction.js`` posts the same
form to the preview and swaps the parts it answers, so there is one reading of the fields (here).
``editor`` lays a deal out as rows, with what the rules made of each move (its count and points)
and the message of the entry the rules refused. Nothing here judges or stores a deal.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from scoring.errors import current_lang
from scoring.games import AnyRules
from scoring.move_changes import tiles_text

#: the most entries one deal's editor takes (a line of play is at most 28 moves, 28 draws and a
#: fish's passes)
MAX_ROWS = 120


@dataclass
class Row:
    """One entry as the editor shows it (``j`` from 0; the rules count entries from 1)."""

    j: int
    seat: str
    kind: str
    tile: str = ""
    end: str = ""
    points: str = ""
    #: what the rules made of a move: the count of the open ends and the points it scored
    count: int | None = None
    scored: int | None = None
    #: the rules' message when this is the entry they refused
    error: str = ""

    @property
    def n(self) -> int:
        return self.j + 1

    @property
    def several(self) -> bool:
        """Several doubles in one move («Телефон»): the end is typed, one per tile."""
        return len(self.tile.split()) > 1


@dataclass
class Editor:
    index: int
    light: bool
    rows: list[Row]
    result: str
    hands: list[tuple[str, str]]
    seats: list[str]
    errors: list[str] = field(default_factory=list)

    @property
    def n(self) -> int:
        return self.index + 1


def _text(value: Any) -> str:
    """Tiles as the board names them; a count or points as written."""
    if value is None:
        return ""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    return tiles_text(value)


def rows_of(record: Mapping[str, Any]) -> list[Row]:
    if isinstance(record.get("scores"), list):
        return [Row(j, str(e.get("seat", "")), "move", points=_text(e.get("points")))
                for j, e in enumerate(record["scores"]) if isinstance(e, dict)]
    rows = []
    for j, e in enumerate(record.get("play") or []):
        if not isinstance(e, dict):
            continue
        row = Row(j, str(e.get("seat", "")), "move", points=_text(e.get("points")))
        if "draw" in e:
            row.kind, row.tile = "draw", _text(e["draw"])
        elif e.get("pass"):
            row.kind = "pass"
        elif isinstance(e.get("tiles"), list):
            placed = [t for t in e["tiles"] if isinstance(t, dict)]
            row.tile = " ".join(_text(t.get("tile")) for t in placed)
            row.end = " ".join(str(t.get("end") or "?") for t in placed)
        else:
            row.tile, row.end = _text(e.get("tile")), _text(e.get("end"))
        rows.append(row)
    return rows


def editor(rules: AnyRules, records: list[dict[str, Any]], index: int,
           verdict: Any = None) -> Editor | None:
    """Deal ``index`` laid out as rows, with what ``verdict`` (its judgement in the protocol)
    made of each move; None for an index out of range or a deal that is no line of play."""
    if not 0 <= index < len(records) or not isinstance(records[index], dict):
        return None
    record = records[index]
    if not isinstance(record.get("play"), list) and not isinstance(record.get("scores"), list):
        return None
    rows = rows_of(record)
    light = isinstance(record.get("scores"), list)
    out = Editor(index, light, rows, str(record.get("result") or ""),
                 [(s, _text((record.get("hands") or {}).get(s))) for s in rules.seats],
                 list(rules.seats))
    if verdict is None:
        return out
    moves = iter(getattr(verdict, "moves", None) or [])
    if not light:
        for row in rows:
            if row.kind == "move":
                move = next(moves, None)
                if move is not None and "count" in move:
                    row.count, row.scored = move["count"], move["points"]
    by_entry = {r.n: r for r in rows}
    for problem in getattr(verdict, "errors", None) or []:
        entry = problem.extra.get("entry") if hasattr(problem, "extra") else None
        message = problem.message(current_lang())
        if isinstance(entry, int) and entry in by_entry and not by_entry[entry].error:
            by_entry[entry].error = message
        else:
            out.errors.append(message)
    if any(r.error for r in rows):  # the moves after the refused one were never judged
        first = min(r.j for r in rows if r.error)
        for row in rows[first:]:
            row.count = row.scored = None
    return out


def _number(text: str) -> int | str:
    text = text.strip()
    return int(text) if text.isdigit() else text


def _entry(post: Mapping[str, Any], j: int, light: bool) -> dict[str, Any]:
    get = lambda name: str(post.get(f"e{j}-{name}", "")).strip()  # noqa: E731
    entry: dict[str, Any] = {"seat": get("seat")}
    if light:
        entry["points"] = _number(get("points"))
        return entry
    kind, tile, ends = get("kind"), get("tile"), get("end").split()
    if kind == "pass":
        entry["pass"] = True
    elif kind == "draw":
        entry["draw"] = _number(tile) if tile.isdigit() else " ".join(tile.split())
    elif len(tile.split()) > 1:
        entry["tiles"] = [{"tile": t, **({"end": ends[i]} if i < len(ends) and ends[i] != "?"
                                         else {})} for i, t in enumerate(tile.split())]
    else:
        entry["tile"] = tile
        if ends:
            entry["end"] = ends[0]
    if kind in ("move", "") and get("points"):
        entry["points"] = _number(get("points"))
    return entry


def apply(post: Mapping[str, Any], records: list[Any], seats: list[str]) -> int | None:
    """Writes the posted editor fields into the deal they edit (``edit-deal``, from 0) of
    ``records``, in place, then the row action (``action``: ``insert-<j>`` a move after entry
    j, ``delete-<j>``). Returns the deal's index, or None when the form holds no editor."""
    try:
        index = int(post.get("edit-deal", ""))
        count = min(int(post.get("edit-rows", "")), MAX_ROWS)
    except ValueError:
        return None
    if not 0 <= index < len(records) or not isinstance(records[index], dict) or count < 0:
        return None
    record = dict(records[index])
    light = isinstance(record.get("scores"), list)
    entries = [_entry(post, j, light) for j in range(count)]
    action = str(post.get("action", ""))
    verb, _sep, at = action.partition("-")
    if verb in ("insert", "delete") and at.isdigit() and int(at) < max(len(entries), 1):
        j = int(at)
        if verb == "delete" and entries:
            entries.pop(j)
        elif verb == "insert":
            before = entries[j]["seat"] if entries else seats[0]
            seat = seats[(seats.index(before) + 1) % len(seats)] if before in seats else seats[0]
            entries.insert(j + 1 if entries else 0,
                           {"seat": seat, "points": 5} if light else {"seat": seat, "tile": ""})
    record["scores" if light else "play"] = entries
    result = str(post.get("edit-result", "")).strip()
    if result:
        record["result"] = result
    hands = dict(record.get("hands") or {}) if isinstance(record.get("hands"), dict) else {}
    for seat in seats:
        if f"edit-hand-{seat}" in post:
            text = " ".join(str(post[f"edit-hand-{seat}"]).split())
            if text:
                hands[seat] = text
            else:
                hands.pop(seat, None)
    if hands:
        record["hands"] = hands
    else:
        record.pop("hands", None)
    records[index] = record
    return index
