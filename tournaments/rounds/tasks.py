"""Celery tasks of the tournaments app: pairing a round.

``pair_round`` is acknowledged late (a worker that dies mid-task leaves the message to be
delivered again) and is idempotent: ``job.run_pairing`` writes only while the round, locked
with ``select_for_update``, is still ``pairing``, so a second delivery finds it paired and does
nothing. A refusal the organiser can act on (too few entries, rules the engine refuses) returns
the round to ``new`` with the message; an unexpected error does the same and is re-raised so that
it is logged as the bug it is.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.utils.translation import override

from tournaments.errors import TournamentError
from tournaments.rounds import job

log = logging.getLogger(__name__)


@shared_task(name="tournaments.pair_round", acks_late=True, reject_on_worker_lost=True)
def pair_round(round_id: int) -> str:
    with override("ru"):
        try:
            return job.run_pairing(round_id)
        except TournamentError as exc:
            job.fail_pairing(round_id, "; ".join(exc.messages))
            return "failed"
        except Exception as exc:
            log.exception("pairing round %s failed", round_id)
            job.fail_pairing(round_id, f"{type(exc).__name__}: {exc}")
            raise
