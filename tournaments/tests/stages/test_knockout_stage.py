"""A knock-out after the Swiss, end to end through the services and the pairing job (eager
Celery): 24 pairs, 6 Swiss rounds, then the best 8 in ties of the best of three with a match for
third place, to a champion; the bracket page and the final ranking; the organiser's pages.

Protocols are confirmed by writing the match's confirmed result directly (as
``tests/builders.py`` does): the scoring's confirmation has its own tests, here only the winner
matters.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from scoring.models import Match
from tournaments import rounds
from tournaments.errors import Conflict
from tournaments.models import Pairing, Round, Stage, Standing
from tournaments.stages import services as stages
from tournaments.tests.conftest import add_pairs

pytestmark = pytest.mark.django_db


def pair(user: Any, tournament: Any, capture: Any) -> Round:
    with capture(execute=True):
        round_ = rounds.start_pairing(user, tournament.pk)
    round_.refresh_from_db()
    assert round_.status == Round.Status.PAIRED, round_.error
    return round_


def decide(pairing: Pairing, winner: str) -> None:
    totals = {"NS": 101, "EW": 40} if winner == "NS" else (
        {"NS": 40, "EW": 101} if winner == "EW" else {"NS": 60, "EW": 60})
    Match.objects.filter(pk=pairing.match_id).update(
        status=Match.Status.CONFIRMED, winner=winner, totals=totals, finished=True, end="deals",
        confirmed_at=timezone.now(), updated_at=timezone.now(), version=2,
    )  # fmt: skip


def sides(pairing: Pairing) -> tuple[int, int]:
    places = {p.side: p.entry_id for p in pairing.places.all()}
    return places["NS"], places["EW"]


def finish(user: Any, round_: Round, capture: Any) -> Round | None:
    """Finish the round; the next knock-out round, if the job paired one, is returned."""
    with capture(execute=True):
        rounds.finish_round(user, round_.pk)
    later = Round.objects.filter(tournament=round_.tournament, number=round_.number + 1).first()
    return later


#: each quarter-final, semi-final and final by the bracket's seeds: the games' winners in
#: order ("a" the better seed, who sits NS; "b" the other; "draw" played again)
SCRIPT = {
    (1, 8): ["a", "a"], (4, 5): ["a", "b", "b"], (2, 7): ["a", "draw", "b", "a"],
    (3, 6): ["b", "b"],
    (1, 5): ["b", "b"], (2, 6): ["a", "a"],
    (2, 5): ["b", "a", "b"],  # the final: seed 5 wins 2-1
    (1, 6): ["a", "a"],  # third place: seed 1
}


def play_knockout(organiser: Any, round_: Round | None, seed_of: dict[int, int],
                  capture: Any) -> dict[tuple[int, int], int]:
    """Publish, decide by ``SCRIPT`` and finish each knock-out round until the job pairs no
    more; the games played per tie."""
    played: dict[tuple[int, int], int] = {}
    while round_ is not None:
        assert round_.status == Round.Status.PAIRED, round_.error
        rounds.publish(organiser, round_.pk)
        for table in round_.pairings.filter(table__isnull=False):
            a, b = (seed_of[e] for e in sides(table))
            assert a < b  # the better seed at NS
            n = played.get((a, b), 0)
            played[(a, b)] = n + 1
            outcome = SCRIPT[(a, b)][n]
            decide(table, {"a": "NS", "b": "EW", "draw": "draw"}[outcome])
        round_ = finish(organiser, round_, capture)  # the job pairs the winners at once
        if round_ is not None:
            round_.refresh_from_db()
    return played


def test_a_24_pair_swiss_then_a_top_8_best_of_3_knockout_runs_to_a_champion(
    swiss: Any, organiser: Any, client: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = swiss
    capture = django_capture_on_commit_callbacks
    # after round 6 the dashboard offers the final stage, and the pairing button waits for it
    client.force_login(organiser)
    page = client.get(reverse("tournaments:manage", args=[tournament.pk])).content.decode()
    assert 'id="start-stage-form"' in page and 'id="pair-form"' not in page
    with pytest.raises(Conflict) as refused:
        rounds.start_pairing(organiser, tournament.pk)
    assert refused.value.errors[0]["code"] == "stage_not_started"

    with capture(execute=True):
        round_ = rounds.start_final_stage(organiser, tournament.pk)
    round_.refresh_from_db()
    stage = Stage.objects.get(tournament=tournament)
    top8 = list(Standing.objects.filter(round__tournament=tournament, round__number=6,
                                        scope="entries").order_by("rank")
                .values_list("entry_id", flat=True))  # fmt: skip
    assert stage.seeds == top8[:8] and stage.started_at is not None
    seed_of = {entry: n for n, entry in enumerate(stage.seeds, 1)}
    assert (round_.number, round_.stage_id, round_.status) == (7, stage.pk, Round.Status.PAIRED)
    first = [tuple(seed_of[e] for e in sides(p)) for p in round_.pairings.order_by("table")]
    assert first == [(1, 8), (4, 5), (2, 7), (3, 6)]  # 1 v N, the better seed at NS
    assert all("knockout" in p.flags for p in round_.pairings.all())

    played = play_knockout(organiser, round_, seed_of, capture)

    # every tie played exactly as scripted, and nothing more
    assert played == {tie: len(games) for tie, games in SCRIPT.items()}
    assert Round.objects.filter(tournament=tournament).count() == 6 + 9
    with pytest.raises(Conflict) as over:
        rounds.start_pairing(organiser, tournament.pk)
    assert over.value.errors[0]["code"] == "all_paired"

    # the bracket page: public, the champion, the final ranking (knock-out places first, then
    # the others by the qualifying standings)
    client.logout()
    html = client.get(reverse("tournaments:bracket", args=[tournament.pk])).content.decode()
    names = {e.pk: e.name for e in tournament.entries.all()}
    champion = stage.seeds[4]
    assert f'<strong>Чемпион:</strong> {names[champion]}' in html or names[champion] in html
    response = client.get(reverse("tournaments:bracket", args=[tournament.pk]))
    ranking = response.context["page"].ranking
    expected = [stage.seeds[s - 1] for s in (5, 2, 1, 6, 3, 4, 7, 8)] + top8[8:]
    assert [line.entry for line in ranking] == expected
    assert [line.place for line in ranking] == list(range(1, 25))
    assert 'id="final-ranking"' in html and "<ol class=\"ties\">" in html

    # the standings stay the qualifying stage's: the knock-out's rounds are not counted
    standings = client.get(reverse("tournaments:standings", args=[tournament.pk]))
    assert standings.status_code == 200
    assert standings.context["rounds"] == [1, 2, 3, 4, 5, 6]
    assert 'id="bracket-link"' in standings.content.decode()
    assert 'id="stage-caption"' in standings.content.decode()


def test_only_the_tournaments_organisers_set_up_or_start_the_final_stage(
    tournament: Any, organiser: Any, other_organiser: Any, client: Any
) -> None:
    add_pairs(tournament, 4)
    url = reverse("tournaments:manage_stages", args=[tournament.pk])
    client.force_login(other_organiser)
    data = {"kind": "knockout", "qualifiers": "4", "best_of": "3", "third_place": "on"}
    assert client.post(url, data).status_code == 403
    assert client.post(reverse("tournaments:manage_stage_start", args=[tournament.pk])
                       ).status_code == 403  # fmt: skip
    assert not Stage.objects.exists()
    client.force_login(organiser)
    assert client.get(url).status_code == 200
    response = client.post(url, data)
    assert response.status_code == 302
    stage = Stage.objects.get(tournament=tournament)
    assert (stage.qualifiers, stage.best_of, stage.third_place) == (4, 3, True)
    # too early: the qualifying rounds are not played
    response = client.post(reverse("tournaments:manage_stage_start", args=[tournament.pk]),
                           follow=True)  # fmt: skip
    assert "квалификац" in response.content.decode().lower()
    assert Stage.objects.get(pk=stage.pk).started_at is None


def test_the_bracket_page_is_public_with_its_tournament_and_reread_when_pushed(
    tournament: Any, organiser: Any, client: Any
) -> None:
    url = reverse("tournaments:bracket", args=[tournament.pk])
    assert 'id="no-stages"' in client.get(url).content.decode()  # one stage: said so
    add_pairs(tournament, 4)
    stages.configure(organiser, tournament.pk, Stage.Kind.KNOCKOUT, 4, 1, False)
    page = client.get(url)
    html = page.content.decode()
    assert page.status_code == 200 and 'id="bracket-waiting"' in html
    # the page re-reads its part when the server pushes a result (static/js/live.js)
    assert f'data-live-socket="/ws/live/{tournament.pk}/"' in html
    assert 'data-live-parts="standings pairings"' in html
    fragment = client.get(url + "?fragment=1").content.decode()
    assert 'id="bracket-summary"' in fragment and "<html" not in fragment
    tournament.public = False
    tournament.save(update_fields=["public"])
    assert client.get(url).status_code == 404  # a hidden tournament is not there
