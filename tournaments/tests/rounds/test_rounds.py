"""The round's life through the services: pairing (the task runs eagerly here), the history the
task reads, review (swap, lock, regenerate, referees), publication, and the refusals.

The pure algorithm is replaced by a trivial one (rank 1 against 2, 3 against 4, a bye for an odd
one out) so that these tests pin the bridge, not the pairing rules, which have tests of their own.
"""

from __future__ import annotations

from typing import Any

import pytest

from scoring import services as scoring
from scoring.models import Match
from tournaments import discipline, pairing, rounds
from tournaments.errors import Conflict, NotAllowed, TournamentError
from tournaments.models import Entry, EntryAbsence, Pairing, PairingEntry, Round, Tournament
from tournaments.pairing import Bye, Competitor, RoundPairing, Table
from tournaments.rounds import selectors as rounds_selectors
from tournaments.tests.conftest import make_user

pytestmark = pytest.mark.django_db

CALLS: list[list[Competitor]] = []


def by_rank(competitors: list[Competitor], options: Any) -> RoundPairing:
    CALLS.append(list(competitors))
    ordered = sorted(competitors, key=lambda c: c.rank)
    tables = tuple(
        Table(number=i // 2 + 1, ns=(ordered[i].id,), ew=(ordered[i + 1].id,),
              flags=frozenset({"by_seed"}))
        for i in range(0, len(ordered) - 1, 2)
    )  # fmt: skip
    byes = (Bye(ordered[-1].id),) if len(ordered) % 2 else ()
    return RoundPairing(tables=tables, byes=byes, notes=("trivial",))


@pytest.fixture(autouse=True)
def trivial_swiss(monkeypatch: pytest.MonkeyPatch) -> None:
    CALLS.clear()
    monkeypatch.setattr(pairing, "swiss", by_rank, raising=False)


#: these tests pair rounds whose predecessor is published, not finished (no results or a table
#: still open): the organiser's override, with a reason
EARLY = "проверка без результатов"


def pair(user, tournament, django_capture_on_commit_callbacks, reason: str = "") -> Round:
    with django_capture_on_commit_callbacks(execute=True):
        round_ = rounds.start_pairing(user, tournament.pk, reason)
    round_.refresh_from_db()
    return round_


def sides(round_: Round) -> dict[int, tuple[list[int], list[int]]]:
    out: dict[int, tuple[list[int], list[int]]] = {}
    for p in Pairing.objects.filter(round=round_, table__isnull=False):
        places = list(p.places.order_by("side", "position"))
        out[p.table] = ([x.entry_id for x in places if x.side == "NS"],
                        [x.entry_id for x in places if x.side == "EW"])
    return out


def test_pairing_a_round_writes_every_table_with_its_match(
    tournament, organiser, pairs, django_capture_on_commit_callbacks
) -> None:
    entries = pairs(tournament, 5)
    round_ = pair(organiser, tournament, django_capture_on_commit_callbacks)
    assert round_.status == Round.Status.PAIRED
    assert (round_.number, round_.progress, round_.step) == (1, 100, "done")
    assert round_.notes == ["trivial"]
    assert sides(round_) == {1: ([entries[0].pk], [entries[1].pk]),
                             2: ([entries[2].pk], [entries[3].pk])}
    table = Pairing.objects.get(round=round_, table=1)
    players = list(entries[0].players.all()) + list(entries[1].players.all())
    assert [table.seat_n, table.seat_s, table.seat_e, table.seat_w] == players
    match = table.match
    assert match.rules_preset == tournament.rules_preset
    assert match.seat_player_ids() == {"N": players[0].pk, "S": players[1].pk,
                                       "E": players[2].pk, "W": players[3].pk}
    assert match.table == "1" and match.status == Match.Status.DRAFT
    bye = PairingEntry.objects.get(round=round_, side="BYE")
    assert bye.entry == entries[4] and bye.pairing.match is None
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING


def test_the_task_reads_history_and_match_points_in_few_queries(
    tournament, organiser, pairs, django_capture_on_commit_callbacks, django_assert_max_num_queries
) -> None:
    entries = pairs(tournament, 4)
    first = pair(organiser, tournament, django_capture_on_commit_callbacks)
    rounds.publish(organiser, first.pk)
    table1 = Pairing.objects.get(round=first, table=1).match
    # the EW pair of table 1 (entries[1]) wins a confirmed protocol
    from scoring.tests.helpers import record_all, sport_deals  # noqa: PLC0415
    chief = make_user("chief", "Chief referee")
    chief2 = make_user("chief2", "Chief referee")
    tournament.chief_referees.add(chief, chief2)  # chief referees are per tournament
    record_all(table1, chief, sport_deals())
    scoring.submit(table1.pk, chief)
    scoring.confirm(table1.pk, chief2)
    winner = Match.objects.get(pk=table1.pk).winner
    with django_assert_max_num_queries(2):
        history = rounds_selectors.pairing_history(tournament, 2)
    ns, ew = entries[0].pk, entries[1].pk
    won, lost = (ns, ew) if winner == "NS" else (ew, ns)
    assert history[won].score == 2 and history[lost].score == 0
    assert history[ns].opponents == {ew} and history[ns].last_seat == "NS"
    assert history[entries[2].pk].score == 0  # an unconfirmed protocol counts nothing yet
    round2 = pair(organiser, tournament, django_capture_on_commit_callbacks, EARLY)
    competitors = {c.id: c for c in CALLS[-1]}
    assert competitors[won].rank == 1 and competitors[won].score == 2
    assert competitors[ew].ew_count == 1 and competitors[ew].opponents == frozenset({ns})
    assert round2.number == 2


def test_withdrawn_absent_and_late_entries_are_left_out(
    tournament, organiser, pairs, django_capture_on_commit_callbacks
) -> None:
    entries = pairs(tournament, 6)
    Entry.objects.filter(pk=entries[0].pk).update(status=Entry.Status.WITHDRAWN)
    EntryAbsence.objects.create(entry=entries[1], round_number=1)
    Entry.objects.filter(pk=entries[2].pk).update(joins_round=2)
    pair(organiser, tournament, django_capture_on_commit_callbacks)
    assert {c.id for c in CALLS[-1]} == {e.pk for e in entries[3:]}


def test_byes_count_as_the_tournament_says(tournament, organiser, pairs,
                                           django_capture_on_commit_callbacks) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(bye_result="draw")
    tournament.refresh_from_db()
    entries = pairs(tournament, 3)
    first = pair(organiser, tournament, django_capture_on_commit_callbacks)
    rounds.publish(organiser, first.pk)
    history = rounds_selectors.pairing_history(tournament, 2)
    assert history[entries[2].pk].byes == 1 and history[entries[2].pk].score == 1


def test_a_failed_pairing_returns_the_round_to_new_with_the_error(
    tournament, organiser, pairs, django_capture_on_commit_callbacks
) -> None:
    entries = pairs(tournament, 2)
    EntryAbsence.objects.create(entry=entries[0], round_number=1)
    round_ = pair(organiser, tournament, django_capture_on_commit_callbacks)
    assert round_.status == Round.Status.NEW
    assert round_.error == "Нужны хотя бы две заявки."
    assert not Pairing.objects.exists() and not Match.objects.exists()
    EntryAbsence.objects.all().delete()
    again = pair(organiser, tournament, django_capture_on_commit_callbacks)
    assert (again.pk, again.status, again.error) == (round_.pk, Round.Status.PAIRED, "")


def test_running_the_task_again_changes_nothing(tournament, organiser, pairs,
                                                django_capture_on_commit_callbacks) -> None:
    pairs(tournament, 4)
    round_ = pair(organiser, tournament, django_capture_on_commit_callbacks)
    before = list(Pairing.objects.values_list("pk", "table", "match_id"))
    from tournaments.rounds.tasks import pair_round  # noqa: PLC0415
    assert pair_round.apply(args=[round_.pk]).get() == "skipped"
    assert list(Pairing.objects.values_list("pk", "table", "match_id")) == before


