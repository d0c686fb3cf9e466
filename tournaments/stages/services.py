"""Setting up the final stage and starting it; each one transaction, audited.

    configure(user, tournament_id, kind, qualifiers=8, best_of=1, third_place=False,
              groups=0, per_group=2, seeding="seed", carry_over="none") -> Stage | None
                        the stages as the setup page sets them: groups first (``groups`` 0:
                        none), then the final stage (``kind`` "" none, ``knockout``, or
                        ``round_robin`` of the groups' best); refused once they have started
    freeze_groups(tournament) -> None
                        round 1 is being paired: the groups dealt by snake seeding and frozen,
                        the tournament's rounds set to what the largest group needs
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
from tournaments import selectors as shared
from tournaments.access import User, require_manager
from tournaments.errors import Conflict, TournamentError
from tournaments.models import Entry, Round, Stage, Standing, Tournament
from tournaments.pairing import groups as groups_of

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
              third_place: bool = False, groups: int = 0, per_group: int = 2,
              seeding: str = "seed", carry_over: str = "none") -> Stage | None:  # fmt: skip
    with transaction.atomic():
        tournament = _locked(user, tournament_id)
        stage = tournament.stages.filter(number=2).first()
        if stage is not None and stage.started:
            raise Conflict.one("stage_started", _("The final stage has started; it cannot "
                                                  "change any more."))  # fmt: skip
        _configure_groups(user, tournament, groups, per_group, seeding)
        if groups and kind == Stage.Kind.KNOCKOUT:
            # the bracket holds every group's best: the smallest one that does
            qualifiers = next((n for n in (2, 4, 8, 16) if n >= groups * per_group), 0)
        before = _as_dict(stage)
        if not kind:
            if stage is not None:
                stage.delete()
                audit.record(user, "stage.remove", tournament, tournament_id=tournament.pk,
                             before=before, after={})  # fmt: skip
            return None
        if kind == Stage.Kind.ROUND_ROBIN and groups:
            if carry_over not in Stage.CarryOver.values:
                raise TournamentError.one("bad_carry_over", _("Choose what is carried over."),
                                          "carry_over")  # fmt: skip
            stage = stage or Stage(tournament=tournament, number=2)
            stage.kind, stage.carry_over, stage.per_group = kind, carry_over, per_group
            stage.save()
            audit.record(user, "stage.configure", tournament, tournament_id=tournament.pk,
                         before=before, after=_as_dict(stage) | {"carry_over": carry_over})
            return stage
        if kind != Stage.Kind.KNOCKOUT:
            raise TournamentError.one("bad_kind", _("Choose a final stage (a final round robin "
                                                    "follows groups only)."), "kind")
        if tournament.format not in KNOCKOUT_FORMATS:
            raise TournamentError.one(
                "bad_format", _("A knock-out is played by fixed pairs or head to head, one "
                                "entry against one."), "kind",
            )  # fmt: skip
        if qualifiers not in (2, 4, 8, 16):
            raise TournamentError.one("bad_qualifiers", _("Choose 2, 4, 8 or 16 qualifiers "
                                                          "(at most 16 from the groups)."),
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
        stage.third_place, stage.per_group = third_place, per_group
        stage.save()
        audit.record(user, "stage.configure", tournament, tournament_id=tournament.pk,
                     before=before, after=_as_dict(stage))  # fmt: skip
    return stage


def _configure_groups(user: User, tournament: Tournament, groups: int, per_group: int,
                      seeding: str) -> None:  # fmt: skip
    """The groups' stage (number 1) as asked: added, changed, or removed (``groups`` 0); only
    before round 1 is paired (the groups are dealt then)."""
    first = tournament.stages.filter(number=1).first()
    now = (groups, per_group, seeding) if groups else None
    was = (first.groups, first.per_group, first.seeding) if first else None
    if now == was:
        return
    if tournament.round_set.exists():
        raise Conflict.one("groups_dealt", _("The groups are dealt when round 1 is paired; "
                                             "they cannot change any more."), "groups")
    if first is not None and not groups:
        first.delete()
    if groups:
        if tournament.format not in KNOCKOUT_FORMATS:
            raise TournamentError.one("bad_format", _("Groups are played by fixed pairs or head "
                                                      "to head."), "groups")  # fmt: skip
        if tournament.system != Tournament.System.ROUND_ROBIN:
            raise TournamentError.one("bad_system", _("Groups play a round robin: choose the "
                                                      "round robin system in the setup."),
                                      "groups")  # fmt: skip
        if not 2 <= groups <= 64 or not 1 <= per_group <= 8:
            raise TournamentError.one("bad_groups", _("Choose 2 to 64 groups and 1 to 8 "
                                                      "qualifiers per group."), "groups")
        if seeding not in Stage.Seeding.values:
            raise TournamentError.one("bad_seeding", _("Choose how the groups are seeded."),
                                      "seeding")  # fmt: skip
        first = first or Stage(tournament=tournament, number=1, kind=Stage.Kind.GROUPS)
        first.groups, first.per_group, first.seeding = groups, per_group, seeding
        first.save()
    audit.record(user, "stage.groups", tournament, tournament_id=tournament.pk,
                 before={"groups": was}, after={"groups": now})  # fmt: skip


def freeze_groups(tournament: Tournament) -> None:
    """Deal the groups (snake seeding by seed or by rating) and freeze them; the tournament's
    rounds become what the largest group needs. Called under the tournament's lock."""
    first = tournament.stages.filter(number=1, kind=Stage.Kind.GROUPS).first()
    if first is None or first.members:
        return
    entries = list(tournament.entries.filter(status=Entry.Status.ACTIVE).order_by("seed", "pk"))
    if first.seeding == Stage.Seeding.RATING:
        entries = list(shared.by_rating(entries, shared.entry_ratings(tournament),
                                        shared.imported_ratings(tournament)))  # fmt: skip
    try:
        first.members = groups_of.snake([e.pk for e in entries], first.groups)
    except ValueError as err:
        raise TournamentError.one("too_few", _("Too few entries for %(n)s groups of two or "
                                               "more.") % {"n": first.groups}) from err
    first.started_at = timezone.now()
    first.save(update_fields=["members", "started_at"])
    tournament.rounds = groups_of.group_rounds(first.members)
    tournament.save(update_fields=["rounds"])


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
    order = qualifier_order(tournament, stage, last)
    if len(order) < 2:
        raise Conflict.one("too_few", _("At least two active entries must qualify."))
    stage.seeds = order
    stage.started_at = timezone.now()
    stage.started_by = user  # type: ignore[assignment]
    stage.save(update_fields=["seeds", "started_at", "started_by"])
    audit.record(user, "stage.start", tournament, tournament_id=tournament.pk,
                 before={}, after={"seeds": order, "after_round": last})  # fmt: skip
    return stage


