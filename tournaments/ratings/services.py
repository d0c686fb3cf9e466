"""Ratings from the database: the rated history loaded in order, replayed, and written.

    rated_history() -> list[RatedMatch], dict[match, (tournament, round, date)], skipped
    update(full=False) -> Outcome      the ratings rewritten from the first place of the history
                                       that changed (one transaction, one at a time)
    recompute(full=False) -> int       the same; the number of matches rated

Incremental: every rating change keeps a fingerprint of the rated match at its place in the
history; a recompute compares the history with them, keeps the changes before the first place
that differs, starts every player from his rating there and replays only the rest. The result is
the same as a replay from scratch (``update(full=True)``; tested on random histories), at the
cost of the matches after the change rather than all of them.

What is rated: the confirmed, decided matches of the published and finished rounds of public,
rated tournaments (a private tournament's matches never move a rating anybody can see; an import
arrives unrated until a site administrator marks it rated), forfeited tables excepted. Their
order: the tournament's start date (its creation date when it has none), its creation time,
the round, the table; the archive restores all of these, so an imported tournament takes the
same place in the history as the original.
"""

from __future__ import annotations

import hashlib
import logging
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, Max

from rules import RulesError
from scoring.models import Match
from tournaments.models import (
    Entry,
    PairingEntry,
    PlayerRating,
    RatingChange,
    Round,
    Sanction,
    Tournament,
)
from tournaments.ratings.compute import RatedMatch, State, replay
from tournaments.selectors import lineups

log = logging.getLogger(__name__)

COUNTED = (Round.Status.PUBLISHED, Round.Status.FINISHED)

#: the advisory lock that keeps two recomputations from interleaving their writes (PostgreSQL)
LOCK_KEY = 16_0016


def _places(totals: dict[str, int], sides: list[str], winner: str, low_wins: bool) -> list[int]:
    """Each side's place: the winner first, the others by their totals (fewer first under
    «козёл», where a side records its own bad points); equal totals share a place."""
    def key(side: str) -> tuple[int, int]:
        points = totals.get(side, 0)
        return (0 if side == winner else 1, points if low_wins else -points)

    keys = {side: key(side) for side in sides}
    distinct = sorted(set(keys.values()))
    return [distinct.index(keys[side]) for side in sides]


def _low_wins(tournament: Tournament) -> bool:
    try:
        return getattr(tournament.rules, "scoring", "") == "losers_record_own"
    except RulesError:  # rules the engine refuses: rated as more points better
        return False


Where = dict[int, tuple[int, int, date | None]]


def rated_history() -> tuple[list[RatedMatch], Where, list[int]]:
    """Every rated match in order (see the module docstring), in six queries; each side rated
    as it played (its substitutes in: ``selectors.lineups``). Also the matches left out because
    they cannot be rated: a player on two sides, or twice on one (the services and the archive
    refuse that; data written around them must not stop every player's ratings)."""
    tournaments = {t.pk: t for t in Tournament.objects.filter(public=True, rated=True)}
    places = (
        PairingEntry.objects.filter(round__tournament__public=True,
                                    round__tournament__rated=True, round__status__in=COUNTED,
                                    pairing__match__status=Match.Status.CONFIRMED)
        .exclude(side=PairingEntry.Side.BYE).exclude(pairing__match__winner="")
        .values_list("round__tournament_id", "round__number", "pairing__table",
                     "pairing__match_id", "pairing_id", "side", "entry_id")
    )  # fmt: skip
    forfeited = set(Sanction.objects.filter(kind=Sanction.Kind.FORFEIT, revoked_at__isnull=True,
                                            tournament__public=True,
                                            tournament__rated=True)
                    .values_list("pairing_id", flat=True))  # fmt: skip
    players: dict[int, list[int]] = defaultdict(list)
    for entry_id, player_id in Entry.players.through.objects.filter(
        entry__tournament__public=True, entry__tournament__rated=True
    ).order_by("player_id").values_list("entry_id", "player_id"):
        players[entry_id].append(player_id)
    # a substitute is rated for the rounds he played, the player he replaced is not
    subs = lineups(tournament__public=True, tournament__rated=True)
    tables: dict[int, dict[str, Any]] = {}
    for tournament_id, number, table, match_id, pairing_id, side, entry_id in places:
        if pairing_id in forfeited:
            continue
        info = tables.setdefault(match_id, {
            "tournament": tournament_id, "round": number, "table": table or 0,
            "sides": defaultdict(list),
        })  # fmt: skip
        info["sides"][side].extend(subs.ids(entry_id, number, players.get(entry_id, [])))
    results = dict(Match.objects.filter(pk__in=list(tables)).values_list("pk", "winner"))
    totals = dict(Match.objects.filter(pk__in=list(tables)).values_list("pk", "totals"))

    def order(match_id: int) -> tuple[Any, ...]:
        info = tables[match_id]
        t = tournaments[info["tournament"]]
        day = t.start_date or (t.created_at.date() if t.created_at else date.min)
        return (day, t.created_at, t.pk, info["round"], info["table"], match_id)

    history: list[RatedMatch] = []
    where: Where = {}
    skipped: list[int] = []
    for match_id in sorted(tables, key=order):
        info = tables[match_id]
        tournament = tournaments[info["tournament"]]
        sides = sorted(info["sides"])
        team = [tuple(info["sides"][side]) for side in sides]
        if len(team) < 2 or any(not members for members in team):
            continue
        seated = [player for members in team for player in members]
        if len(set(seated)) != len(seated):
            log.warning("ratings: match %s seats a player twice; it is not rated", match_id)
            skipped.append(match_id)
            continue
        ranks = _places(totals.get(match_id) or {}, sides, results[match_id],
                        _low_wins(tournament))  # fmt: skip
        history.append(RatedMatch(match_id, tuple(team), tuple(ranks)))
        where[match_id] = (tournament.pk, info["round"], tournament.start_date)
    return history, where, skipped


