"""The body of the pairing job that runs in Celery (``rounds.tasks.pair_round``).

    run_pairing(round_id) -> str       "paired" or "skipped"
    fail_pairing(round_id, message)    back to ``new`` with the error shown

``run_pairing`` writes every table of ``rounds.planning.plan_round`` and its scoring match in one
transaction with the round row locked, and only while the round is still ``pairing``: a task
delivered twice, or again after a worker died, finds the round paired and does nothing. It
reports progress on the round row (``progress``, ``step``) for the organiser's page.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import override

from scoring import services as scoring
from scoring.errors import ScoringError
from scoring.models import Match
from tournaments.errors import Conflict, PairingFailed
from tournaments.models import Entry, Pairing, PairingEntry, Round
from tournaments.rounds.planning import plan_round


def _progress(round_id: int, percent: int, step: str) -> bool:
    """Visible at once to the page that polls (autocommit, outside the writing transaction)."""
    updated = Round.objects.filter(pk=round_id, status=Round.Status.PAIRING).update(
        progress=percent, step=step
    )
    return updated == 1


def seats_of(ns: Sequence[Entry], ew: Sequence[Entry]) -> dict[str, int | None]:
    """Pairs: the NS pair's players sit N and S, the EW pair's E and W. Individual format: the
    first of each side sits N (E), the partner S (W)."""

    def players(side: Sequence[Entry]) -> list[int]:
        return [p.pk for entry in side for p in entry.players.all()][:2]

    north_south, east_west = players(ns), players(ew)
    seats: dict[str, int | None] = dict.fromkeys("NESW")
    for seat, player in zip("NS", north_south, strict=False):
        seats[seat] = player
    for seat, player in zip("EW", east_west, strict=False):
        seats[seat] = player
    return seats


def create_match(pairing: Pairing, ns: Sequence[Entry], ew: Sequence[Entry], user: Any) -> Match:
    tournament = pairing.round.tournament
    label = f"{tournament.name} · {_('round')} {pairing.round.number}"
    try:
        with override("ru"):
            return scoring.create_match(
                user=user, rules_preset=tournament.rules_preset,
                rules_options=tournament.rules_options, seats=seats_of(ns, ew),
                referee=pairing.referee, label=label, table=str(pairing.table),
            )  # fmt: skip
    except ScoringError as err:
        raise PairingFailed([dict(item) for item in err.errors]) from err


def run_pairing(round_id: int) -> str:
    if not _progress(round_id, 10, "loading"):
        return "skipped"
    round_ = Round.objects.select_related("tournament").get(pk=round_id)
    plan = plan_round(round_)
    _progress(round_id, 60, "writing")
    with transaction.atomic():
        round_ = (
            Round.objects.select_for_update(of=("self",))
            .select_related("tournament", "requested_by")
            .get(pk=round_id)
        )
        if round_.status != Round.Status.PAIRING:
            return "skipped"
        user = round_.requested_by
        if user is None:
            raise PairingFailed.one("no_user", _("Nobody requested this pairing."))
        drop_unlocked(round_)
        taken = set(round_.pairings.filter(locked=True).values_list("table", flat=True))
        numbers = (n for n in range(1, 100_000) if n not in taken)
        ids = {i for t in plan.tables for i in (*t.ns, *t.ew)} | {i for i, _f in plan.byes}
        entries = Entry.objects.prefetch_related("players").in_bulk(ids)
        # Every table, its places and its scoring match in bulk: a fixed number of queries
        # however large the field (2,000 pairs are 1,000 tables).
        tables = []
        for planned in plan.tables:
            ns = [entries[i] for i in planned.ns]
            ew = [entries[i] for i in planned.ew]
            tables.append((next(numbers), planned, ns, ew, seats_of(ns, ew)))
        label = f"{round_.tournament.name} · {_('round')} {round_.number}"
        tournament = round_.tournament
        specs = [
            scoring.MatchSpec(tournament.rules_preset, tournament.rules_options,
                              seats=seats, label=label, table=str(number))
            for number, _planned, _ns, _ew, seats in tables
        ]  # fmt: skip
        try:
            with override("ru"):
                matches = scoring.create_matches(user, specs)
        except ScoringError as err:
            raise PairingFailed([dict(item) for item in err.errors]) from err
        pairings = Pairing.objects.bulk_create(
            Pairing(round=round_, table=number, flags=list(planned.flags), match=match,
                    **{f"{SEAT_FIELDS[s]}_id": p for s, p in seats.items()})
            for (number, planned, _ns, _ew, seats), match in zip(tables, matches, strict=True)
        )  # fmt: skip
        byes = Pairing.objects.bulk_create(
            Pairing(round=round_, table=None, flags=list(flags)) for _id, flags in plan.byes
        )
        PairingEntry.objects.bulk_create(
            [PairingEntry(pairing=pairing, round=round_, entry=entry, side=side,
                          position=position)
             for pairing, (_n, _p, ns, ew, _s) in zip(pairings, tables, strict=True)
             for side, group in (("NS", ns), ("EW", ew))
             for position, entry in enumerate(group)]
            + [PairingEntry(pairing=bye, round=round_, entry_id=entry_id,
                            side=PairingEntry.Side.BYE)
               for bye, (entry_id, _flags) in zip(byes, plan.byes, strict=True)]
        )  # fmt: skip
        _pause_for_fault_tests()
        round_.status = Round.Status.PAIRED
        round_.progress, round_.step, round_.error = 100, "done", ""
        round_.notes = plan.notes
        round_.paired_at = timezone.now()
        round_.save()
    return "paired"


def _pause_for_fault_tests() -> None:
    """``PAIRING_FAULT_TEST_PAUSE=<seconds>``: wait inside the writing transaction, every table
    written but not committed, so that ``tests_faults`` can kill the worker there. Unset (always,
    outside those tests) it does nothing."""
    pause = os.environ.get("PAIRING_FAULT_TEST_PAUSE")
    if pause:
        time.sleep(float(pause))


def fail_pairing(round_id: int, message: str) -> None:
    with transaction.atomic():
        round_ = Round.objects.select_for_update().get(pk=round_id)
        if round_.status != Round.Status.PAIRING:
            return
        round_.status = Round.Status.NEW
        round_.error = message[:2000]
        round_.progress, round_.step = 0, "failed"
        round_.save()


SEAT_FIELDS = {"N": "seat_n", "E": "seat_e", "S": "seat_s", "W": "seat_w"}


def drop_unlocked(round_: Round) -> None:
    """Delete the round's unlocked tables and byes with their (still empty) matches."""
    pairings = list(round_.pairings.filter(locked=False).select_related("match"))
    matches = [p.match for p in pairings if p.match is not None]
    for match in matches:
        require_blank(match)
    Pairing.objects.filter(pk__in=[p.pk for p in pairings]).delete()
    Match.objects.filter(pk__in=[m.pk for m in matches]).delete()


def require_blank(match: Match) -> None:
    if match.status != Match.Status.DRAFT or match.deals.exists():
        raise Conflict.one(
            "match_started",
            _("Table %(table)s already has deals recorded; it cannot change.")
            % {"table": match.table},
        )