def qualifier_order(tournament: Tournament, stage: Stage, last: int) -> list[int]:
    """The final stage's seeds as the qualifying standings after round ``last`` give them now
    (the snapshots are retaken when a protocol is corrected)."""
    ranked = list(
        Standing.objects.filter(round__tournament=tournament, round__number=last,
                                scope=Standing.Scope.ENTRIES,
                                entry__status=Entry.Status.ACTIVE)
        .order_by("rank").values_list("entry_id", flat=True)
    )  # fmt: skip
    first = tournament.stages.filter(number=1, kind=Stage.Kind.GROUPS).first()
    if first is not None:  # each group's best K, the winners first (by the whole table)
        place = {entry: n for n, entry in enumerate(ranked)}
        groups = [sorted((e for e in g if e in place), key=place.__getitem__)
                  for g in first.members]  # fmt: skip
        in_group = {e: i for g in groups for i, e in enumerate(g)}
        order = sorted(groups_of.cross_seeds(groups, stage.per_group),
                       key=lambda e: (in_group[e], place[e]))  # fmt: skip
    else:
        order = ranked[: stage.qualifiers]
    return order


def seeds_moved(tournament: Tournament, stage: Stage) -> list[int] | None:
    """The seeds the qualifying standings give now, when they differ from the frozen ones (a
    qualifying protocol corrected after the final stage started); None when they agree."""
    if not stage.started or not stage.seeds:
        return None
    last = tournament.round_set.filter(stage__isnull=True).order_by("-number").values_list(
        "number", flat=True).first()  # fmt: skip
    if last is None:
        return None
    now = qualifier_order(tournament, stage, last)
    return now if now != list(stage.seeds) else None
