"""The standings kept in the database, and the fingerprint of what they depend on.

    take_snapshot(round_) -> int                   the standings after a finished round (and
                                                   its games, ``round_games``)
    refresh_snapshots(tournament, from_round)      retaken after a correction or a sanction,
                                                   the later rounds locked (see there)
    results_stamp(tournament) -> str               one query; changes whenever the standings may

Finishing a round (which takes its snapshot) is ``rounds.services.finish_round``.
"""

from __future__ import annotations

import hashlib
from functools import cache
from typing import Any

from django.db import connection

from scoring.models import Match
from tournaments import standings as pure
from tournaments.models import (
    Entry,
    EntryAbsence,
    Pairing,
    Round,
    Sanction,
    Standing,
    Tournament,
)
from tournaments.results import round_games
from tournaments.results.ledger import _sides_of, load
from tournaments.results.sides import swapped
from tournaments.results.tables import entry_rows, row_dict, team_rows


@cache
def _stamp_sql() -> str:
    """The stamp's query: one derived table per kind of row, each aggregated once, cross-joined
    (each has one row). Written by hand: the same query built by the ORM as 17 subqueries cost
    ~10 ms of Python on every poll of the standings, and PostgreSQL a plan per subquery."""
    q = connection.ops.quote_name

    def t(model: Any) -> str:
        return q(model._meta.db_table)

    def c(model: Any, name: str) -> str:
        return q(model._meta.get_field(name).column)

    def count_if(model: Any, name: str) -> str:
        return f"SUM(CASE WHEN x.{c(model, name)} = %s THEN 1 ELSE 0 END)"

    def pk(model: Any) -> str:
        return q(model._meta.pk.column)

    parts = [
        f"SELECT COUNT(*), MAX(x.{c(Round, 'number')}), {count_if(Round, 'status')}, "
        f"{count_if(Round, 'status')}, MAX(x.{c(Round, 'status')}) "
        f"FROM {t(Round)} x WHERE x.{c(Round, 'tournament')} = %s",
        f"SELECT COUNT(*), MAX(x.{pk(Match)}), MAX(x.{c(Match, 'updated_at')}), "
        f"SUM(x.{c(Match, 'version')}) FROM {t(Match)} x "
        f"JOIN {t(Pairing)} p ON p.{c(Pairing, 'match')} = x.{pk(Match)} "
        f"JOIN {t(Round)} r ON r.{pk(Round)} = p.{c(Pairing, 'round')} "
        f"WHERE r.{c(Round, 'tournament')} = %s",
        f"SELECT COUNT(*), MAX(x.{pk(Sanction)}), MAX(x.{c(Sanction, 'revoked_at')}) "
        f"FROM {t(Sanction)} x WHERE x.{c(Sanction, 'tournament')} = %s",
        f"SELECT COUNT(*), MAX(x.{pk(Entry)}), {count_if(Entry, 'status')} "
        f"FROM {t(Entry)} x WHERE x.{c(Entry, 'tournament')} = %s",
        f"SELECT COUNT(*), MAX(x.{pk(EntryAbsence)}) FROM {t(EntryAbsence)} x "
        f"JOIN {t(Entry)} e ON e.{pk(Entry)} = x.{c(EntryAbsence, 'entry')} "
        f"WHERE e.{c(Entry, 'tournament')} = %s",
    ]
    return "SELECT * FROM " + ", ".join(f"({part}) s{i}" for i, part in enumerate(parts))


def results_stamp(tournament: Tournament) -> str:
    """A fingerprint of everything a tournament's standings are computed from, in one query:
    the settings that score and order them, its rounds' statuses, every match's last change
    (the scoring services save each change, bumping ``updated_at``), sanctions, entries,
    and absences. Pages may cache what they computed under it; a new result, round, sanction
    or withdrawal changes it. Snapshots are not read: one is taken or retaken only in the
    transaction of a change that is (a round finished, a protocol corrected, a sanction), and
    reading them cost a third of the query on a long event. Renaming a player or an entry does
    not change it: caches keyed by it must also expire (see ``display.CACHE_SECONDS``)."""
    t = tournament
    params = [Round.Status.PUBLISHED, Round.Status.FINISHED, t.pk, t.pk, t.pk,
              Entry.Status.WITHDRAWN, t.pk, t.pk]  # fmt: skip
    with connection.cursor() as cursor:
        cursor.execute(_stamp_sql(), params)
        values = cursor.fetchone()
    settings = (
        t.pk, t.created_at, t.format, t.rules_preset, t.rules_options, t.points_win,
        t.points_draw, t.points_loss, t.bye_result, t.tie_breaks,
    )  # fmt: skip
    raw = repr((settings, values))
    return hashlib.sha1(raw.encode(), usedforsecurity=False).hexdigest()


def take_snapshot(round_: Round) -> int:
    """Write the standings after ``round_`` (replacing any earlier snapshot of it)."""
    tournament = round_.tournament
    ledger = load(tournament, round_.number)
    Standing.objects.filter(round=round_).delete()
    rows: list[Standing] = []
    scopes: list[tuple[str, list[pure.Row]]] = [(Standing.Scope.ENTRIES, entry_rows(ledger))]
    if tournament.format == Tournament.Format.TEAMS:
        scopes.append((Standing.Scope.TEAMS, team_rows(ledger)))
    for scope, ranked in scopes:
        rows += [Standing(round=round_, entry_id=row.participant, scope=scope, rank=row.rank,
                          match_points=row.match_points, metrics=row_dict(row))
                 for row in ranked]  # fmt: skip
    Standing.objects.bulk_create(rows, batch_size=1000)
    # the round's games too, for the live standings of the later rounds (``round_games``)
    round_games.keep(round_, ledger.games, ledger.cells,
                     round_games.basis(tournament, swapped(tournament), _sides_of(tournament)))
    return len(rows)


def refresh_snapshots(tournament: Tournament, from_round: int) -> None:
    """Retake the snapshots of finished rounds from ``from_round`` on (after a correction or a
    sanction changed them). Call it inside the change's transaction, after the change.

    Every round from ``from_round`` on is locked first, in order (``finish_round`` locks the
    row of the round it finishes), so a round being finished at the same moment cannot miss
    the change: either it was finished first, and the lock here waits for it, sees it finished
    and retakes its snapshot; or it is finished after this transaction commits, and its own
    snapshot, taken under its lock, reads the change. Without the lock each read the other's
    state from before and the old snapshot stayed."""
    later = Round.objects.select_for_update().filter(tournament=tournament,
                                                     number__gte=from_round)  # fmt: skip
    for round_ in later.order_by("number"):
        if round_.status == Round.Status.FINISHED:
            round_.tournament = tournament
            take_snapshot(round_)