def test_swap_two_entries_between_tables_moves_the_players_in_both_matches(
    tournament, organiser, pairs, django_capture_on_commit_callbacks
) -> None:
    e = pairs(tournament, 4)
    round_ = pair(organiser, tournament, django_capture_on_commit_callbacks)
    old_matches = dict(Pairing.objects.values_list("table", "match_id"))
    rounds.swap(organiser, round_.pk, e[1].pk, e[3].pk)
    assert sides(round_) == {1: ([e[0].pk], [e[3].pk]), 2: ([e[2].pk], [e[1].pk])}
    table1 = Pairing.objects.get(round=round_, table=1)
    assert "swapped" in table1.flags
    assert table1.match.seat_e_id == e[3].players.first().pk
    # in place: each table keeps its match (and its history), whose seats moved
    assert dict(Pairing.objects.values_list("table", "match_id")) == old_matches
    assert Match.objects.count() == 2
    assert list(table1.match.history.values_list("action", flat=True)) == ["create", "reassign"]


def test_swap_refusals(tournament, organiser, other_organiser, pairs,
                       django_capture_on_commit_callbacks) -> None:
    e = pairs(tournament, 4)
    round_ = pair(organiser, tournament, django_capture_on_commit_callbacks)
    with pytest.raises(TournamentError) as refused:
        rounds.swap(organiser, round_.pk, e[0].pk, e[1].pk)
    assert refused.value.codes == ["same_table"]
    with pytest.raises(NotAllowed):
        rounds.swap(other_organiser, round_.pk, e[0].pk, e[2].pk)
    rounds.set_locked(organiser, Pairing.objects.get(round=round_, table=2).pk, True)
    with pytest.raises(Conflict):
        rounds.swap(organiser, round_.pk, e[0].pk, e[2].pk)
    rounds.publish(organiser, round_.pk)
    with pytest.raises(Conflict):
        rounds.swap(organiser, round_.pk, e[0].pk, e[3].pk)


def test_regenerate_keeps_locked_tables_and_pairs_the_rest(
    tournament, organiser, pairs, django_capture_on_commit_callbacks
) -> None:
    e = pairs(tournament, 6)
    round_ = pair(organiser, tournament, django_capture_on_commit_callbacks)
    locked = Pairing.objects.get(round=round_, table=2)
    rounds.set_locked(organiser, locked.pk, True)
    with django_capture_on_commit_callbacks(execute=True):
        rounds.regenerate(organiser, round_.pk)
    round_.refresh_from_db()
    assert round_.status == Round.Status.PAIRED
    assert {c.id for c in CALLS[-1]} == {e[0].pk, e[1].pk, e[4].pk, e[5].pk}
    assert sides(round_) == {1: ([e[0].pk], [e[1].pk]), 2: ([e[2].pk], [e[3].pk]),
                             3: ([e[4].pk], [e[5].pk])}
    assert Pairing.objects.get(round=round_, table=2).pk == locked.pk
    assert Match.objects.count() == 3


def test_referee_assignment_and_publication(
    tournament, organiser, referee, pairs, django_capture_on_commit_callbacks
) -> None:
    pairs(tournament, 2)
    round_ = pair(organiser, tournament, django_capture_on_commit_callbacks)
    table = Pairing.objects.get(round=round_, table=1)
    rounds.assign_referee(organiser, table.pk, referee)
    table.refresh_from_db()
    assert table.referee == referee and table.match.referee == referee
    with pytest.raises(TournamentError) as refused:
        rounds.assign_referee(organiser, table.pk, make_user("not_a_referee"))
    assert refused.value.codes == ["not_referee"]
    assert rounds.publish(organiser, round_.pk).status == Round.Status.PUBLISHED
    with pytest.raises(Conflict):
        rounds.publish(organiser, round_.pk)


def test_the_next_round_waits_for_publication_then_for_the_finish_or_a_reason(
    tournament, organiser, pairs, django_capture_on_commit_callbacks
) -> None:
    pairs(tournament, 2)
    round_ = pair(organiser, tournament, django_capture_on_commit_callbacks)
    with pytest.raises(Conflict) as refused:
        rounds.start_pairing(organiser, tournament.pk)
    assert refused.value.codes == ["round_open"]
    rounds.publish(organiser, round_.pk)
    with pytest.raises(Conflict) as refused:
        rounds.start_pairing(organiser, tournament.pk)
    assert refused.value.codes == ["previous_round_open"]
    assert pair(organiser, tournament, django_capture_on_commit_callbacks, EARLY).number == 2


