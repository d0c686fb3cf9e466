"""Standings from the database (``tournaments.results``): what counts, snapshots, sanctions,
teams and players, on small events computed by hand."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tournaments import discipline, results, rounds
from tournaments.errors import Conflict, NotAllowed, TournamentError
from tournaments.models import Entry, EntryAbsence, Round, Sanction, Standing, Tournament
from tournaments.tests.builders import add_deals, play_round, table_match
from tournaments.tests.conftest import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def chief(tournament: Tournament):
    """The tournament's chief referee (chief referees are appointed per tournament)."""
    user = make_user("chief", "Chief referee")
    tournament.chief_referees.add(user)
    return user


@pytest.fixture
def event(tournament: Tournament, pairs) -> dict[str, Any]:
    """Five pairs A–E, three rounds (points 2/1/0, a bye scores a win).

    R1: A beats B 120-80; C and D draw 100-100; E has the bye.
    R2: A beats C 90-60; E beats B 70-50; D has the bye.
    R3: E beats A 80-40; D forfeits to B; C is absent.
    """
    a, b, c, d, e = pairs(tournament, 5)
    r1 = play_round(tournament, 1, [(a, b, (120, 80)), (c, d, (100, 100))], byes=[e])
    r2 = play_round(tournament, 2, [(a, c, (90, 60)), (e, b, (70, 50))], byes=[d])
    EntryAbsence.objects.create(entry=c, round_number=3)
    r3 = play_round(tournament, 3, [(e, a, (80, 40)), (b, d, None)])
    return {"a": a, "b": b, "c": c, "d": d, "e": e, "rounds": [r1, r2, r3]}


def by_entry(table: results.Table) -> dict[int, results.Line]:
    return {line.participant: line for line in table.lines}


def test_metrics_from_confirmed_tables_byes_forfeits_and_absences(event, tournament, organiser):
    a, b, c, d, e = (event[k] for k in "abcde")
    discipline.record_sanction(
        organiser,
        tournament.pk,
        entry_id=d.pk,
        round_number=3,
        kind="forfeit",
        reason="did not come to table 2",
        table=2,
    )
    lines = by_entry(results.live_table(tournament))
    points = {k: lines[event[k].pk].row["match_points"] for k in "abcde"}
    assert points == {"a": 4, "b": 2, "c": 1, "d": 3, "e": 6}
    difference = {k: lines[event[k].pk].row["difference"] for k in "abcde"}
    assert difference == {"a": 30, "b": -60, "c": -30, "d": 0, "e": 60}
    # Buchholz: opponents' scores; own unplayed rounds count the participant's own score; an
    # opponent's unplayed rounds without an opponent after its last game or bye count as draws
    # (C.07 art. 16): C's absence in round 3 (C shows 1 + 0 + 1); D's forfeit loss was paired,
    # its 0 stands (D shows 1 + 2 + 0; issue 30)
    buchholz = {k: lines[event[k].pk].row["buchholz"] for k in "abcde"}
    assert buchholz == {"a": 2 + 2 + 6, "b": 4 + 6 + 2, "c": 3 + 4 + 1, "d": 2 + 3 + 3,
                        "e": 6 + 2 + 4}  # fmt: skip
    assert [line.participant for line in results.live_table(tournament).lines] == [
        e.pk,
        a.pk,
        d.pk,
        b.pk,
        c.pk,
    ]
    assert lines[e.pk].row["wins"] == 3 and lines[e.pk].row["games_won"] == 2
    ledger = results.load(tournament)
    assert ledger.cells[d.pk][3].kind == "forfeit_loss"
    assert ledger.cells[b.pk][3].kind == "forfeit_win"
    assert ledger.cells[c.pk][3].kind == "absent"
    assert ledger.cells[e.pk][1].kind == "bye"


def test_a_table_in_play_counts_nothing_and_shows_as_pending(event, tournament):
    lines = by_entry(results.live_table(tournament))
    b, d = event["b"], event["d"]
    assert lines[b.pk].pending == 1 and lines[d.pk].pending == 1
    assert lines[b.pk].row["match_points"] == 0
    assert lines[event["a"].pk].pending == 0


def test_deals_won_come_from_the_deals_verdicts(event, tournament):
    match = table_match(event["rounds"][0], 1)
    add_deals(match, ["NS", "EW", "NS", None, "NS"])
    lines = by_entry(results.live_table(tournament))
    assert lines[event["a"].pk].row["deals_won"] == 3
    assert lines[event["b"].pk].row["deals_won"] == 1


