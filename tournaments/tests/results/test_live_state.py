"""The live standings kept between requests (``results.live_state``) against the full
computation (``results.live_table``), through the real services (on PostgreSQL in CI, on
SQLite by default: the update's queries are written by hand for both): protocols
recorded, confirmed and corrected, a forfeit given and taken back, a point sanction, a
withdrawal and a return, the round finished, an earlier round corrected. The changes of the
round in play must update the kept table, not rebuild it; every table must equal the full one.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules import Judge, make_rules
from rules.simulate import play_match
from scoring import services as scoring
from tournaments import discipline, registration, rounds
from tournaments.models import Round, Tournament
from tournaments.results import display, live_state, tables
from tournaments.results.ledger import load
from tournaments.tests.builders import play_round, table_match
from tournaments.tests.conftest import make_user

pytestmark = pytest.mark.django_db


def protocols() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Two legal sports matches with different winners (simulated, judged by the engine)."""
    judge = Judge(make_rules("sport"))
    found: dict[str, list[dict[str, Any]]] = {}
    for seed in range(100):
        deals = play_match(make_rules("sport"), random.Random(seed), style="tiles", declare=True)
        found.setdefault(judge.fold(deals).state.winner or "", deals)
        if "NS" in found and "EW" in found:
            return found["NS"], found["EW"]
    raise AssertionError("no two simulated matches with different winners")


def full(tournament: Tournament) -> tuple[list[Any], int, dict[int, Any], int]:
    """The table computed from every game, as ``display`` computed it before anything was kept:
    its lines, the tables still in play, the entries' players and the round."""
    ledger = load(tournament, None, players=False, with_cells=False)
    table = tables.live_table(tournament, None, "entries", ledger=ledger)
    return table.lines, ledger.pending_tables, tables.ledger_players(ledger), table.round_number


def kept(tournament: Tournament) -> tuple[list[Any], int, dict[int, Any], int]:
    res = display.results_table(tournament)  # the page's and the API's way
    assert res.table.source == "live"
    return res.lines, res.pending_tables, res.players, res.table.round_number


def state() -> Any:
    (only,) = live_state._KEPT.values()  # one tournament's table is kept
    return only


def test_the_kept_table_equals_the_full_one_after_every_change_through_the_services(
    tournament, organiser, pairs
) -> None:
    chief = make_user("chief_l", "Chief referee")
    tournament.chief_referees.add(chief)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    tournament.refresh_from_db()
    ns_wins, ew_wins = protocols()
    a, b, c, d, e, f, g, h, i = pairs(tournament, 9)
    r1 = play_round(tournament, 1, [(a, b, (120, 80)), (c, d, (90, 100)), (e, f, (70, 70)),
                                    (g, h, (101, 40))], byes=[i])  # fmt: skip
    rounds.finish_round(organiser, r1.pk)  # round 1 from its kept games (``round_games``)
    r2 = play_round(tournament, 2, [(a, c, None), (b, d, None), (e, g, None), (f, h, None)])
    live_state.forget()
    assert kept(tournament) == full(tournament)  # built: every table in play
    built = state()

    def play(table: int, deals: list[dict[str, Any]], round_: Round = r2) -> None:
        match = table_match(round_, table)
        for deal in deals:
            scoring.record_deal(match.pk, deal, chief)
        scoring.submit(match.pk, chief)
        scoring.confirm(match.pk, organiser)

    def check(what: str, rebuilt: bool = False) -> None:
        assert kept(tournament) == full(tournament), what
        assert (state() is not built) == rebuilt, what

    play(1, ns_wins)
    check("table 1 confirmed")
    play(2, ew_wins)
    check("table 2 confirmed")
    scoring.correct(table_match(r2, 1).pk, chief, ew_wins, "the referee swapped the sides")
    check("table 1 corrected")
    forfeit = discipline.record_sanction(organiser, tournament.pk, entry_id=g.pk,
                                         round_number=2, kind="forfeit", reason="did not come",
                                         table=3)  # fmt: skip
    check("table 3 forfeited")
    discipline.revoke_sanction(organiser, forfeit.pk, "came late, played")
    check("the forfeit revoked")
    discipline.record_sanction(organiser, tournament.pk, entry_id=a.pk, round_number=2,
                               kind="deduction", reason="late", match_points=1)  # fmt: skip
    check("a point deducted")
    registration.withdraw_entry(organiser, i.pk)  # no place in round 2: withdrawn, not absent
    check("entry I withdrawn")
    registration.reinstate_entry(organiser, i.pk)
    check("entry I back")
    play(3, ns_wins)
    play(4, ns_wins)
    check("tables 3 and 4 confirmed")
    assert kept(tournament)[1] == 0  # nothing in play

    rounds.finish_round(organiser, r2.pk)
    r3 = play_round(tournament, 3, [(a, d, None), (b, c, None), (e, h, None), (f, i, None)],
                    byes=[g])  # fmt: skip
    assert kept(tournament) == full(tournament)  # other rounds: built again
    assert state() is not built
    built = state()
    scoring.correct(table_match(r1, 1).pk, chief, ew_wins, "table 1 of round 1 was misread")
    check("a finished round corrected", rebuilt=True)
    built = state()
    play(2, ew_wins, r3)
    check("round 3, table 2 confirmed")


def test_a_team_event_is_not_kept_and_its_table_is_the_full_one(tournament, pairs) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(format=Tournament.Format.TEAMS)
    tournament.refresh_from_db()
    a, b = pairs(tournament, 2)
    play_round(tournament, 1, [(a, b, (120, 80))])
    assert live_state.live_entries(tournament) is None


def test_no_round_yet_is_not_kept(tournament) -> None:
    assert live_state.live_entries(tournament) is None
    assert not Round.objects.filter(tournament=tournament).exists()
