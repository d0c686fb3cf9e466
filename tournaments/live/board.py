"""The live board of a round as plain data: a tile per table, the counts, the filters.

    board(round_, filters, now=None) -> Board          four queries, whatever the tables
    parse_filters(query) -> (Filters, [error, ...])    the page's ``?state=&from=&to=``

A tile's state: ``not_started`` (nothing recorded), ``in_play`` (deal n of N, the score, the
minutes since its last deal; ``stuck`` past ``LIVE_BOARD_STUCK_MINUTES`` without one),
``submitted`` (waiting for the desk), ``confirmed``, ``forfeited`` (a forfeit sanction names the
table). Tiles come in the order of what needs someone first: submitted, stuck, not started, in
play, then the done ones; by table number within each. Reads only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.db.models import Count, Max, Prefetch, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules import make_rules
from scoring.models import Match
from tournaments.models import Pairing, PairingEntry, Round, Sanction

STATES: tuple[tuple[str, Any], ...] = (
    ("submitted", gettext_lazy("Waiting for confirmation")),
    ("stuck", gettext_lazy("No deal for a while")),
    ("not_started", gettext_lazy("Not started")),
    ("in_play", gettext_lazy("In play")),
    ("confirmed", gettext_lazy("Confirmed")),
    ("forfeited", gettext_lazy("Forfeited")),
)
ORDER = {state: n for n, (state, _label) in enumerate(STATES)}
#: the most tables a round may have (the table-range filter's bound)
MAX_TABLE = 32767


@dataclass(frozen=True)
class Filters:
    state: str = ""
    low: int | None = None
    high: int | None = None

    @property
    def active(self) -> bool:
        return bool(self.state) or self.low is not None or self.high is not None


@dataclass
class Tile:
    pairing: int
    table: int
    state: str
    match: int | None
    ns: str
    ew: str
    deals: int = 0
    of: int | None = None  # counted deals of a match to a fixed number of deals
    target: int | None = None  # the total that ends a match played to a target
    score: str = ""
    minutes: int | None = None

    @property
    def stuck(self) -> bool:
        return self.state == "stuck"

    @property
    def label(self) -> str:
        return str(dict(STATES)[self.state])


@dataclass
class Board:
    tiles: list[Tile]
    counts: list[tuple[str, str, int]]  # (state, label, tables)
    total: int
    shown: int
    stuck_minutes: int
    filters: Filters = field(default_factory=Filters)


def parse_filters(query: Any) -> tuple[Filters, list[str]]:
    """``state`` one of STATES, ``from``/``to`` table numbers; a bad one is named and ignored."""
    errors: list[str] = []
    state = str(query.get("state", "") or "")
    if state and state not in ORDER:
        errors.append(_("Unknown table state “%(state)s”.") % {"state": state[:40]})
        state = ""
    bounds: list[int | None] = []
    for name in ("from", "to"):
        text = str(query.get(name, "") or "").strip()
        if not text:
            bounds.append(None)
            continue
        if not text.isdigit() or not 1 <= int(text) <= MAX_TABLE:
            errors.append(_("The table number “%(value)s” is not a number from 1 to %(max)d.")
                          % {"value": text[:20], "max": MAX_TABLE})  # fmt: skip
            bounds.append(None)
            continue
        bounds.append(int(text))
    low, high = bounds
    if low is not None and high is not None and low > high:
        errors.append(_("The first table of the range is after the last."))
        low = high = None
    return Filters(state, low, high), errors


def _names(places: list[PairingEntry]) -> str:
    return " / ".join(place.entry.name for place in places)


def _score(match: Match) -> str:
    totals = match.totals or {}
    if set(totals) == {"NS", "EW"}:
        return f"{totals['NS']}:{totals['EW']}"
    return ":".join(str(value) for value in totals.values())


@lru_cache(maxsize=32)
def _preset_ending(preset: str) -> tuple[str, int, int]:
    try:
        rules = make_rules(preset)
    except Exception:  # noqa: BLE001 - an unknown preset shows no "of N"
        return ("deals", 0, 0)
    return (rules.end, rules.deals, rules.target)


def _ending(match: Match) -> tuple[str, int | None, int | None]:
    """How the match ends: the rules stored at its creation, else its preset's."""
    stored = match.rules or {}
    end, deals, target = _preset_ending(match.rules_preset)
    return (str(stored.get("end", end)), stored.get("deals", deals) or None,
            stored.get("target", target) or None)  # fmt: skip


def _tile(pairing: Any, forfeited: set[int], now: datetime, stuck_after: int) -> Tile:
    match = pairing.match
    tile = Tile(pairing.pk, pairing.table, "not_started", match.pk if match else None,
                _names(pairing.north_south), _names(pairing.east_west))  # fmt: skip
    if pairing.pk in forfeited:
        tile.state = "forfeited"
        return tile
    if match is None:
        return tile
    end, deals, target = _ending(match)
    tile.deals = pairing.counted_deals or 0
    if end == "deals":
        tile.of = deals
    else:
        tile.target = target
    tile.score = _score(match) if tile.deals else ""
    if match.status == Match.Status.CONFIRMED:
        tile.state = "confirmed"
    elif match.status == Match.Status.SUBMITTED:
        tile.state = "submitted"
    elif pairing.last_deal_at is not None:
        tile.minutes = max(0, int((now - pairing.last_deal_at).total_seconds() // 60))
        tile.state = "stuck" if tile.minutes >= stuck_after else "in_play"
    return tile


def board(round_: Round, filters: Filters | None = None, now: datetime | None = None) -> Board:
    filters = filters or Filters()
    now = now or timezone.now()
    stuck_after = int(getattr(settings, "LIVE_BOARD_STUCK_MINUTES", 10))
    counted = ~Q(match__deals__record__result="redeal")
    places = PairingEntry.objects.select_related("entry").order_by("side", "position")
    pairings = (
        Pairing.objects.filter(round=round_, table__isnull=False)
        .select_related("match")
        .prefetch_related(Prefetch("places", queryset=places))
        .annotate(counted_deals=Count("match__deals", filter=counted),
                  last_deal_at=Max("match__deals__created_at"))
        .order_by("table")
    )  # fmt: skip
    forfeited = set(Sanction.objects.filter(
        pairing__round=round_, kind=Sanction.Kind.FORFEIT, revoked_at__isnull=True,
    ).values_list("pairing_id", flat=True))  # fmt: skip
    tiles = [_tile(p, forfeited, now, stuck_after) for p in pairings]
    tally = {state: 0 for state, _label in STATES}
    for tile in tiles:
        tally[tile.state] += 1
    counts = [(state, str(label), tally[state]) for state, label in STATES]
    shown = [t for t in tiles
             if (not filters.state or t.state == filters.state)
             and (filters.low is None or t.table >= filters.low)
             and (filters.high is None or t.table <= filters.high)]  # fmt: skip
    shown.sort(key=lambda t: (ORDER[t.state], t.table))
    return Board(shown, counts, len(tiles), len(shown), stuck_after, filters)
