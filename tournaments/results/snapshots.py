"""The standings kept in the database, and the fingerprint of what they depend on.

    take_snapshot(round_) -> int                   the standings after a finished round
    refresh_snapshots(tournament, from_round)      retaken after a correction or a sanction,
                                                   the later rounds locked (see there)
    results_stamp(tournament) -> str               one query; changes whenever the standings may

Finishing a round (which takes its snapshot) is ``rounds.services.finish_round``.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.db.models import Count, Max, OuterRef, Q, Subquery, Sum

from scoring.models import Match
from tournaments import standings as pure
from tournaments.models import (
    Entry,
    EntryAbsence,
    Round,
    Sanction,
    Standing,
    Tournament,
)
from tournaments.results.ledger import load
from tournaments.results.tables import entry_rows, row_dict, team_rows


def _per_tournament(queryset: Any, path: str, **aggregates: Any) -> dict[str, Subquery]:
    """Aggregates of ``queryset`` for the outer tournament, as subqueries of one query."""
    grouped = queryset.filter(**{path: OuterRef("pk")}).order_by().values(path)
    return {
        name: Subquery(grouped.annotate(value=aggregate).values("value")[:1])
        for name, aggregate in aggregates.items()
    }


def results_stamp(tournament: Tournament) -> str:
    """A fingerprint of everything a tournament's standings are computed from, in one query:
    the settings that score and order them, its rounds' statuses, every match's last change
    (the scoring services save each change, bumping ``updated_at``), sanctions, entries,
    absences and snapshots. Pages may cache what they computed under it; a new result, round,
    sanction, withdrawal or snapshot changes it. Renaming a player or an entry does not: caches
    keyed by it must also expire (see ``display.CACHE_SECONDS``)."""
    t = tournament
    published, finished = Round.Status.PUBLISHED, Round.Status.FINISHED
    parts = {
        **_per_tournament(Round.objects, "tournament", s_rounds=Count("pk"),
                          s_last_round=Max("number"),
                          s_published=Count("pk", filter=Q(status=published)),
                          s_finished=Count("pk", filter=Q(status=finished)),
                          s_statuses=Max("status")),
        **_per_tournament(Match.objects, "pairing__round__tournament", s_matches=Count("pk"),
                          s_match_top=Max("pk"), s_changed=Max("updated_at"),
                          s_versions=Sum("version")),
        **_per_tournament(Sanction.objects, "tournament", s_sanctions=Count("pk"),
                          s_sanction_top=Max("pk"), s_revoked=Max("revoked_at")),
        **_per_tournament(Entry.objects, "tournament", s_entries=Count("pk"), s_entry_top=Max("pk"),
                          s_withdrawn=Count("pk", filter=Q(status=Entry.Status.WITHDRAWN))),
        **_per_tournament(EntryAbsence.objects, "entry__tournament", s_absences=Count("pk"),
                          s_absence_top=Max("pk")),
        **_per_tournament(Standing.objects, "round__tournament", s_standings=Count("pk"),
                          s_standing_top=Max("pk")),
    }  # fmt: skip
    values = Tournament.objects.filter(pk=t.pk).annotate(**parts).values(*parts).first()
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