def test_sanctions_deduct_points_and_a_revoked_one_counts_nothing(event, tournament, chief):
    a = event["a"]
    before = by_entry(results.live_table(tournament))[a.pk].row
    fine = discipline.record_sanction(chief, tournament.pk, entry_id=a.pk, round_number=2,
                                   kind="deduction", game_points=40, match_points=1,
                                   reason="slow play")  # fmt: skip
    red = discipline.record_sanction(chief, tournament.pk, entry_id=a.pk, round_number=2,
                                  kind="red", reason="argued with the referee")  # fmt: skip
    assert red.game_points == tournament.red_card_points == 40
    after = by_entry(results.live_table(tournament))[a.pk].row
    assert after["match_points"] == before["match_points"] - 1
    assert after["points_for"] == before["points_for"] - 80
    assert after["difference"] == before["difference"] - 80
    discipline.revoke_sanction(chief, fine.pk, "appeal upheld")
    fine.refresh_from_db()
    assert fine.revoked_by == chief and fine.revoke_reason == "appeal upheld"
    again = by_entry(results.live_table(tournament))[a.pk].row
    assert again["match_points"] == before["match_points"]
    assert again["points_for"] == before["points_for"] - 40


def test_sanction_refusals_change_nothing(event, tournament, referee):
    a = event["a"]
    with pytest.raises(NotAllowed):
        discipline.record_sanction(referee, tournament.pk, entry_id=a.pk, round_number=1,
                                kind="yellow", reason="x")  # fmt: skip
    chief = make_user("chief2", "Chief referee")
    tournament.chief_referees.add(chief)
    with pytest.raises(TournamentError) as err:
        discipline.record_sanction(chief, tournament.pk, entry_id=a.pk, round_number=9,
                                kind="deduction", reason="  ")  # fmt: skip
    assert set(err.value.codes) == {"reason_required", "bad_round", "bad_points"}
    with pytest.raises(TournamentError) as err:
        discipline.record_sanction(chief, tournament.pk, entry_id=event["c"].pk, round_number=3,
                                kind="forfeit", reason="absent")  # fmt: skip
    assert err.value.codes == ["no_table"]
    assert not Sanction.objects.exists()


def test_a_black_card_withdraws_the_entry_and_later_rounds_count_as_withdrawn(
    event, tournament, chief, pairs
):
    c = event["c"]
    discipline.record_sanction(chief, tournament.pk, entry_id=c.pk, round_number=2, kind="black",
                            reason="misconduct")  # fmt: skip
    c.refresh_from_db()
    assert c.status == Entry.Status.WITHDRAWN
    EntryAbsence.objects.filter(entry=c).delete()
    ledger = results.load(tournament)
    assert ledger.cells[c.pk][3].kind == "withdrawn"
    # A met C in round 2: C's withdrawn round 3 counts as a draw (1) in A's Buchholz
    # (B has 0: its round 3 is still in play; E has 6)
    lines = by_entry(results.live_table(tournament))
    assert lines[event["a"].pk].row["buchholz"] == 0 + (1 + 1) + 6


def test_finishing_a_round_takes_a_snapshot_equal_to_the_live_table(event, tournament,
                                                                     organiser):  # fmt: skip
    r1, r2, r3 = event["rounds"]
    rounds.finish_round(organiser, r1.pk)
    with pytest.raises(Conflict) as err:
        rounds.finish_round(organiser, r3.pk)
    assert err.value.codes == ["tables_open"] and "2" in err.value.messages[0]
    r3.refresh_from_db()
    assert r3.status == Round.Status.PUBLISHED
    discipline.record_sanction(organiser, tournament.pk, entry_id=event["d"].pk, round_number=3,
                            kind="forfeit", reason="no show", table=2)  # fmt: skip
    rounds.finish_round(organiser, r2.pk)
    rounds.finish_round(organiser, r3.pk)
    for round_ in (r1, r2, r3):
        snapshot = results.table(tournament, round_.number)
        assert snapshot.source == "snapshot"
        live = results.live_table(tournament, round_.number)
        assert [(x.rank, x.participant, x.row) for x in snapshot.lines] == [
            (x.rank, x.participant, x.row) for x in live.lines
        ]
    assert Standing.objects.filter(round=r1).count() == 5


def test_a_sanction_in_a_finished_round_retakes_its_snapshot(event, tournament, organiser):
    r1 = event["rounds"][0]
    rounds.finish_round(organiser, r1.pk)
    a = event["a"]
    before = Standing.objects.get(round=r1, entry=a).match_points
    discipline.record_sanction(organiser, tournament.pk, entry_id=a.pk, round_number=1,
                            kind="deduction", match_points=2, reason="late")  # fmt: skip
    assert Standing.objects.get(round=r1, entry=a).match_points == before - 2


def test_only_a_manager_finishes_a_round(event, tournament, other_organiser):
    with pytest.raises(NotAllowed):
        rounds.finish_round(other_organiser, event["rounds"][0].pk)


