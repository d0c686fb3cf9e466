"""Groups then a final: a 3-group open (snake seeding, a Berger round robin in each group), the
best two of each group to a final round robin carrying over their group games, through the
services and the pairing job (eager Celery); the stage page and the final ranking."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from tournaments import rounds
from tournaments.errors import Conflict, TournamentError
from tournaments.models import Round, Stage, Tournament
from tournaments.pairing import groups as pure_groups
from tournaments.stages import services as stages
from tournaments.tests.conftest import add_pairs
from tournaments.tests.stages.test_knockout_stage import decide, finish, pair, sides

pytestmark = pytest.mark.django_db


def test_snake_seeding_deals_there_and_back() -> None:
    assert pure_groups.snake(list(range(1, 13)), 3) == [[1, 6, 7, 12], [2, 5, 8, 11],
                                                         [3, 4, 9, 10]]  # fmt: skip
    assert pure_groups.group_rounds([[1, 2, 3], [4, 5, 6, 7]]) == 3
    assert pure_groups.cross_seeds([[1, 6], [2, 5], [3, 4]], 2) == [1, 2, 3, 6, 5, 4]
    with pytest.raises(ValueError):
        pure_groups.snake([1, 2, 3], 2)
    first = pure_groups.groups_round([[1, 6, 7, 12], [2, 5, 8]], 1)
    assert [(t.number, t.ns, t.ew) for t in first.tables] == [
        (1, (1,), (12,)), (2, (6,), (7,)), (3, (5,), (8,))]
    assert [b.id for b in first.byes] == [2]  # the Berger dummy meets number 1


def play_all(user: Any, round_: Round, seed: dict[int, int], capture: Any) -> None:
    rounds.publish(user, round_.pk)
    for table in round_.pairings.filter(table__isnull=False):
        ns, ew = sides(table)
        decide(table, "NS" if seed[ns] < seed[ew] else "EW")
    finish(user, round_, capture)


def test_a_3_group_open_with_a_final_round_robin(
    tournament: Any, organiser: Any, client: Any, django_capture_on_commit_callbacks: Any
) -> None:
    capture = django_capture_on_commit_callbacks
    Tournament.objects.filter(pk=tournament.pk).update(system=Tournament.System.ROUND_ROBIN)
    tournament.refresh_from_db()
    entries = add_pairs(tournament, 12)
    seed = {e.pk: e.seed for e in entries}
    by_seed = {e.seed: e.pk for e in entries}
    stages.configure(organiser, tournament.pk, Stage.Kind.ROUND_ROBIN, groups=3, per_group=2,
                     carry_over=Stage.CarryOver.BETWEEN_FINALISTS)  # fmt: skip

    # round 1 deals the groups by snake seeding; each group of four plays three rounds
    round_ = pair(organiser, tournament, capture)
    first = Stage.objects.get(tournament=tournament, number=1)
    assert first.members == [[by_seed[s] for s in g] for g in
                             ([1, 6, 7, 12], [2, 5, 8, 11], [3, 4, 9, 10])]  # fmt: skip
    tournament.refresh_from_db()
    assert tournament.rounds == 3
    group_of = {e: i for i, g in enumerate(first.members) for e in g}
    for number in range(1, 4):
        if number > 1:
            round_ = pair(organiser, tournament, capture)
        tables = list(round_.pairings.filter(table__isnull=False))
        assert len(tables) == 6 and all("group" in t.flags for t in tables)
        assert all(group_of[sides(t)[0]] == group_of[sides(t)[1]] for t in tables)
        play_all(organiser, round_, seed, capture)
    with pytest.raises(TournamentError):  # the groups are dealt: no more changes
        stages.configure(organiser, tournament.pk, Stage.Kind.ROUND_ROBIN, groups=4)

    # the best two of each group: the winners first, then the runners-up
    with capture(execute=True):
        round_ = rounds.start_final_stage(organiser, tournament.pk)
    final = Stage.objects.get(tournament=tournament, number=2)
    assert sorted(seed[e] for e in final.seeds[:3]) == [1, 2, 3]
    assert sorted(seed[e] for e in final.seeds[3:]) == [4, 5, 6]
    for _n in range(5):  # six finalists: five rounds
        round_.refresh_from_db()
        assert round_.stage_id == final.pk and round_.status == Round.Status.PAIRED
        assert {e for t in round_.pairings.all() for e in sides(t)} == set(final.seeds)
        play_all(organiser, round_, seed, capture)
        if _n < 4:
            round_ = pair(organiser, tournament, capture)
    with pytest.raises(Conflict):
        rounds.start_pairing(organiser, tournament.pk)

    response = client.get(reverse("tournaments:bracket", args=[tournament.pk]))
    page = response.context["page"]
    assert [len(g.lines) for g in page.groups] == [4, 4, 4]
    assert [line.entry for line in page.groups[0].lines] == [by_seed[s] for s in (1, 6, 7, 12)]
    # carried over: the group game between seeds 1 and 6 counts with the five final rounds
    table = page.final_table
    assert [seed[line.entry] for line in table] == [1, 2, 3, 4, 5, 6]
    assert table[0].wins == 6 and table[-1].wins == 0
    ranking = page.ranking
    assert [seed[line.entry] for line in ranking[:6]] == [1, 2, 3, 4, 5, 6]
    assert sorted(seed[line.entry] for line in ranking[6:]) == [7, 8, 9, 10, 11, 12]
    assert [line.place for line in ranking] == list(range(1, 13))
    html = response.content.decode()
    assert 'id="groups"' in html and 'id="final-table"' in html and 'id="final-ranking"' in html
    # the standings stay the groups' (the final round robin has its own table)
    standings = client.get(reverse("tournaments:standings", args=[tournament.pk]))
    assert standings.context["rounds"] == [1, 2, 3]



def test_groups_then_a_knockout_gives_the_best_group_winners_byes(
    tournament: Any, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    capture = django_capture_on_commit_callbacks
    Tournament.objects.filter(pk=tournament.pk).update(system=Tournament.System.ROUND_ROBIN)
    tournament.refresh_from_db()
    entries = add_pairs(tournament, 12)
    seed = {e.pk: e.seed for e in entries}
    final = stages.configure(organiser, tournament.pk, Stage.Kind.KNOCKOUT, best_of=1,
                             groups=3, per_group=2)  # fmt: skip
    assert final is not None and final.qualifiers == 8  # six from the groups: a bracket of 8
    for _number in range(1, 4):
        play_all(organiser, pair(organiser, tournament, capture), seed, capture)
    with capture(execute=True):
        round_ = rounds.start_final_stage(organiser, tournament.pk)
    round_.refresh_from_db()
    final.refresh_from_db()
    assert len(final.seeds) == 6 and sorted(seed[e] for e in final.seeds[:3]) == [1, 2, 3]
    # seeds 1 and 2 (the best group winners) go through without a game: 3 v 6 and 4 v 5
    tables = [tuple(final.seeds.index(e) + 1 for e in sides(t))
              for t in round_.pairings.order_by("table")]  # fmt: skip
    assert tables == [(4, 5), (3, 6)]