def digest(match: RatedMatch, place: tuple[int, int, date | None]) -> str:
    """The fingerprint of a rated match at its place: who played on which side, the places,
    and the tournament, round and date every change of it records."""
    text = repr((match.match, match.sides, match.places, place))
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


CHANGE_COLUMNS = ("player_id", "match_id", "tournament_id", "round_number", "sequence",
                  "played_on", "result", "mu_before", "sigma_before", "mu_after", "sigma_after",
                  "digest")


def _insert_changes(rows: list[tuple[Any, ...]]) -> None:
    """Write the rating changes: PostgreSQL's COPY (tens of thousands of rows in a fraction of
    a second; the ORM's inserts took seconds), elsewhere ``bulk_create``."""
    if connection.vendor != "postgresql":
        RatingChange.objects.bulk_create(
            [RatingChange(**dict(zip(CHANGE_COLUMNS, row, strict=True))) for row in rows],
            batch_size=2000,
        )
        return
    table = RatingChange._meta.db_table
    with connection.cursor() as cursor, cursor.cursor.copy(
        f'COPY "{table}" ({", ".join(CHANGE_COLUMNS)}) FROM STDIN'
    ) as copy:
        for row in rows:
            copy.write_row(row)


@dataclass
class Outcome:
    """What a recompute did: the matches rated, the place of the history it replayed from (0:
    all of it), how many it replayed, and the matches it left out."""

    matches: int
    replayed_from: int
    replayed: int
    skipped: list[int] = field(default_factory=list)


def _first_difference(digests: list[str]) -> int:
    """The first place (0-based) of the history whose stored fingerprint differs from now."""
    stored = dict(RatingChange.objects.values_list("sequence", "digest").distinct())
    for index, value in enumerate(digests):
        if stored.get(index + 1) != value:
            return index
    return len(digests)


def _states_at(place: int) -> tuple[dict[int, State], dict[int, date | None]]:
    """Every player's rating after the first ``place`` matches of the stored history, and the
    last date he played by then (dates never go back along the history, so the latest is the
    last)."""
    kept = RatingChange.objects.filter(sequence__lte=place)
    counts = dict(kept.values("player_id").annotate(n=Count("id")).values_list("player_id", "n"))
    days = dict(kept.values("player_id").annotate(day=Max("played_on"))
                .values_list("player_id", "day"))  # fmt: skip
    latest = kept.order_by("player_id", "-sequence")
    if connection.vendor == "postgresql":
        rows = latest.distinct("player_id").values_list("player_id", "mu_after", "sigma_after")
    else:  # no DISTINCT ON: the last row of each player wins
        rows = kept.order_by("sequence").values_list("player_id", "mu_after", "sigma_after")
    states = {player: State(mu, sigma, counts[player]) for player, mu, sigma in rows}
    return states, days


def update(full: bool = False) -> Outcome:
    """Bring every rating and rating change up to date with the rated history, replaying from
    the first place that changed (``full``: from the start). Idempotent: the same history gives
    the same rows, whoever runs it, however often and from wherever it replays."""
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", [LOCK_KEY])
        history, where, skipped = rated_history()
        digests = [digest(match, where[match.match]) for match in history]
        start = 0 if full else _first_difference(digests)
        beyond = RatingChange.objects.filter(sequence__gt=len(history)).exists()
        if start == len(history) and not beyond:
            return Outcome(len(history), start, 0, skipped)
        states, last = _states_at(start)
        states, changes = replay(history[start:], states, first=start + 1)
        for change in changes:
            last[change.player] = where[change.match][2] or last.get(change.player)
        RatingChange.objects.filter(sequence__gt=start).delete()
        PlayerRating.objects.all().delete()
        PlayerRating.objects.bulk_create(
            [PlayerRating(player_id=pk, mu=s.mu, sigma=s.sigma, matches=s.matches,
                          last_played=last.get(pk)) for pk, s in states.items()],
            batch_size=2000,
        )  # fmt: skip
        rows = [(c.player, c.match, where[c.match][0], where[c.match][1], c.sequence,
                 where[c.match][2], c.result, c.mu_before, c.sigma_before, c.mu_after,
                 c.sigma_after, digests[c.sequence - 1]) for c in changes]  # fmt: skip
        _insert_changes(rows)
    return Outcome(len(history), start, len(history) - start, skipped)


def recompute(full: bool = False) -> int:
    """``update``, answering the number of matches rated."""
    return update(full).matches