def test_too_few_entries_or_rounds_are_refused(tournament, organiser, pairs) -> None:
    with pytest.raises(TournamentError) as refused:
        rounds.start_pairing(organiser, tournament.pk)
    assert refused.value.codes == ["too_few"]
    assert not Round.objects.exists()
    Tournament.objects.filter(pk=tournament.pk).update(rounds=1)
    pairs(tournament, 2)
    Round.objects.create(tournament=tournament, number=1, status=Round.Status.PUBLISHED)
    with pytest.raises(Conflict) as refused:
        rounds.start_pairing(organiser, tournament.pk)
    assert refused.value.codes == ["all_paired"]


def test_loading_for_the_algorithm_takes_the_same_few_queries_however_long_the_history(
    tournament, organiser, pairs, django_capture_on_commit_callbacks,
    django_assert_max_num_queries,
) -> None:
    pairs(tournament, 8)
    for _ in range(3):
        paired = pair(organiser, tournament, django_capture_on_commit_callbacks, EARLY)
        rounds.publish(organiser, paired.pk)
    round_ = Round.objects.create(tournament=tournament, number=4)
    with django_assert_max_num_queries(4):
        plan = rounds.plan_round(Round.objects.select_related("tournament").get(pk=round_.pk))
    assert len(plan.tables) == 4
    assert {c.id: c for c in CALLS[-1]}[CALLS[-1][0].id].ns_count == 3


def test_round_robin_follows_the_berger_schedule_with_a_bye_for_an_odd_count(
    tournament, organiser, pairs, django_capture_on_commit_callbacks
) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(system="round_robin")
    entries = pairs(tournament, 5)
    met: dict[int, set[int]] = {e.pk: set() for e in entries}
    for _ in range(5):
        round_ = pair(organiser, tournament, django_capture_on_commit_callbacks, EARLY)
        assert round_.status == Round.Status.PAIRED, round_.error
        assert PairingEntry.objects.filter(round=round_, side="BYE").count() == 1
        for ns, ew in sides(round_).values():
            met[ns[0]].add(ew[0])
            met[ew[0]].add(ns[0])
        rounds.publish(organiser, round_.pk)
    assert all(len(opponents) == 4 for opponents in met.values())


def test_individual_format_seats_four_players_with_partners_opposite(
    organiser, django_capture_on_commit_callbacks
) -> None:
    from tournaments.tests.factories import PlayerFactory  # noqa: PLC0415

    tournament = Tournament.objects.create(name="Личный", format="individual", rounds=3)
    tournament.organisers.add(organiser)
    for i in range(8):
        entry = Entry.objects.create(tournament=tournament, name=f"Игрок {i}", seed=i + 1)
        entry.players.set([PlayerFactory()])
    round_ = pair(organiser, tournament, django_capture_on_commit_callbacks)
    assert round_.status == Round.Status.PAIRED, round_.error
    tables = sides(round_)
    assert len(tables) == 2 and all(len(ns) == len(ew) == 2 for ns, ew in tables.values())
    table = Pairing.objects.get(round=round_, table=1)
    ns_players = {Entry.objects.get(pk=i).players.get().pk for i in tables[1][0]}
    assert {table.seat_n_id, table.seat_s_id} == ns_players
    assert len({table.seat_n_id, table.seat_e_id, table.seat_s_id, table.seat_w_id}) == 4


# --- pairing reads the standings snapshot -------------------------------------------------------


def plan_ranks(round_number: int, tournament: Tournament) -> dict[int, tuple[int, float]]:
    """entry -> (rank, score) as ``plan_round`` hands them to the algorithm."""
    round_, _created = Round.objects.get_or_create(tournament=tournament, number=round_number)
    rounds.plan_round(Round.objects.select_related("tournament").get(pk=round_.pk))
    return {c.id: (c.rank, c.score) for c in CALLS[-1]}


def test_entries_tied_on_match_points_are_ranked_by_the_snapshots_tie_breaks(
    tournament, organiser, pairs
) -> None:
    from tournaments.tests.builders import play_round  # noqa: PLC0415

    Tournament.objects.filter(pk=tournament.pk).update(tie_breaks=["difference"])
    tournament.refresh_from_db()
    a, b, c, d = pairs(tournament, 4)  # seeds 1–4
    # A beats B by 10, C beats D by 100: A and C both have 2 match points
    r1 = play_round(tournament, 1, [(a, b, (100, 90)), (c, d, (150, 50))])
    # published, not finished: no snapshot yet, so the seed orders the tie (A before C)
    ranks = plan_ranks(2, tournament)
    assert ranks[a.pk] == (1, 2) and ranks[c.pk] == (2, 2)
    rounds.finish_round(organiser, r1.pk)
    # the snapshot's difference decides: C (+100) before A (+10); B (−10) before D (−100)
    ranks = plan_ranks(2, tournament)
    assert [e for e, _ in sorted(ranks.items(), key=lambda kv: kv[1][0])] == [
        c.pk,
        a.pk,
        b.pk,
        d.pk,
    ]
    assert ranks[c.pk] == (1, 2) and ranks[a.pk] == (2, 2)


