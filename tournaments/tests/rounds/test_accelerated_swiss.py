"""The accelerated Swiss (FIDE C.04.5.1, Baku) through the real pairing job (the Celery task,
eager in tests): 120 pairs whose first two rounds keep the top half among itself as the rule
says, the round page's note in both languages, and standings that never see virtual points."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone

from scoring.models import Match
from tournaments import rounds
from tournaments.models import Entry, PairingEntry, Round, Standing, Tournament
from tournaments.tests.conftest import add_pairs

pytestmark = pytest.mark.django_db

EARLY = "round 1 is published, its results are in"


def pair(user: Any, tournament: Tournament, capture: Any) -> Round:
    """Pair the next round by the task (on commit, eager Celery), and publish it."""
    with capture(execute=True):
        round_ = rounds.start_pairing(user, tournament.pk)
    round_.refresh_from_db()
    assert round_.status == Round.Status.PAIRED, round_.error
    rounds.publish(user, round_.pk)
    return round_


def tables(round_: Round) -> list[tuple[int, int]]:
    """Each table's two entries by seed, lower seed first."""
    sides: dict[int, list[int]] = {}
    for pairing_id, seed in PairingEntry.objects.filter(round=round_).exclude(
            side=PairingEntry.Side.BYE).values_list("pairing_id", "entry__seed"):  # fmt: skip
        sides.setdefault(pairing_id, []).append(seed)
    return sorted(tuple(sorted(pair)) for pair in sides.values())  # type: ignore[misc]


def finish(user: Any, round_: Round, winner: Any) -> None:
    """Confirm every table (``winner(ns_seed, ew_seed)`` says "NS" or "EW"), finish the round."""
    for pairing in round_.pairings.filter(table__isnull=False).prefetch_related("places__entry"):
        seeds = {p.side: p.entry.seed for p in pairing.places.all()}
        won = winner(seeds["NS"], seeds["EW"])
        Match.objects.filter(pk=pairing.match_id).update(
            status=Match.Status.CONFIRMED, winner=won, finished=True, end="deals",
            totals={"NS": 120, "EW": 60} if won == "NS" else {"NS": 60, "EW": 120},
            confirmed_at=timezone.now(),
        )  # fmt: skip
    rounds.finish_round(user, round_.pk)


def higher_seed_wins(ns: int, ew: int) -> str:
    return "NS" if ns < ew else "EW"


def accelerated(tournament: Tournament, n: int, rounds_: int = 7) -> list[Entry]:
    Tournament.objects.filter(pk=tournament.pk).update(
        acceleration=Tournament.Acceleration.BAKU, rounds=rounds_, club_avoidance="off")
    tournament.refresh_from_db()
    return add_pairs(tournament, n)


def both(pairs: Iterable[tuple[int, int]], low: int, high: int) -> bool:
    return all(low <= a <= high and low <= b <= high for a, b in pairs)


def test_120_pairs_keep_the_top_half_among_itself_in_rounds_1_and_2(
    organiser, tournament, django_capture_on_commit_callbacks
) -> None:
    accelerated(tournament, 120)  # group A: seeds 1-60 (2 × ⌈120 / 4⌉)
    first = pair(organiser, tournament, django_capture_on_commit_callbacks)
    one = tables(first)
    assert len(one) == 60
    # round 1: A against A, B against B, each group top half against bottom half
    assert one == [(s, s + 30) for s in range(1, 31)] + [(s, s + 30) for s in range(61, 91)]
    # group A won 2 virtual match points (a win) this round: the note says so, in both languages
    assert first.notes[0] == "Accelerated (Baku): 60 entries of group A have 2 virtual points"
    finish(organiser, first, higher_seed_wins)

    second = pair(organiser, tournament, django_capture_on_commit_callbacks)
    two = tables(second)
    # pairing scores: A's winners (1-30) 2 + 2, A's losers (31-60) 0 + 2, B's winners (61-90)
    # 2 + 0, B's losers (91-120) 0: the winners of A meet each other, A's losers meet B's
    # winners, B's losers each other
    assert both([t for t in two if t[0] <= 30], 1, 30) and sum(t[0] <= 30 for t in two) == 15
    middle = [t for t in two if 31 <= t[0] <= 90]
    assert len(middle) == 30 and all(31 <= a <= 60 < 61 <= b <= 90 for a, b in middle)
    assert both([t for t in two if t[0] > 90], 91, 120) and sum(t[0] > 90 for t in two) == 15
    assert second.notes[0] == "Accelerated (Baku): 60 entries of group A have 2 virtual points"
    finish(organiser, second, higher_seed_wins)

    # round 3 (of 7): half a win, 1 match point
    third = pair(organiser, tournament, django_capture_on_commit_callbacks)
    assert third.notes[0] == "Accelerated (Baku): 60 entries of group A have 1 virtual points"


def test_a_plain_swiss_pairs_round_1_top_half_against_bottom_half(
    organiser, tournament, django_capture_on_commit_callbacks
) -> None:
    add_pairs(tournament, 12)
    Tournament.objects.filter(pk=tournament.pk).update(club_avoidance="off")
    first = pair(organiser, tournament, django_capture_on_commit_callbacks)
    assert tables(first) == [(s, s + 6) for s in range(1, 7)]
    assert not any(note.startswith("Accelerated") for note in first.notes)


