"""A fives deal (RULES.md sections 17 and 19) told entry by entry, and what changed between two
versions of it, in words: «Deal 3, move 5: 6:4 instead of 6:3».

The correction page and the history show these beside a changed deal of a line-of-play game
(``scoring.changes``), so the desk reads what a correction did without reading data. Plain
functions of the records; nothing here judges a deal.
"""

from __future__ import annotations

import json
from difflib import SequenceMatcher
from typing import Any

from django.utils.translation import gettext as _

from rules.tiles import NAMES, TileError, parse_tiles
from scoring.services.idempotency import deal_identity
from scoring.sheet import result_label


def end_word(end: Any) -> str:
    return {"L": _("left"), "R": _("right"), "U": _("up"), "D": _("down")}.get(str(end), str(end))


def tiles_text(value: Any) -> str:
    """Tiles as the board names them («6:1» for «[1|6]» or «1-6»); what cannot be read, as
    written."""
    if isinstance(value, list):
        return " ".join(tiles_text(":".join(map(str, v)) if isinstance(v, list) else v)
                        for v in value)
    text = str(value)
    try:
        return " ".join(NAMES[t] for t in parse_tiles(text)) or text
    except TileError:
        return text


def laid_text(entry: dict[str, Any]) -> str:
    """What a move laid, without its seat: «6:4 left», «2:2 right, 3:3 left», «6:4» (the lead)."""
    if isinstance(entry.get("tiles"), list):
        return ", ".join(laid_text(t) for t in entry["tiles"] if isinstance(t, dict))
    text = tiles_text(entry.get("tile", ""))
    if entry.get("end"):
        text += f" {end_word(entry['end'])}"
    return text


def entry_text(entry: Any, with_seat: bool = True) -> str:
    """One entry of ``play`` or ``scores``: «E 6:4 left», «E draws 3:1», «E passes», «E +10»."""
    if not isinstance(entry, dict):
        return str(entry)
    seat = f"{entry.get('seat', '?')} " if with_seat else ""
    if "draw" in entry:
        return seat + _("draws %(tiles)s") % {"tiles": tiles_text(entry["draw"])}
    if entry.get("pass"):
        return seat + _("passes")
    if "tile" in entry or "tiles" in entry:
        text = seat + laid_text(entry)
        if entry.get("points") is not None:
            text += " " + _("(announced %(points)s)") % {"points": entry["points"]}
        return text
    if "points" in entry:
        return seat + f"+{entry['points']}"
    return seat + json.dumps(entry, ensure_ascii=False)


def _instead(new: Any, old: Any) -> str:
    """«6:4 instead of 6:3»: the seat said once when both entries are the same seat's moves."""
    same_seat = isinstance(new, dict) and isinstance(old, dict) and \
        new.get("seat") == old.get("seat") and ("tile" in new or "tiles" in new) and \
        ("tile" in old or "tiles" in old)
    if same_seat:
        return _("%(seat)s %(new)s instead of %(old)s") % {
            "seat": new.get("seat"), "new": entry_text(new, False), "old": entry_text(old, False)}
    return _("%(new)s instead of %(old)s") % {"new": entry_text(new), "old": entry_text(old)}


def _entries(record: dict[str, Any]) -> list[Any] | None:
    for key in ("play", "scores"):
        if isinstance(record.get(key), list):
            return list(record[key])
    return None


def _keys(record: dict[str, Any], key: str) -> list[str]:
    """Each entry in its normal form (``deal_identity``): a tile written otherwise is the same."""
    entries = deal_identity(record).get(key) or []
    return [json.dumps(e, sort_keys=True, default=str) for e in entries]


def deal_changes(n: int, new: dict[str, Any], old: dict[str, Any]) -> list[str]:
    """What changed in deal ``n``, a sentence each; [] when the records are not lines of play
    (or points) on both sides, so the caller says it its own way."""
    after, before = _entries(new), _entries(old)
    if after is None or before is None:
        return []
    out = []
    where = {"n": n}
    if "play" in new and "play" not in old:
        out.append(_("Deal %(n)s: recorded move by move instead of points only.") % where)
    elif "scores" in new and "scores" not in old:
        out.append(_("Deal %(n)s: recorded as points only instead of move by move.") % where)
    else:
        key = "play" if "play" in new else "scores"
        matcher = SequenceMatcher(None, _keys(old, key), _keys(new, key), autojunk=False)
        for tag, b0, b1, a0, a1 in matcher.get_opcodes():
            if tag == "equal":
                continue
            common = min(b1 - b0, a1 - a0) if tag == "replace" else 0
            for k in range(common):
                out.append(_("Deal %(n)s, move %(m)s: %(change)s.") % {
                    **where, "m": a0 + k + 1, "change": _instead(after[a0 + k], before[b0 + k])})
            for a in range(a0 + common, a1):
                out.append(_("Deal %(n)s, move %(m)s added: %(entry)s.") % {
                    **where, "m": a + 1, "entry": entry_text(after[a])})
            for b in range(b0 + common, b1):
                out.append(_("Deal %(n)s, move %(m)s taken out: %(entry)s.") % {
                    **where, "m": b + 1, "entry": entry_text(before[b])})
    if new.get("result") != old.get("result"):
        out.append(_("Deal %(n)s: %(new)s instead of %(old)s.") % {
            **where, "new": result_label(str(new.get("result"))),
            "old": result_label(str(old.get("result")))})
    for key in ("hands", "pips"):
        now, was = new.get(key) or {}, old.get(key) or {}
        if not isinstance(now, dict) or not isinstance(was, dict):
            continue
        same_now, same_was = deal_identity({key: now}).get(key), deal_identity({key: was}).get(key)
        for seat in sorted(set(now) | set(was)):
            if (same_now or {}).get(seat) != (same_was or {}).get(seat):
                out.append(_("Deal %(n)s, hand of %(seat)s: %(new)s instead of %(old)s.") % {
                    **where, "seat": seat, "new": tiles_text(now.get(seat, "—")) or "—",
                    "old": tiles_text(was.get(seat, "—")) or "—"})
    return out
