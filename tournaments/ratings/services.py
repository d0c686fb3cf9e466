"""Ratings from the database: the rated history loaded in order, replayed, and written.

    rated_history() -> list[RatedMatch], dict[match, (tournament, round, date)]
    recompute() -> int                 every rating rewritten from the whole history (one
                                       transaction, one at a time); the number of matches rated

What is rated: the confirmed, decided matches of the published and finished rounds of public,
rated tournaments (a private tournament's matches never move a rating anybody can see; an import
arrives unrated until a site administrator marks it rated), forfeited tables excepted. Their
order: the tournament's start date (its creation date when it has none), its creation time,
the round, the table; the archive restores all of these, so an imported tournament takes the
same place in the history as the original.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date
from typing import Any

from django.db import connection, transaction

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
from tournaments.ratings.compute import RatedMatch, replay
from tournaments.selectors import lineups

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


def rated_history() -> tuple[list[RatedMatch], dict[int, tuple[int, int, date | None]]]:
    """Every rated match in order (see the module docstring), in six queries; each side rated
    as it played (its substitutes in: ``selectors.lineups``)."""
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
    where: dict[int, tuple[int, int, date | None]] = {}
    for match_id in sorted(tables, key=order):
        info = tables[match_id]
        tournament = tournaments[info["tournament"]]
        sides = sorted(info["sides"])
        team = [tuple(info["sides"][side]) for side in sides]
        if len(team) < 2 or any(not members for members in team):
            continue
        ranks = _places(totals.get(match_id) or {}, sides, results[match_id],
                        _low_wins(tournament))  # fmt: skip
        history.append(RatedMatch(match_id, tuple(team), tuple(ranks)))
        where[match_id] = (tournament.pk, info["round"], tournament.start_date)
    return history, where


CHANGE_COLUMNS = ("player_id", "match_id", "tournament_id", "round_number", "sequence",
                  "played_on", "result", "mu_before", "sigma_before", "mu_after", "sigma_after")


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


def recompute() -> int:
    """Rewrite every rating and rating change from the whole rated history. Idempotent: the
    same history gives the same rows, whoever runs it and however often."""
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", [LOCK_KEY])
        history, where = rated_history()
        states, changes = replay(history)
        last: dict[int, date | None] = {}
        for change in changes:
            last[change.player] = where[change.match][2] or last.get(change.player)
        RatingChange.objects.all().delete()
        PlayerRating.objects.all().delete()
        PlayerRating.objects.bulk_create(
            [PlayerRating(player_id=pk, mu=s.mu, sigma=s.sigma, matches=s.matches,
                          last_played=last.get(pk)) for pk, s in states.items()],
            batch_size=2000,
        )  # fmt: skip
        rows = [(c.player, c.match, where[c.match][0], where[c.match][1], c.sequence,
                 where[c.match][2], c.result, c.mu_before, c.sigma_before, c.mu_after,
                 c.sigma_after) for c in changes]  # fmt: skip
        _insert_changes(rows)
    return len(history)
