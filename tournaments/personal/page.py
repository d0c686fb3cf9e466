"""An entry's own page as plain data: where it plays next, against whom, its results so far and
its place. Reads only, in a fixed number of queries whatever the rounds.

Only published and finished rounds are read (``access.PUBLISHED``): a draft pairing is never
shown, even to the entry it seats.
"""

from __future__ import annotations

import hmac
import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from scoring.models import Match
from tournaments.access import PUBLISHED
from tournaments.errors import TournamentError
from tournaments.models import Entry, PairingEntry, Round, Sanction, Tournament
from tournaments.results.display import cached_results_table
from tournaments.results.ledger import side_result, swapped
from tournaments.stages.labels import table_labels

#: what ``Entry.token`` looks like (``secrets.token_urlsafe(16)``); anything else is not looked up
TOKEN = re.compile(r"^[A-Za-z0-9_-]{16,32}$")


def find(token: str) -> Entry | None:
    """The entry whose key is ``token`` (None for a malformed or unknown one)."""
    if not TOKEN.match(token or ""):
        return None
    entry = (Entry.objects.select_related("tournament", "club", "team")
             .filter(token=token).first())  # fmt: skip
    # the unique index finds the row; the comparison of the whole key does not stop at the
    # first differing character (and is exact whatever the database's collation)
    if entry is None or not hmac.compare_digest(entry.token.encode(), token.encode()):
        return None
    return entry


@dataclass
class Seat:
    seat: str  # N, E, S, W, or the side when the seats are not known
    player: str


@dataclass
class Rival:
    name: str
    players: list[str]


@dataclass
class RoundLine:
    number: int
    status: str  # the round's: published, finished
    table: int | None  # None: a bye
    side: str
    seats: list[Seat] = field(default_factory=list)
    partners: list[Rival] = field(default_factory=list)
    opponents: list[Rival] = field(default_factory=list)
    kind: str = "pending"  # played, pending, bye, forfeit_win, forfeit_loss
    result: str = ""  # win, draw, loss
    points_for: int = 0
    points_against: int = 0
    label: str = ""  # a knock-out's tie and game («Полуфинал, партия 2»)

    @property
    def score(self) -> str:
        return f"{self.points_for}:{self.points_against}" if self.kind == "played" else ""


@dataclass
class Page:
    entry: Entry
    tournament: Tournament
    players: list[str]
    #: the round being played (published, not finished), or None
    current: Round | None
    #: the entry's place in ``current`` (None: no table and no bye in it)
    now: RoundLine | None
    lines: list[RoundLine]  # every published round the entry played, in order
    rank: int | None
    of: int
    match_points: Any = None
    #: the latest round is finished and more are due: the next is not published yet
    waiting: bool = False

    @property
    def clock(self) -> dict[str, Any] | None:
        return self.current.clock_json() if self.current is not None else None


def _seats(place: PairingEntry, same_side: int) -> list[Seat]:
    """The seats of the entry at its table: both seats of its side where it is the side's one
    entry (a pair), its own where partners are drawn (position 0 sits first) or a seat is a side."""
    pairing = place.pairing
    if len(place.side) == 1:
        letters = place.side
    elif same_side > 1:
        letters = place.side[min(place.position, 1)]
    else:
        letters = place.side
    seats = []
    for letter in letters:
        player = getattr(pairing, f"seat_{letter.lower()}")
        seats.append(Seat(letter, player.full_name if player is not None else ""))
    return seats


def _result(line: RoundLine, match: Match | None, lost_by_forfeit: bool | None,
            tournament: Tournament) -> None:  # fmt: skip
    if line.table is None:
        line.kind, line.result = "bye", tournament.bye_result
    elif lost_by_forfeit is not None:
        line.kind, line.result = (("forfeit_loss", "loss") if lost_by_forfeit
                                  else ("forfeit_win", "win"))  # fmt: skip
    elif match is not None and match.status == Match.Status.CONFIRMED and match.winner:
        totals = {k: int(v) for k, v in (match.totals or {}).items()}
        line.kind = "played"
        line.result = side_result(match.winner, line.side, totals, swapped(tournament))
        line.points_for = totals.get(line.side, 0)
        others = [v for k, v in totals.items() if k != line.side]
        line.points_against = max(others) if others else 0


def _rank(entry: Entry) -> tuple[int | None, int, Any]:
    try:
        results, _key = cached_results_table(entry.tournament, scope="entries")
    except TournamentError:  # no table of entries (yet)
        return None, 0, None
    for line in results.lines:
        if line.participant == entry.pk:
            return line.rank, len(results.lines), line.row.get("match_points")
    return None, len(results.lines), None


def personal_page(entry: Entry) -> Page:
    tournament = entry.tournament
    rounds = list(tournament.round_set.filter(status__in=PUBLISHED).order_by("number"))
    current = next((r for r in reversed(rounds) if r.status == Round.Status.PUBLISHED), None)
    mine = list(
        PairingEntry.objects.filter(entry=entry, round__in=rounds)
        .select_related("round", "pairing__match", "pairing__seat_n", "pairing__seat_e",
                        "pairing__seat_s", "pairing__seat_w")
        .order_by("round__number")
    )  # fmt: skip
    pairing_ids = [p.pairing_id for p in mine]
    others: dict[int, list[PairingEntry]] = defaultdict(list)
    for place in (PairingEntry.objects.filter(pairing_id__in=pairing_ids).exclude(entry=entry)
                  .select_related("entry").prefetch_related("entry__players")
                  .order_by("side", "position")):  # fmt: skip
        others[place.pairing_id].append(place)
    forfeits: dict[int, set[int]] = defaultdict(set)
    for pairing_id, offender in Sanction.objects.filter(
        pairing_id__in=pairing_ids, kind=Sanction.Kind.FORFEIT, revoked_at__isnull=True
    ).values_list("pairing_id", "entry_id"):
        forfeits[pairing_id].add(offender)

    def rival(place: PairingEntry) -> Rival:
        return Rival(place.entry.name, [p.full_name for p in place.entry.players.all()])

    lines = []
    for place in mine:
        rest = others[place.pairing_id]
        same = [p for p in rest if p.side == place.side]
        line = RoundLine(place.round.number, place.round.status, place.pairing.table,
                         place.side)  # fmt: skip
        if line.table is not None:
            line.seats = _seats(place, len(same) + 1)
            line.partners = [rival(p) for p in same]
            line.opponents = [rival(p) for p in rest if p.side not in (place.side, "BYE")]
        offenders = forfeits.get(place.pairing_id)
        lost = (bool(offenders & {entry.pk, *(p.entry_id for p in same)})
                if offenders else None)  # fmt: skip
        _result(line, place.pairing.match, lost, tournament)
        lines.append(line)
    now = next((line for line in lines if current is not None
                and line.number == current.number), None)  # fmt: skip
    if now is not None and now.table is not None and current is not None and current.stage_id:
        pairing_id = next(p.pairing_id for p in mine if p.round.number == now.number)
        now.label = table_labels(current).get(pairing_id, "")
    rank, of, match_points = _rank(entry)
    latest = rounds[-1] if rounds else None
    waiting = (current is None and tournament.status != Tournament.Status.FINISHED
               and (latest is None or latest.number < tournament.rounds))  # fmt: skip
    return Page(entry, tournament, [p.full_name for p in entry.players.all()], current, now,
                lines, rank, of, match_points, waiting)  # fmt: skip
