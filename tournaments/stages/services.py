"""Setting up the final stage and starting it; each one transaction, audited.

    configure(user, tournament_id, kind, qualifiers=8, best_of=1, third_place=False) -> Stage|None
                        the final stage as the setup page sets it (``kind`` "" removes it);
                        refused once it has started
    start(user, tournament_id) -> Stage
                        the qualifying stage is over: the best ``qualifiers`` of its standings
                        (the last round's snapshot, by the tie-break order in force) are seeded
                        and frozen; ``rounds.services.start_final_stage`` pairs its first round

Only the tournament's organisers act (``require_manager``). A knock-out seats two sides at a table,
so it is offered for fixed pairs and head to head only.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import audit
from tournaments.access import User, require_manager
from tournaments.errors import Conflict, TournamentError
from tournaments.models import Entry, Round, Stage, Standing, Tournament

#: the formats a knock-out can be played in: two sides, one entry each
KNOCKOUT_FORMATS = (Tournament.Format.PAIRS, Tournament.Format.SINGLES)


def _locked(user: User, tournament_id: int) -> Tournament:
    tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
    require_manager(user, tournament)
    return tournament


def _as_dict(stage: Stage | None) -> dict[str, object]:
    if stage is None:
        return {}
    return {"kind": stage.kind, "qualifiers": stage.qualifiers, "best_of": stage.best_of,
            "third_place": stage.third_place}  # fmt: skip


def configure(user: User, tournament_id: int, kind: str, qualifiers: int = 8, best_of: int = 1,
              third_place: bool = False) -> Stage | None:  # fmt: skip
    with transaction.atomic():
        tournament = _locked(user, tournament_id)
        stage = tournament.stages.filter(number=2).first()
        if stage is not None and stage.started:
            raise Conflict.one("stage_started", _("The final stage has started; it cannot "
                                                  "change any more."))  # fmt: skip
        before = _as_dict(stage)
        if not kind:
            if stage is not None:
                stage.delete()
                audit.record(user, "stage.remove", tournament, tournament_id=tournament.pk,
                             before=before, after={})  # fmt: skip
            return None
        if kind != Stage.Kind.KNOCKOUT:
            raise TournamentError.one("bad_kind", _("Choose a final stage."), "kind")
        if tournament.format not in KNOCKOUT_FORMATS:
            raise TournamentError.one(
                "bad_format", _("A knock-out is played by fixed pairs or head to head, one "
                                "entry against one."), "kind",
            )  # fmt: skip
        if qualifiers not in (2, 4, 8, 16):
            raise TournamentError.one("bad_qualifiers", _("Choose 2, 4, 8 or 16 qualifiers."),
                                      "qualifiers")  # fmt: skip
        if best_of not in (1, 3):
            raise TournamentError.one("bad_best_of", _("A tie is one match or the best of "
                                                       "three."), "best_of")  # fmt: skip
        if third_place and qualifiers < 4:
            raise TournamentError.one("bad_third_place", _("A match for third place needs at "
                                                           "least four qualifiers."),
                                      "third_place")  # fmt: skip
        stage = stage or Stage(tournament=tournament, number=2)
        stage.kind, stage.qualifiers, stage.best_of = kind, qualifiers, best_of
        stage.third_place = third_place
        stage.save()
        audit.record(user, "stage.configure", tournament, tournament_id=tournament.pk,
                     before=before, after=_as_dict(stage))  # fmt: skip
    return stage


def qualifying_over(tournament: Tournament, statuses: dict[int, str]) -> bool:
    """Every planned qualifying round played and finished (``statuses``: the qualifying
    rounds' by number)."""
    return (len(statuses) >= tournament.rounds
            and all(s == Round.Status.FINISHED for s in statuses.values()))  # fmt: skip


def start(user: User, tournament_id: int) -> Stage:
    """Seed the final stage from the qualifying standings and mark it started (call inside the
    transaction that pairs its first round)."""
    tournament = _locked(user, tournament_id)
    stage = tournament.stages.filter(number=2).first()
    if stage is None:
        raise Conflict.one("no_stage", _("This tournament has no final stage; set it up first."))
    if stage.started:
        raise Conflict.one("stage_started", _("The final stage has already started."))
    qualifying = tournament.round_set.filter(stage__isnull=True)
    statuses = dict(qualifying.values_list("number", "status"))
    if not qualifying_over(tournament, statuses):
        raise Conflict.one(
            "qualifying_open",
            _("The qualifying stage is not over: all %(n)s rounds must be played and finished "
              "first.") % {"n": tournament.rounds},
        )  # fmt: skip
    last = max(statuses)
    order = list(
        Standing.objects.filter(round__tournament=tournament, round__number=last,
                                scope=Standing.Scope.ENTRIES,
                                entry__status=Entry.Status.ACTIVE)
        .order_by("rank").values_list("entry_id", flat=True)[: stage.qualifiers]
    )  # fmt: skip
    if len(order) < 2:
        raise Conflict.one("too_few", _("At least two active entries must qualify."))
    stage.seeds = order
    stage.started_at = timezone.now()
    stage.started_by = user  # type: ignore[assignment]
    stage.save(update_fields=["seeds", "started_at", "started_by"])
    audit.record(user, "stage.start", tournament, tournament_id=tournament.pk,
                 before={}, after={"seeds": order, "after_round": last})  # fmt: skip
    return stage
