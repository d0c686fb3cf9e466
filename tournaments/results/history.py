"""A player's history: every match of every tournament the reader may see.

    player_history(player, tournaments) -> list[HistoryMatch]
    group_by_tournament(history) -> [(tournament, matches)]

Reads the places, tables, matches and deals of all the player's tournaments at once (it does not
grow with tournaments or rounds) and never writes.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Q, QuerySet

from scoring.models import Deal, Match
from tournaments.models import (
    SIDE_ORDER,
    Entry,
    Pairing,
    PairingEntry,
    Player,
    Sanction,
    Substitute,
    Tournament,
)
from tournaments.results import ledger
from tournaments.results.crosstable import CrossCell
from tournaments.selectors import lineups


@dataclass
class HistoryDeal:
    n: int
    winner: str  # "ours", "theirs", "" (blocked, nobody)
    ours: int  # points recorded this deal by the player's side
    theirs: int
    total_ours: int
    total_theirs: int


@dataclass
class HistoryMatch:
    tournament: Tournament
    round: int
    table: int | None
    side: str  # NS, EW, BYE; a seat (N, E, S, W) where each player is his own side
    seat: str  # N, E, S, W or ""
    entry: Entry
    partners: list[tuple[int, str]]
    opponents: list[tuple[Entry, list[tuple[int, str]]]]
    kind: str  # played, pending, bye, forfeit_win, forfeit_loss
    result: str  # win, draw, loss, ""
    points_for: int
    points_against: int
    match: int | None
    match_status: str
    deals: list[HistoryDeal]

    @property
    def mark(self) -> str:
        return CrossCell(self.round, self.kind, self.result).mark


def history_tournaments(player: Player, visible: QuerySet[Tournament]) -> QuerySet[Tournament]:
    return visible.filter(Q(entries__players=player) | Q(substitutes__player=player)).distinct()


def _own_places(player: Player, visible: QuerySet[Tournament],
                subs: list[Substitute]) -> dict[int, int]:  # fmt: skip
    """{pairing id: entry id} of every place the player actually took: his entries' places
    except the rounds a substitute played for him, and the rounds he sat in for another's
    player (``subs``: the substitutes of his tournaments)."""
    mine = [s for s in subs if player.pk in (s.replaced_id, s.player_id)]

    def covered(entry_id: int, number: int, **who: int) -> bool:
        return any(s.entry_id == entry_id and s.covers(number)
                   and all(getattr(s, k) == v for k, v in who.items()) for s in mine)  # fmt: skip

    sat_in = {s.entry_id for s in mine if s.player_id == player.pk}
    own: dict[int, int] = {}
    for pairing_id, entry_id, number, registered in PairingEntry.objects.filter(
        Q(entry__players=player) | Q(entry_id__in=sat_in),
        round__status__in=ledger.COUNTED, round__tournament__in=visible,
    ).annotate(registered=Exists(Entry.players.through.objects.filter(
        entry_id=OuterRef("entry_id"), player_id=player.pk))).values_list(
            "pairing_id", "entry_id", "round__number", "registered").distinct():  # fmt: skip
        if registered and not covered(entry_id, number, replaced_id=player.pk) or (
                covered(entry_id, number, player_id=player.pk)):  # fmt: skip
            own[pairing_id] = entry_id
    return own


def player_history(player: Player, visible: QuerySet[Tournament]) -> list[HistoryMatch]:
    """Every table and bye of ``player`` in counted rounds of ``visible`` tournaments, newest
    tournament first, rounds in order (eight queries however many tournaments and rounds). A
    round a substitute played for him is not his; one he sat in for another's player is, with
    that entry's partner (the partners and opponents shown are those who played)."""
    # the substitutes of every tournament the player is in: his own, and his partners' and
    # opponents' (one query)
    involved = visible.filter(Q(entries__players=player) | Q(substitutes__player=player))
    subs = lineups(tournament__in=involved)
    own_entry = _own_places(player, visible, [s for rows in subs.by_entry.values()
                                              for s in rows])  # fmt: skip
    pairings = list(
        Pairing.objects.filter(pk__in=own_entry).select_related(
            "round__tournament", "match", "seat_n", "seat_e", "seat_s", "seat_w"
        )
    )
    places = list(
        PairingEntry.objects.filter(pairing__in=own_entry)
        .select_related("entry")
        .order_by("pairing_id", "side", "position")
    )
    entry_ids = {p.entry_id for p in places}
    registered: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for entry_id, player_id, last, first in (
        Entry.players.through.objects.filter(entry_id__in=entry_ids)
        .order_by("player__last_name", "player__first_name", "player_id")
        .values_list("entry_id", "player_id", "player__last_name", "player__first_name")
    ):
        registered[entry_id].append((player_id, f"{last} {first}".strip()))
    sub_players = subs.substitutes()

    def roster_at(entry_id: int, number: int) -> list[tuple[int, str]]:
        """The entry's players as they played round ``number`` (substitutes in)."""
        swap = subs.replacements(entry_id, number)
        return [(swap[pk], sub_players[swap[pk]].full_name) if pk in swap else (pk, name)
                for pk, name in registered.get(entry_id, [])]  # fmt: skip
    forfeits: dict[int, set[int]] = defaultdict(set)
    for pairing_id, entry_id in Sanction.objects.filter(
        pairing__in=own_entry, kind=Sanction.Kind.FORFEIT, revoked_at__isnull=True
    ).values_list("pairing_id", "entry_id"):
        forfeits[pairing_id].add(entry_id)
    match_ids = [p.match_id for p in pairings if p.match_id]
    deals: dict[int, list[Deal]] = defaultdict(list)
    for deal in Deal.objects.filter(match_id__in=match_ids).only("match_id", "n", "verdict"):
        deals[deal.match_id].append(deal)
    by_pairing: dict[int, list[PairingEntry]] = defaultdict(list)
    for place in places:
        by_pairing[place.pairing_id].append(place)

    history = []
    for pairing in pairings:
        tournament = pairing.round.tournament
        mine = next(p for p in by_pairing[pairing.pk] if p.entry_id == own_entry[pairing.pk])
        side = mine.side
        match = pairing.match
        final = {k: int(v) for k, v in ((match.totals or {}) if match is not None else {}).items()}
        other = _other_side(side, [p.side for p in by_pairing[pairing.pk]], final)
        seat = next(
            (s for s in "NESW" if getattr(pairing, f"seat_{s.lower()}_id") == player.pk), ""
        )
        number = pairing.round.number
        same = [p for p in by_pairing[pairing.pk] if p.side == side]
        partners = [pl for p in same for pl in roster_at(p.entry_id, number)
                    if pl[0] != player.pk]  # fmt: skip
        opponents = [
            (p.entry, roster_at(p.entry_id, number)) for p in by_pairing[pairing.pk]
            if p.side not in (side, "BYE")
        ]  # fmt: skip
        kind, result, ours, theirs = "pending", "", 0, 0
        offenders = forfeits.get(pairing.pk, set())
        if side == "BYE":
            kind, result = "bye", tournament.bye_result
        elif offenders:
            lost = bool(offenders & {p.entry_id for p in same})
            kind, result = ("forfeit_loss", "loss") if lost else ("forfeit_win", "win")
        elif match is not None and match.status == Match.Status.CONFIRMED and match.winner:
            kind = "played"
            result = ledger.side_result(match.winner, side, final, ledger.swapped(tournament))
            ours, theirs = final.get(side, 0), final.get(other, 0)
        rows = []
        for deal in sorted(deals.get(pairing.match_id or 0, []), key=lambda d: d.n):
            verdict = deal.verdict or {}
            winner = verdict.get("winner") or ""
            recorded, totals = verdict.get("recorded") or {}, verdict.get("totals") or {}
            rows.append(
                HistoryDeal(
                    deal.n,
                    "ours" if winner == side else ("theirs" if winner == other else ""),
                    int(recorded.get(side, 0)),
                    int(recorded.get(other, 0)),
                    int(totals.get(side, 0)),
                    int(totals.get(other, 0)),
                )
            )
        history.append(
            HistoryMatch(
                tournament,
                pairing.round.number,
                pairing.table,
                side,
                seat,
                mine.entry,
                partners,
                opponents,
                kind,
                result,
                ours,
                theirs,
                pairing.match_id,
                match.status if match is not None else "",
                rows,
            )
        )
    # newest tournament first, then its rounds in order
    history.sort(
        key=lambda h: (
            -(h.tournament.start_date.toordinal() if h.tournament.start_date else 0),
            -h.tournament.pk,
            h.round,
        )
    )
    return history


def _other_side(side: str, sides: list[str], totals: dict[str, int]) -> str:
    """The side shown as "theirs": the other side, or, each for himself, the opponent with the
    highest total (the one the player had to beat)."""
    others = sorted({s for s in sides if s not in (side, "BYE")},
                    key=lambda s: (-totals.get(s, 0), SIDE_ORDER.get(s, 9)))  # fmt: skip
    return others[0] if others else ""


def group_by_tournament(history: list[HistoryMatch]) -> list[tuple[Tournament, list[HistoryMatch]]]:
    groups: dict[int, tuple[Tournament, list[HistoryMatch]]] = {}
    for item in history:
        groups.setdefault(item.tournament.pk, (item.tournament, []))[1].append(item)
    return list(groups.values())
