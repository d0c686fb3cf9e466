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

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import override

from scoring import services as scoring
from scoring.errors import ScoringError
from tournaments import formats
from tournaments.errors import PairingFailed
from tournaments.models import Entry, Pairing, PairingEntry, Round
from tournaments.rounds.planning import plan_round
from tournaments.rounds.tables import SEAT_FIELDS, drop_unlocked, seats_of
from tournaments.selectors import lineups


def _progress(round_id: int, percent: int, step: str) -> bool:
    """Visible at once to the page that polls (autocommit, outside the writing transaction)."""
    updated = Round.objects.filter(pk=round_id, status=Round.Status.PAIRING).update(
        progress=percent, step=step
    )
    return updated == 1


def run_pairing(round_id: int) -> str:
    if not _progress(round_id, 10, "loading"):
        return "skipped"
    round_ = Round.objects.select_related("tournament", "stage").get(pk=round_id)
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
        # Empty by now (``regenerate`` dropped them at once, so that nobody can start to play
        # at a table about to go); kept so that a round is never paired on top of old tables.
        drop_unlocked(round_, user)
        taken = set(round_.pairings.filter(locked=True).values_list("table", flat=True))
        numbers = (n for n in range(1, 100_000) if n not in taken)
        ids = {i for t in plan.tables for i in t.entries} | {i for i, _f in plan.byes}
        entries = Entry.objects.prefetch_related("players").in_bulk(ids)
        # Every table, its places and its scoring match in bulk: a fixed number of queries
        # however large the field (2,000 pairs are 1,000 tables).
        tables = []
        # the round's substitutes sit in for their players (read under the round's lock, which
        # setting a substitute takes too)
        subs = lineups(tournament_id=round_.tournament_id)
        for planned in plan.tables:
            sides = [(side, [entries[i] for i in ids]) for side, ids in planned.sides]
            tables.append((next(numbers), planned, sides, seats_of(sides, round_.number, subs)))
        # the event's name only: the round and the table are composed when shown (Match.title)
        label = round_.tournament.name
        tournament = round_.tournament
        specs = []
        for number, planned, _sides, seats in tables:
            # the format says how many sit at the table and whether partners share a side
            options, players = formats.match_settings(
                tournament.rules_preset, tournament.rules_options, tournament.format,
                len(planned.entries),
            )  # fmt: skip
            specs.append(scoring.MatchSpec(tournament.rules_preset, options, players, seats=seats,
                                           label=label, table=str(number),
                                           round=round_.number))  # fmt: skip
        try:
            with override("ru"):
                matches = scoring.create_matches(user, specs)
        except ScoringError as err:
            raise PairingFailed([dict(item) for item in err.errors]) from err
        pairings = Pairing.objects.bulk_create(
            Pairing(round=round_, table=number, flags=list(planned.flags), match=match,
                    **{f"{SEAT_FIELDS[s]}_id": p for s, p in seats.items()})
            for (number, planned, _sides, seats), match in zip(tables, matches, strict=True)
        )  # fmt: skip
        byes = Pairing.objects.bulk_create(
            Pairing(round=round_, table=None, flags=list(flags)) for _id, flags in plan.byes
        )
        PairingEntry.objects.bulk_create(
            [PairingEntry(pairing=pairing, round=round_, entry=entry, side=side,
                          position=position)
             for pairing, (_n, _p, sides, _s) in zip(pairings, tables, strict=True)
             for side, group in sides
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
