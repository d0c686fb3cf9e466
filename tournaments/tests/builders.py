"""Build rounds with decided tables directly, for standings, pages, exports and archive tests.

``play_round(tournament, number, [(ns, ew, (ns_points, ew_points)), ...], byes=[...])`` writes a
published round whose tables carry confirmed protocols with those totals (the winner is the side
with more points, equal is a draw; under ``losers_record_own`` fewer wins). Entries are given as
``Entry`` objects or tuples of them (individual events). ``pending`` tables are left in play.
Real deals are not written: the standings read a match's confirmed totals, its winner and its
deals-won cache (see ``add_deals``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.utils import timezone

from scoring.models import Deal, Match
from tournaments.models import Entry, Pairing, PairingEntry, Round, Tournament

Side = Entry | Sequence[Entry]


def _side(value: Side) -> list[Entry]:
    return [value] if isinstance(value, Entry) else list(value)


def play_round(
    tournament: Tournament,
    number: int,
    tables: Iterable[tuple[Side, Side, tuple[int, int] | None]],
    byes: Iterable[Entry] = (),
    status: str = Round.Status.PUBLISHED,
    end: str = "deals",
) -> Round:
    """A round whose tables are confirmed with the given totals (``None``: still in play)."""
    round_ = Round.objects.create(tournament=tournament, number=number, status=status,
                                  published_at=timezone.now())  # fmt: skip
    low_wins = getattr(tournament.rules, "scoring", "") == "losers_record_own"
    for index, (ns, ew, score) in enumerate(tables, start=1):
        match = Match.objects.create(label=f"{tournament.name} {number}/{index}", table=str(index),
                                     rules_preset=tournament.rules_preset)  # fmt: skip
        if score is not None:
            a, b = score
            if a == b:
                winner = "draw"
            else:
                winner = "NS" if (a > b) != low_wins else "EW"
            Match.objects.filter(pk=match.pk).update(
                status=Match.Status.CONFIRMED, winner=winner, totals={"NS": a, "EW": b},
                finished=True, end=end, confirmed_at=timezone.now(), updated_at=timezone.now(),
                version=2,
            )  # fmt: skip
        pairing = Pairing.objects.create(round=round_, table=index, match=match)
        for side, entries in (("NS", _side(ns)), ("EW", _side(ew))):
            for position, entry in enumerate(entries):
                PairingEntry.objects.create(pairing=pairing, round=round_, entry=entry, side=side,
                                            position=position)  # fmt: skip
    for entry in byes:
        pairing = Pairing.objects.create(round=round_, table=None)
        PairingEntry.objects.create(pairing=pairing, round=round_, entry=entry, side="BYE")
    return round_


def add_deals(match: Match, winners: Sequence[str | None]) -> None:
    """Deal rows whose verdicts name these winners, and the match's deals-won cache as the
    scoring services keep it."""
    Deal.objects.bulk_create(
        Deal(match=match, n=n, record={}, verdict={"ok": True, "winner": w})
        for n, w in enumerate(winners, 1)
    )
    won: dict[str, int] = {}
    for winner in winners:
        if winner:
            won[winner] = won.get(winner, 0) + 1
    Match.objects.filter(pk=match.pk).update(deals_won=won)


def table_match(round_: Round, table: int) -> Match:
    match = Pairing.objects.get(round=round_, table=table).match
    assert match is not None
    return match


def ids(rows: Iterable[Any]) -> list[int]:
    return [row.participant for row in rows]
