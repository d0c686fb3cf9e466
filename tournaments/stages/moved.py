"""What a correction of the qualifying stage changed after the final stage's seeds were frozen,
for the organiser's stages page.

    seeds_moved(tournament, stage) -> Moved | None     None while the standings still give the
                                                       frozen seeds

The bracket keeps its seeds (nothing is re-seeded by itself): the page says which entries the
standings now seed otherwise, which would no longer qualify or would qualify now, and which
qualifying protocols were corrected after the seeding (round, table, who, when, why). Reads only,
a few queries.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.utils.translation import gettext as _

from scoring.models import MatchVersion
from tournaments.models import Pairing, Stage, Tournament
from tournaments.stages import services


@dataclass
class Correction:
    round: int
    table: int | None
    by: str
    at: datetime
    reason: str


@dataclass
class Moved:
    then: list[str]  # the bracket's seeds, by name, best first
    now: list[str]  # the seeds the standings give now
    changes: list[str]  # one sentence an entry
    corrections: list[Correction] = field(default_factory=list)


def seeds_moved(tournament: Tournament, stage: Stage | None) -> Moved | None:
    now = services.seeds_moved(tournament, stage) if stage is not None else None
    if now is None or stage is None:
        return None
    then = list(stage.seeds)
    names = dict(tournament.entries.values_list("pk", "name"))
    changes = []
    for seed, entry in enumerate(then, 1):
        name = names.get(entry, "—")
        if entry not in now:
            changes.append(_("%(name)s, seed %(then)s of the bracket, would not qualify now.")
                           % {"name": name, "then": seed})  # fmt: skip
        elif now.index(entry) + 1 != seed:
            changes.append(_("%(name)s: seed %(then)s of the bracket, %(now)s by the standings "
                             "now.") % {"name": name, "then": seed, "now": now.index(entry) + 1})
    for seed, entry in enumerate(now, 1):
        if entry not in then:
            changes.append(_("%(name)s would qualify now, as seed %(now)s.")
                           % {"name": names.get(entry, "—"), "now": seed})  # fmt: skip
    return Moved([names.get(e, "—") for e in then], [names.get(e, "—") for e in now], changes,
                 _corrections(tournament, stage))  # fmt: skip


def _corrections(tournament: Tournament, stage: Stage) -> list[Correction]:
    """The qualifying protocols corrected after the final stage started, latest first."""
    rows = (MatchVersion.objects
            .filter(action=MatchVersion.Action.CORRECT, at__gt=stage.started_at,
                    match__pairing__round__tournament=tournament,
                    match__pairing__round__stage__isnull=True)
            .select_related("user").order_by("-at"))  # fmt: skip
    rows = list(rows)
    where = dict(
        (match, (number, table)) for match, number, table in Pairing.objects.filter(
            match_id__in=[r.match_id for r in rows]).values_list("match_id", "round__number",
                                                                "table")
    )  # fmt: skip
    return [Correction(where[r.match_id][0], where[r.match_id][1],
                       r.user.get_full_name() or r.user.username if r.user else "—", r.at,
                       r.reason) for r in rows if r.match_id in where]  # fmt: skip