def test_the_snapshots_match_points_count_sanctions_for_the_pairing(
    tournament, organiser, pairs
) -> None:
    from tournaments.tests.builders import play_round  # noqa: PLC0415

    a, b, c, d = pairs(tournament, 4)
    r1 = play_round(tournament, 1, [(a, b, (100, 90)), (c, d, (150, 50))])
    rounds.finish_round(organiser, r1.pk)
    discipline.record_sanction(
        organiser, tournament.pk, entry_id=c.pk, round_number=1, kind="deduction",
        match_points=2, reason="неспортивное поведение",
    )  # fmt: skip
    ranks = plan_ranks(2, tournament)
    assert ranks[a.pk] == (1, 2)
    assert ranks[c.pk][1] == 0  # C scored 2, minus 2 by the sanction


def test_a_snapshot_behind_the_last_round_adds_the_later_rounds_in_the_same_few_queries(
    tournament, organiser, pairs, django_assert_max_num_queries
) -> None:
    from tournaments.tests.builders import play_round  # noqa: PLC0415

    Tournament.objects.filter(pk=tournament.pk).update(tie_breaks=["difference"])
    tournament.refresh_from_db()
    a, b, c, d = pairs(tournament, 4)
    # R1 (finished): A +100, C +10, D −10, B −100
    r1 = play_round(tournament, 1, [(a, b, (150, 50)), (c, d, (100, 90))])
    rounds.finish_round(organiser, r1.pk)
    # R2 (published only): A beats D, B beats C → A 4; B and C 2; D 0
    play_round(tournament, 2, [(a, d, (100, 50)), (b, c, (100, 90))])
    round_ = Round.objects.create(tournament=tournament, number=3)
    with django_assert_max_num_queries(4):
        rounds.plan_round(Round.objects.select_related("tournament").get(pk=round_.pk))
    ranks = {c_.id: (c_.rank, c_.score) for c_ in CALLS[-1]}
    # B and C tie on 2: the round 1 snapshot ranks C (2nd) above B (4th), against the seeds
    assert ranks == {a.pk: (1, 4), c.pk: (2, 2), b.pk: (3, 2), d.pk: (4, 0)}


def test_teams_tied_on_points_are_ranked_by_the_teams_snapshot(
    organiser, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tournaments.tests.builders import play_round  # noqa: PLC0415
    from tournaments.tests.factories import PlayerFactory  # noqa: PLC0415

    def record(competitors: list[Competitor], options: Any) -> RoundPairing:
        CALLS.append(list(competitors))
        return RoundPairing(tables=(), byes=(), notes=())

    monkeypatch.setattr(pairing, "teams", record)
    tournament = Tournament.objects.create(name="Команды", format="teams", rounds=3,
                                           tie_breaks=["difference"])  # fmt: skip
    tournament.organisers.add(organiser)
    teams, pairs_of = [], []
    for i in range(1, 5):
        team = Entry.objects.create(tournament=tournament, name=f"Команда {i}", seed=i)
        pair_ = Entry.objects.create(tournament=tournament, name=f"Пара {i}", team=team)
        pair_.players.set([PlayerFactory(), PlayerFactory()])
        teams.append(team)
        pairs_of.append(pair_)
    p1, p2, p3, p4 = pairs_of
    r1 = play_round(tournament, 1, [(p1, p2, (100, 90)), (p3, p4, (150, 50))])
    ranks = plan_ranks(2, tournament)
    assert ranks[teams[0].pk][0] == 1  # no snapshot: the seed orders the tie
    rounds.finish_round(organiser, r1.pk)
    ranks = plan_ranks(2, tournament)
    assert ranks[teams[2].pk] == (1, 2) and ranks[teams[0].pk] == (2, 2)
