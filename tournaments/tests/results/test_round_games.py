"""The live standings read the finished rounds' games from their store (``round_games``) and
are the same as when every table is read again: after byes, forfeits, absences, a withdrawal
and sanctions; after a protocol of a finished round is corrected; after a sanction is recorded
in one; and after the bye's result is changed. What a visitor sees is checked on the public
page: the rank and the match points of every entry."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.cache import cache
from django.urls import reverse

from scoring import services as scoring
from tournaments import discipline, results, rounds
from tournaments.models import RoundGames, Tournament
from tournaments.registration import set_absence, withdraw_entry
from tournaments.results import round_games
from tournaments.results.ledger import load
from tournaments.results.tables import entry_rows
from tournaments.tests.builders import play_round
from tournaments.tests.results.test_snapshot_races import (
    confirmed_round,
    new_tournament,
    simulated_winner,
)
from tournaments.tests.results.test_snapshot_races import staff as staff  # noqa: F401 - fixture
from tournaments.tests.rounds.test_rounds import trivial_swiss  # noqa: F401 - autouse fixture


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    cache.clear()


def from_tables(tournament: Tournament) -> dict[int, tuple[int, int]]:
    """Every entry's (rank, match points), every round read from its tables."""
    ledger = load(tournament, with_cells=True)  # the cells come only from the tables
    return {row.participant: (row.rank, row.match_points) for row in entry_rows(ledger)}


def shown(client: Any, tournament: Tournament) -> dict[int, tuple[int, int]]:
    """Every entry's (rank, match points) as the public standings page shows them."""
    cache.clear()
    page = client.get(reverse("tournaments:standings", args=[tournament.pk]) + "?fragment=1")
    assert page.status_code == 200
    html = page.content.decode()
    column = re.findall(r'data-key="([a-z_]+)"', html).index("match_points")
    rows = re.findall(r'<tr data-participant="(\d+)" data-rank="(\d+)">(.*?)</tr>', html)
    return {int(pk): (int(rank), int(re.findall(r'<td class="num">([^<]*)</td>', cells)[column]))
            for pk, rank, cells in rows}  # fmt: skip


@pytest.mark.django_db
def test_live_standings_over_stored_rounds_equal_those_read_from_the_tables(
    client, tournament, pairs, organiser
):
    a, b, c, d, e, f = pairs(tournament, 6)
    tournament.public = True
    tournament.save()
    set_absence(organiser, f.pk, 1)
    r1 = play_round(tournament, 1, [(a, b, (120, 80)), (c, d, (60, 100))], byes=[e])
    discipline.record_sanction(organiser, tournament.pk, entry_id=d.pk, round_number=1,
                               kind="forfeit", reason="late", table=2)  # fmt: skip
    rounds.finish_round(organiser, r1.pk)
    r2 = play_round(tournament, 2, [(a, c, (90, 95)), (b, e, (100, 100)), (d, f, (70, 20))])
    rounds.finish_round(organiser, r2.pk)
    withdraw_entry(organiser, f.pk)
    discipline.record_sanction(organiser, tournament.pk, entry_id=b.pk, round_number=3,
                               kind="deduction", match_points=1, reason="noise")  # fmt: skip
    play_round(tournament, 3, [(a, d, (130, 40)), (b, c, None)], byes=[e])

    kept = round_games.kept(tournament, [1, 2], RoundGames.objects.get(round=r1).basis)
    assert sorted(kept) == [1, 2]  # both finished rounds are read from the store
    expected = from_tables(tournament)
    assert shown(client, tournament) == expected
    live = results.live_table(tournament)
    assert {line.participant: (line.rank, line.row["match_points"]) for line in live.lines} \
        == expected  # fmt: skip
    assert {line.participant: line.pending for line in live.lines if line.pending} == {
        b.pk: 1, c.pk: 1}  # fmt: skip


@pytest.mark.django_db
def test_a_changed_bye_result_is_counted_in_rounds_stored_before(
    client, tournament, pairs, organiser
):
    a, b, c = pairs(tournament, 3)
    tournament.public = True
    tournament.save()
    r1 = play_round(tournament, 1, [(a, b, (120, 80))], byes=[c])
    rounds.finish_round(organiser, r1.pk)
    play_round(tournament, 2, [(a, c, None)], byes=[b])
    before = shown(client, tournament)
    assert before[c.pk][1] == tournament.points_win  # the bye of round 1 won
    Tournament.objects.filter(pk=tournament.pk).update(bye_result="draw")
    tournament.refresh_from_db()
    after = shown(client, tournament)
    assert after == from_tables(tournament)
    assert after[c.pk][1] == tournament.points_draw


@pytest.mark.django_db(transaction=True)
def test_a_correction_of_a_finished_round_shows_in_the_live_standings(
    client, staff: dict[str, Any]
) -> None:
    tournament = new_tournament(staff, 0)
    first = confirmed_round(staff, tournament)
    rounds.finish_round(staff["org"], first.pk)
    confirmed_round(staff, tournament)  # round 2, live
    before = shown(client, tournament)
    assert before == from_tables(tournament)
    table1 = first.pairings.get(table=1)
    scoring.correct(table1.match_id, staff["chief"], staff["corrected"], "перепутаны стороны")
    after = shown(client, tournament)
    assert after == from_tables(tournament)
    ns = table1.places.get(side="NS", position=0).entry_id
    ew = table1.places.get(side="EW", position=0).entry_id
    winner = simulated_winner(staff["corrected"])
    moved = (ns, ew) if winner == "NS" else (ew, ns)
    assert after[moved[0]][1] > before[moved[0]][1]  # the corrected winner gained
    assert after[moved[1]][1] < before[moved[1]][1]


@pytest.mark.django_db(transaction=True)
def test_a_forfeit_recorded_in_a_finished_round_shows_in_the_live_standings(
    client, staff: dict[str, Any]
) -> None:
    tournament = new_tournament(staff, 1)
    first = confirmed_round(staff, tournament)
    rounds.finish_round(staff["org"], first.pk)
    confirmed_round(staff, tournament)
    before = shown(client, tournament)
    table1 = first.pairings.get(table=1)
    ns = table1.places.get(side="NS", position=0).entry_id
    ew = table1.places.get(side="EW", position=0).entry_id
    offender = ns if simulated_winner(staff["played"]) == "NS" else ew  # it had won the table
    discipline.record_sanction(staff["chief"], tournament.pk, entry_id=offender, round_number=1,
                               kind="forfeit", reason="неявка", table=1)  # fmt: skip
    after = shown(client, tournament)
    assert after == from_tables(tournament)
    other = ew if offender == ns else ns
    assert after[offender][1] < before[offender][1]
    assert after[other][1] > before[other][1]