def test_live_standings_take_the_same_few_queries_however_big(tournament, pairs):
    entries = pairs(tournament, 12)
    for number in (1, 2, 3):
        shift = entries[number:] + entries[:number]
        play_round(tournament, number,
                   [(shift[i], shift[i + 1], (100 + i, 90)) for i in range(0, 12, 2)])  # fmt: skip
    tournament = Tournament.objects.get(pk=tournament.pk)
    with CaptureQueriesContext(connection) as small:
        results.live_table(tournament, 1)
    with CaptureQueriesContext(connection) as big:
        table = results.live_table(tournament)
    assert len(big) == len(small) <= 8
    assert [line.rank for line in table.lines] == list(range(1, 13))


def test_losers_record_own_swaps_points_so_more_for_is_better(organiser, pairs):
    tournament = Tournament.objects.create(name="Козёл", rules_preset="kozel", rounds=1)
    a, b = pairs(tournament, 2)
    play_round(tournament, 1, [(a, b, (30, 101))], end="target")
    lines = by_entry(results.live_table(tournament))
    assert lines[a.pk].rank == 1 and lines[a.pk].row["points_for"] == 101
    assert lines[a.pk].row["difference"] == 71
    # target 101 reached: efectividad T minus the loser's points for the winner
    assert lines[a.pk].row["efectividad"] == 101 - 30
    assert lines[b.pk].row["efectividad"] == -(101 - 30)


def test_team_event_ranks_teams_by_their_pairs_and_players_get_their_own_table(organiser):
    tournament = Tournament.objects.create(name="Команды", format="teams", rounds=1)
    red = Entry.objects.create(tournament=tournament, name="Red")
    blue = Entry.objects.create(tournament=tournament, name="Blue")
    r1, r2 = (Entry.objects.create(tournament=tournament, name=f"R{i}", team=red) for i in (1, 2))
    b1, b2 = (Entry.objects.create(tournament=tournament, name=f"B{i}", team=blue) for i in (1, 2))
    from tournaments.tests.factories import PlayerFactory

    for entry in (r1, r2, b1, b2):
        entry.players.set([PlayerFactory(), PlayerFactory()])
    # board 1: R1 beats B1; board 2: B2 beats R2 by less; team match drawn on match points
    play_round(tournament, 1, [(r1, b1, (100, 20)), (b2, r2, (60, 50))])
    teams = by_entry(results.live_table(tournament, scope="teams"))
    assert set(teams) == {red.pk, blue.pk}
    assert teams[red.pk].row["draws"] == 1 and teams[red.pk].row["match_points"] == 1
    assert teams[red.pk].row["points_for"] == 150 and teams[red.pk].rank == 1
    pairs_table = results.live_table(tournament, scope="entries")
    assert {line.participant for line in pairs_table.lines} == {r1.pk, r2.pk, b1.pk, b2.pk}
    players = results.live_table(tournament, scope="players")
    assert len(players.lines) == 8
    top = players.lines[0]
    assert top.row["match_points"] == 2 and top.row["difference"] == 80
    assert results.table(tournament).scope == "teams"


def test_individual_event_opponents_are_both_players_across(organiser):
    tournament = Tournament.objects.create(name="Личка", format="individual", rounds=1)
    p = [Entry.objects.create(tournament=tournament, name=f"P{i}") for i in range(4)]
    play_round(tournament, 1, [((p[0], p[1]), (p[2], p[3]), (90, 10))])
    lines = by_entry(results.live_table(tournament))
    assert lines[p[0].pk].row["match_points"] == 2 == lines[p[1].pk].row["match_points"]
    assert lines[p[0].pk].row["buchholz"] == 0  # mean of the losers' 0
    assert lines[p[2].pk].row["buchholz"] == 2
    cell = results.load(tournament).cells[p[0].pk][1]
    assert cell.partners == (p[1].pk,) and cell.opponents == (p[2].pk, p[3].pk)


def test_the_players_table_takes_the_same_few_queries_however_many_players(tournament, pairs):
    entries = pairs(tournament, 4)
    play_round(tournament, 1, [(entries[0], entries[1], (90, 10)), (entries[2], entries[3], None)])
    small = Tournament.objects.get(pk=tournament.pk)
    with CaptureQueriesContext(connection) as few:
        results.live_table(small, scope="players")
    more = pairs(Tournament.objects.create(name="Больше", rounds=1), 12)
    big = more[0].tournament
    play_round(big, 1, [(more[i], more[i + 1], (50 + i, 40)) for i in range(0, 12, 2)])
    big = Tournament.objects.get(pk=big.pk)
    with CaptureQueriesContext(connection) as many:
        table = results.live_table(big, scope="players")
    assert len(many) == len(few) <= 9
    assert len(table.lines) == 24 and all(line.club for line in table.lines)
