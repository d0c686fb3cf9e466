"""What the referee's phone page gives ``static/js/fives.js`` for a fives match (RULES.md sections
15–23, and «Телефон»'s «дом», several doubles in one move and write-off, section 32): the seats
and sides, the table's rules (the spinner), the totals so far, the API address
the deal is posted to, the knobs of a deal's end (its bonus, the eggs pending), the last deal
with the totals before it (for its amendment), and the page's words. The deal itself is judged
by the server (``scoring.services.record_deal``, ``amend_last_deal``), which the script's own
board only mirrors (``static/js/fives_table.js``).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from rules.fives import FivesRules
from rules.tiles import NAMES, TileError, parse_tiles
from scoring.models import Match


def _names(tiles: Any) -> list[str]:
    """Tiles as the board names them («6:2»), from any notation the API takes (``«2-6»``,
    ``[6, 2]``, a list or a string); what cannot be read is left as written."""
    items = tiles if isinstance(tiles, list) else [tiles]
    out = []
    for item in items:
        text = f"{item[0]}:{item[1]}" if isinstance(item, list) and len(item) == 2 else str(item)
        try:
            out += [NAMES[t] for t in parse_tiles(text)]
        except TileError:
            out.append(text)
    return out


def board_record(record: dict[str, Any], verdict: dict[str, Any]) -> dict[str, Any]:
    """A stored fives deal as the board writes one, to be amended on it: tiles named as its grid
    names them, each move's end as the engine laid it (a record may leave out the one end a
    tile fits; the verdict's ``moves`` say which), no ``points`` the board counts itself."""
    out = dict(record)
    moves = iter(m for m in verdict.get("moves") or [] if m.get("tile"))
    if isinstance(record.get("play"), list):
        play = []
        for entry in record["play"]:
            entry = {k: v for k, v in entry.items() if k != "points"}
            if "tile" in entry:
                move = next(moves, {})
                entry["tile"] = move.get("tile") or " ".join(_names(entry["tile"]))
                entry.pop("end", None)
                if move.get("end"):
                    entry["end"] = move["end"]
            if "draw" in entry:
                entry["draw"] = " ".join(_names(entry["draw"]))
            play.append(entry)
        out["play"] = play
    if isinstance(record.get("hands"), dict):
        out["hands"] = {seat: " ".join(_names(hand)) for seat, hand in record["hands"].items()}
    return out


def _last(match: Match, sides: tuple[str, ...]) -> dict[str, Any] | None:
    """The last deal's number and record, and the totals and eggs before it (what the board
    counts an amendment from): the stored verdict of the deal before, or the start."""
    deals = list(match.deals.order_by("-n")[:2])
    if not deals:
        return None
    before = deals[1].verdict if len(deals) > 1 else {}
    totals = before.get("totals") or {}
    return {"n": deals[0].n, "record": board_record(deals[0].record, deals[0].verdict),
            "before": {"totals": {side: int(totals.get(side, 0)) for side in sides},
                       "eggs": int(before.get("eggs") or 0)}}


def fives_data(match: Match, rules: FivesRules) -> dict[str, Any]:
    side_of = {seat: ("NS" if seat in "NS" else "EW") if rules.partnership else seat
               for seat in rules.seats}  # fmt: skip
    return {
        "match": match.pk,
        "version": match.version,
        "seats": list(rules.seats),
        "sides": list(rules.sides),
        "side_of": side_of,
        # the first double (``muggins``), or «Телефон»'s «дом» (the first double covered)
        "spinner": rules.spinner != "none",
        "max_doubles": rules.max_doubles,
        "all_arms": rules.spinner_count == "all_arms",
        "max_points": rules.max_move_points,
        "leader": match.next_leader or "",
        "totals": {side: int((match.totals or {}).get(side, 0)) for side in rules.sides},
        "eggs": int(match.unclaimed_eggs or 0),
        # a deal's end (RULES.md section 20), as ``rules.fives.scoring.score_deal`` reckons it
        "deal_end": rules.deal_end, "domino_bonus": rules.domino_bonus,
        "bonus_round": rules.bonus_round, "bonus_divisor": rules.bonus_divisor,
        "fish_scoring": rules.fish_scoring,
        "last": _last(match, rules.sides),
        "api_url": f"/api/v1/matches/{match.pk}/deals/",  # the API's deal route
        "strings": {
            "to_play": _("To play: %(seat)s"), "lead": _("lead"), "count": _("count"),
            "points": _("points"), "draws": _("draws"), "passes": _("passes"),
            "ends": _("Open ends"), "no_fit": _("This tile fits no open end."),
            "choose_end": _("Lay it on:"), "played": _("This tile is already on the table."),
            "draw_tap": _("Tap the tile drawn from the boneyard."), "total": _("Total"),
            "saved": _("Deal saved."), "hands_of": _("Hand of %(seat)s"),
            "kept_offline": _("No connection. The deal is kept on this phone and will be "
                              "sent again automatically; tapping Save again will not "
                              "record it twice."),
            "refused": _("The deal was not saved:"), "went_out": _("went out"),
            "score_for": _("Points scored by %(seat)s"), "bonus": _("bonus"),
            "end_names": {"L": _("left"), "R": _("right"), "U": _("up"), "D": _("down")},
            "write_off": _("writes off"), "dom": _("«дом»"),
            "dom_waiting": _("doubles waiting to be covered (the first covered is the «дом»):"),
            "several": _("Several doubles in one move"),
            "only_doubles": _("Only doubles are laid together in one move."),
            "too_many_doubles": _("At most four doubles in one move."),
        },
    }