def test_twelve_pairs_as_the_rule_pairs_them_and_the_page_says_so(
    organiser, tournament, django_capture_on_commit_callbacks
) -> None:
    accelerated(tournament, 12, rounds_=5)  # group A: 1-6; virtual points in rounds 1 and 2
    first = pair(organiser, tournament, django_capture_on_commit_callbacks)
    # A: 1-4, 2-5, 3-6; B: 7-10, 8-11, 9-12 (not 1-7 … 6-12 as without acceleration)
    assert tables(first) == [(1, 4), (2, 5), (3, 6), (7, 10), (8, 11), (9, 12)]
    client = Client()
    client.force_login(organiser)
    for language, said in (
        ("ru", "Ускоренная швейцарка (Баку): 6 участникам группы A для жеребьёвки добавлено "
               "виртуальных очков — по 2 (в таблицу они не идут)."),
        ("en", "Accelerated Swiss (Baku): 6 entries of group A were given 2 virtual match points "
               "each for the pairing (not in the standings)."),
    ):  # fmt: skip
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        page = client.get(f"/manage/{tournament.pk}/rounds/1/").content.decode()
        assert said in page


def test_virtual_points_never_reach_the_standings_or_the_tie_breaks(
    organiser, tournament, django_capture_on_commit_callbacks
) -> None:
    entries = accelerated(tournament, 12, rounds_=5)
    Tournament.objects.filter(pk=tournament.pk).update(
        tie_breaks=["match_points", "buchholz", "sonneborn_berger"])
    for _number in (1, 2):
        round_ = pair(organiser, tournament, django_capture_on_commit_callbacks)
        finish(organiser, round_, higher_seed_wins)
        if _number == 1:
            # after round 1 group B's winners (seeds 7-9, 2 match points) rank above group A's
            # losers (4-6, 0 real + 2 virtual): the table ranks by real points only
            ranks = dict(Standing.objects.filter(round=round_).values_list("entry__seed", "rank"))
            assert max(ranks[s] for s in (7, 8, 9)) < min(ranks[s] for s in (4, 5, 6))
    points: dict[int, int] = {}
    opponents: dict[int, list[int]] = {e.pk: [] for e in entries}
    for place in PairingEntry.objects.filter(round__tournament=tournament).select_related(
            "pairing__match"):  # fmt: skip
        match = place.pairing.match
        points[place.entry_id] = points.get(place.entry_id, 0) + (
            2 if match.winner == place.side else 0)
        others = PairingEntry.objects.filter(pairing=place.pairing).exclude(pk=place.pk)
        opponents[place.entry_id] += [o.entry_id for o in others]
    last = Standing.objects.filter(round__tournament=tournament, round__number=2)
    assert last.count() == 12
    for line in last:
        # real match points only: 2 a win; group A's 2 + 2 virtual ones are nowhere
        assert line.match_points == points[line.entry_id]
        assert line.metrics["buchholz"] == sum(points[o] for o in opponents[line.entry_id])
    # the top of the table: seeds 1-3 won twice (4), the rest 2 or 0, never more
    assert max(line.match_points for line in last) == 4


def test_a_float_of_an_accelerated_round_is_told_by_the_pairing_scores(
    organiser, tournament, django_capture_on_commit_callbacks
) -> None:
    accelerated(tournament, 10, rounds_=5)  # group A: 1-6 (2 × ⌈10 / 4⌉)
    first = pair(organiser, tournament, django_capture_on_commit_callbacks)
    assert tables(first) == [(1, 4), (2, 5), (3, 6), (7, 9), (8, 10)]
    finish(organiser, first, higher_seed_wins)
    second = pair(organiser, tournament, django_capture_on_commit_callbacks)
    # pairing scores: 1-3 → 4, 4-8 → 2, 9-10 → 0: one of 1-3 floats down to the 2-group
    floats = [p for p in second.pairings.all() if "float_down" in p.flags]
    assert len(floats) == 1
    client = Client()
    client.force_login(organiser)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(f"/manage/{tournament.pk}/rounds/2/").content.decode()
    assert "(4 match points) plays" in page and ": a float of 2." in page
    assert ("An accelerated round: group A&#x27;s virtual match points are counted in, as the "
            "pairing counted them.") in page  # fmt: skip


def test_club_teams_are_accelerated_as_teams(
    organiser, tournament, django_capture_on_commit_callbacks
) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(
        format=Tournament.Format.TEAMS, acceleration="baku", rounds=5, club_avoidance="off")
    tournament.refresh_from_db()
    pairs_ = add_pairs(tournament, 16)
    team_seed = {}
    for number in range(1, 9):  # team N of pairs 2N-1 and 2N
        team = Entry.objects.create(tournament=tournament, name=f"Команда {number}",
                                    seed=100 + number)  # seeds are unique in a tournament
        Entry.objects.filter(pk__in=[p.pk for p in pairs_[2 * number - 2:2 * number]]).update(
            team=team)
        team_seed.update({p.pk: number for p in pairs_[2 * number - 2:2 * number]})
    first = pair(organiser, tournament, django_capture_on_commit_callbacks)
    matches = {tuple(sorted({team_seed[p.entry_id] for p in pairing.places.all()}))
               for pairing in first.pairings.filter(table__isnull=False)}  # fmt: skip
    # group A: teams 1-4 (2 × ⌈8 / 4⌉) against each other, B among itself
    assert matches == {(1, 3), (2, 4), (5, 7), (6, 8)}
    assert first.notes[0] == "Accelerated (Baku): 4 entries of group A have 2 virtual points"
    finish(organiser, first, lambda ns, ew: "NS" if team_seed_of(ns) < team_seed_of(ew) else "EW")
    second = pair(organiser, tournament, django_capture_on_commit_callbacks)
    # round 1's list read back from its tables of pairs: the same four teams of group A
    assert second.notes[0] == "Accelerated (Baku): 4 entries of group A have 2 virtual points"


def team_seed_of(pair_seed: int) -> int:
    return (pair_seed + 1) // 2
