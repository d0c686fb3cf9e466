"""Read queries that more than one concern uses, each a bounded number of queries.

    round_with_pairings(queryset)    rounds with their tables, sides, entries, players, matches
                                     and referees prefetched (the round pages, the API, the hall)
    entry_ratings(tournament)        each entry's rating today, from its players' club ratings
                                     (registration shows it; round 1 may be seeded by it)
    imported_ratings(tournament)     each entry's imported rating: its players' ``Player.rating``
                                     (the CSV import's column, or the player's record)
    by_rating(entries, club, imported)  the order round 1 is seeded in by rating
    lineups(**filters) -> Lineups    who played for each entry in each round: its players with
                                     the substitutes in (one query); the seats, the players'
                                     standings, a player's page and the ratings all ask here
    qualifying_rounds(tournament)    the rounds the standings count: all but the final stage's
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db.models import Prefetch, QuerySet
from openskill.models import PlackettLuce

from tournaments.models import (
    DISPLAY_SCALE,
    Entry,
    Pairing,
    PairingEntry,
    Player,
    PlayerRating,
    Round,
    Substitute,
    Tournament,
)


def qualifying_rounds(tournament: Tournament) -> QuerySet[Round]:
    """Every round but the final stage's: a knock-out ranks by its bracket, a final round robin
    by its own table (``tournaments.stages``), so their games leave the qualifying standings as
    they were."""
    return tournament.round_set.exclude(stage__number__gte=2)


def round_with_pairings(queryset: QuerySet[Round]) -> QuerySet[Round]:
    """Rounds with their tables, places, entries, seats, referees and matches (5 queries)."""
    places = PairingEntry.objects.select_related("entry", "entry__club").order_by(
        "side", "position")
    pairings = Pairing.objects.select_related(
        "seat_n", "seat_e", "seat_s", "seat_w", "referee", "match"
    ).prefetch_related(Prefetch("places", queryset=places))
    return queryset.select_related("tournament").prefetch_related(
        Prefetch("pairings", queryset=pairings)
    )


@dataclass(frozen=True)
class EntryRating:
    """An entry's rating today: the mean of its players' ratings, the uncertainty of that mean
    (display units), and the conservative value (mean less three uncertainties) it is ordered by.
    ``rated`` of ``players`` have a rating; the others count as new players (1500 ± 500)."""

    rating: int
    uncertainty: int
    conservative: float
    rated: int
    players: int


def entry_ratings(tournament: Tournament) -> dict[int, EntryRating]:
    """Each entry with at least one rated player (two queries). Unrated players count with
    openskill's starting rating, so a pair of a rated and a new player is not ranked as if the
    new one were as good as the other."""
    start = PlackettLuce()  # the starting values of the ratings' model
    members = list(Entry.players.through.objects.filter(entry__tournament=tournament)
                   .values_list("entry_id", "player_id"))  # fmt: skip
    known = {r.player_id: r for r in PlayerRating.objects.filter(
        player_id__in={player for _entry, player in members})}  # fmt: skip
    players: dict[int, list[int]] = {}
    for entry_id, player_id in members:
        players.setdefault(entry_id, []).append(player_id)
    result: dict[int, EntryRating] = {}
    for entry_id, ids in players.items():
        rated = [known[p] for p in ids if p in known]
        if not rated:
            continue
        mus = [r.mu for r in rated] + [start.mu] * (len(ids) - len(rated))
        variances = [r.sigma**2 for r in rated] + [start.sigma**2] * (len(ids) - len(rated))
        mu = sum(mus) / len(ids)
        sigma = math.sqrt(sum(variances)) / len(ids)
        result[entry_id] = EntryRating(
            round(mu * DISPLAY_SCALE), round(sigma * DISPLAY_SCALE),
            (mu - 3 * sigma) * DISPLAY_SCALE, len(rated), len(ids),
        )  # fmt: skip
    return result


def imported_ratings(tournament: Tournament) -> dict[int, int]:
    """Each entry with a player whose rating was given (the CSV import's ``rating`` column, or
    the player's record): the mean of those given, in the list's own scale (one query)."""
    given: dict[int, list[int]] = defaultdict(list)
    rows = Entry.players.through.objects.filter(entry__tournament=tournament,
                                                player__rating__isnull=False)  # fmt: skip
    for entry_id, rating in rows.values_list("entry_id", "player__rating"):
        given[entry_id].append(rating)
    return {entry_id: round(sum(values) / len(values)) for entry_id, values in given.items()}


def by_rating(entries: Sequence[Entry], club: dict[int, EntryRating],
              imported: dict[int, int]) -> list[Entry]:
    """``entries`` in the order round 1 is seeded in by rating: those with a club rating first
    (by its conservative value), then those with an imported rating only (by it), then the
    rest in their seed order. The two ratings are on different scales, so neither is compared
    with the other: a club rating is what this site measured, and comes first."""

    def key(entry: Entry) -> tuple[int, float, int, int]:
        tie = (entry.seed or 10**9, entry.pk)
        if entry.pk in club:
            return (0, -club[entry.pk].conservative, *tie)
        if entry.pk in imported:
            return (1, -imported[entry.pk], *tie)
        return (2, 0, *tie)

    return sorted(entries, key=key)


@dataclass
class Lineups:
    """The substitutes of some entries: who sits in for whom, in which rounds."""

    by_entry: dict[int, list[Substitute]] = field(default_factory=dict)

    def replacements(self, entry_id: int, number: int) -> dict[int, int]:
        """{replaced player id: substitute id} of ``entry_id`` in round ``number``."""
        return {s.replaced_id: s.player_id for s in self.by_entry.get(entry_id, ())
                if s.covers(number)}  # fmt: skip

    def ids(self, entry_id: int, number: int, players: Sequence[int]) -> list[int]:
        """``players`` (an entry's, in order) as they played round ``number``."""
        swap = self.replacements(entry_id, number)
        return [swap.get(pk, pk) for pk in players]

    def substitutes(self) -> dict[int, Player]:
        """Every substitute as a ``Player`` (loaded with the lineups)."""
        return {s.player_id: s.player for rows in self.by_entry.values() for s in rows}


def lineups(**filters: object) -> Lineups:
    """The substitutes matching ``filters`` (e.g. ``tournament=t``, ``entry_id__in=ids``), with
    their players, in one query."""
    by_entry: dict[int, list[Substitute]] = defaultdict(list)
    for row in Substitute.objects.filter(**filters).select_related("player__club"):
        by_entry[row.entry_id].append(row)
    return Lineups(dict(by_entry))
