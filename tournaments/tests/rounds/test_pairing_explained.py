"""The club avoidance settings reach the pairing round by round, and the organiser's round page
tells why a table came out as it did, in words and in both languages: a float with the two
sides' match points, a same-club table with the club and the reason it stayed, a repeated
opponent with the round they met. Real pairing algorithms, real pages over HTTP."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from tournaments import pairing, rounds
from tournaments.models import Entry, Pairing, PairingEntry, Round, Tournament
from tournaments.pairing import RoundPairing
from tournaments.tests.builders import play_round
from tournaments.tests.conftest import add_pairs
from tournaments.tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

EARLY = "round 1 is published, its results are in"


def pair(user: Any, tournament: Tournament, capture: Any, reason: str = EARLY) -> Round:
    with capture(execute=True):
        round_ = rounds.start_pairing(user, tournament.pk, reason)
    round_.refresh_from_db()
    assert round_.status == Round.Status.PAIRED, round_.error
    return round_


def page(user: Any, tournament: Tournament, number: int, language: str) -> str:
    client = Client()
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    answer = client.get(f"/manage/{tournament.pk}/rounds/{number}/")
    assert answer.status_code == 200
    return answer.content.decode()


def six_pairs_after_round_one(tournament: Tournament) -> list[Entry]:
    """Pairs 1, 3, 5 of one club and 2, 4, 6 of the other; round 1: 1 beat 2, 3 beat 4, 5 drew
    with 6. Round 2 by score: 1 and 3 (2 points) are of one club, 5 and 6 (1 point) met."""
    entries = add_pairs(tournament, 6)
    one, two, three, four, five, six = entries
    play_round(tournament, 1, [(one, two, (120, 40)), (three, four, (110, 60)),
                               (five, six, (80, 80))])  # fmt: skip
    return entries


def test_each_rounds_club_mode_and_the_federation_practice_reach_the_algorithm(
    organiser: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[Any] = []

    def record(competitors: Any, options: Any) -> RoundPairing:
        seen.append(options)
        return RoundPairing(tables=())

    monkeypatch.setattr(pairing, "swiss", record)
    monkeypatch.setattr(pairing, "individual", record)
    swiss = Tournament.objects.create(name="Клубы", rounds=4, club_strict_until=2,
                                      club_avoidance=Tournament.ClubAvoidance.AMONG_EQUALS)
    add_pairs(swiss, 4)
    solo = Tournament.objects.create(name="Личный", format="individual", rounds=3,
                                     individual_federation=True)  # fmt: skip
    for i in range(4):
        Entry.objects.create(tournament=solo, name=f"Игрок {i}", seed=i + 1).players.set(
            [PlayerFactory()])  # fmt: skip
    for tournament, number in ((swiss, 1), (swiss, 2), (swiss, 3), (solo, 2), (solo, 3)):
        round_ = Round.objects.create(tournament=tournament, number=number)
        rounds.plan_round(Round.objects.select_related("tournament").get(pk=round_.pk))
    assert [o.clubs for o in seen[:3]] == ["strict", "strict", "among_equals"]
    assert [(o.federation, o.last_round) for o in seen[3:]] == [(True, False), (True, True)]


def test_the_round_page_explains_floats_and_same_club_tables_kept_among_equals(
    tournament: Tournament, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    entries = six_pairs_after_round_one(tournament)
    assert tournament.club_avoidance == Tournament.ClubAvoidance.AMONG_EQUALS  # the default
    round_ = pair(organiser, tournament, django_capture_on_commit_callbacks)
    # every pairing without a same-club table floats 2 points (1 against 4 or 6, or 3 against
    # 2): among equals the score comes first, so two same-club tables stay and floats are of 1
    kept = [p for p in Pairing.objects.filter(round=round_, table__isnull=False)
            if "same_club_kept" in p.flags]  # fmt: skip
    assert len(kept) == 2
    ns, ew = (kept[0].places.get(side=side).entry for side in ("NS", "EW"))
    assert ns.club_id == ew.club_id
    html = page(organiser, tournament, 2, "ru")
    assert f"{ns.name} и {ew.name} — оба из клуба «{ns.club.name}». Одноклубники разводятся, " \
           "только если это не увеличивает разницу в очках" in html  # fmt: skip
    assert "(очки: 2) играет с" in html and "(очки: 1): встреча разных групп, разница 1." in html
    assert "разница 2." not in html
    html = page(organiser, tournament, 2, "en")
    assert f"{ns.name} and {ew.name} are both of the club «{ns.club.name}». Avoidance is among " \
           "equals: every pairing with fewer same-club tables had larger score differences." \
           in html  # fmt: skip
    assert "(2 match points) plays" in html and "(1): a float of 1. It belongs to the round" in html
    assert entries[0].club is not None


def test_strict_avoidance_separates_the_club_at_the_cost_of_a_longer_float(
    tournament: Tournament, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(
        club_avoidance=Tournament.ClubAvoidance.STRICT)
    entries = six_pairs_after_round_one(tournament)
    round_ = pair(organiser, tournament, django_capture_on_commit_callbacks)
    for table in Pairing.objects.filter(round=round_, table__isnull=False):
        clubs = {pl.entry.club_id for pl in table.places.all()}
        assert len(clubs) == 2, "no same-club table when one exists without a rematch"
    html = page(organiser, tournament, 2, "en")
    # 1 (2 points) cannot meet 2 (met) nor 3 or 5 (club): it plays 4 or 6, with 0 or 1
    assert "Пара 1 (2 match points) plays" in html
    assert "both of the club" not in html
    assert entries[0].club is not None


def test_a_forced_rematch_is_explained_with_the_round_they_met(
    tournament: Tournament, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(
        club_avoidance=Tournament.ClubAvoidance.OFF)
    one, two = add_pairs(tournament, 2, clubs=1)
    play_round(tournament, 1, [(one, two, (100, 50))])
    round_ = pair(organiser, tournament, django_capture_on_commit_callbacks)
    assert "rematch" in Pairing.objects.get(round=round_, table=1).flags
    html = page(organiser, tournament, 2, "ru")
    assert "Пара 2 и Пара 1 уже были соперниками, в туре 1." in html  # NS first
    assert "Ни одна жеребьёвка тура не обходится без повторных встреч." in html
    html = page(organiser, tournament, 2, "en")
    assert "Пара 2 and Пара 1 met as opponents before, in round 1." in html
    assert "club avoidance is off in round 2" in html


def test_repeated_opponents_of_the_individual_format_are_named(
    organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = Tournament.objects.create(name="Личный", format="individual", rounds=3)
    tournament.organisers.add(organiser)
    players = []
    for i in range(1, 5):
        entry = Entry.objects.create(tournament=tournament, name=f"Игрок {i}", seed=i)
        entry.players.set([PlayerFactory()])
        players.append(entry)
    first = pair(organiser, tournament, django_capture_on_commit_callbacks, "")
    Round.objects.filter(pk=first.pk).update(status=Round.Status.PUBLISHED)
    second = pair(organiser, tournament, django_capture_on_commit_callbacks)
    table = Pairing.objects.get(round=second, table=1)
    assert "rematch" in table.flags and "partner_repeated" not in table.flags
    html = page(organiser, tournament, 2, "en")
    assert "met as opponents before, in round 1." in html
    assert "No seating with fewer repeated opponents was found" in html
    html = page(organiser, tournament, 2, "ru")
    assert "уже были соперниками, в туре 1." in html


def test_a_club_whose_name_has_quotes_is_not_quoted_again(
    tournament: Tournament, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    # the page said «оба из клуба «Клуб «Тульский дубль»»»: a name with quotation marks of its
    # own is named as it is, any other in «»
    entries = six_pairs_after_round_one(tournament)
    club = entries[0].club
    assert club is not None
    club.name = "Клуб «Тульский дубль»"
    club.save()
    pair(organiser, tournament, django_capture_on_commit_callbacks)
    html = page(organiser, tournament, 2, "ru")
    assert "оба из клуба Клуб «Тульский дубль». " in html
    assert "«Клуб «" not in html and "»»" not in html
    other = {e.club.name for e in entries if e.club_id != club.pk}.pop()  # type: ignore[union-attr]
    assert f"оба из клуба «{other}»" in html


def test_the_swap_starts_with_two_entries_of_different_tables(
    tournament: Tournament, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    # both selects started at the first entry: «Swap» as shown swapped an entry with itself
    six_pairs_after_round_one(tournament)
    round_ = pair(organiser, tournament, django_capture_on_commit_callbacks)
    html = page(organiser, tournament, 2, "ru")
    form = html.split('id="swap-form"', 1)[1].split("</form>", 1)[0]
    first = re.search(r'id="swap-a"><option value="(\d+)"', form)
    second = re.findall(r'<option value="(\d+)" selected>', form.split('id="swap-b"', 1)[1])
    assert first and len(second) == 1
    tables = {pl.entry_id: pl.pairing_id for pl in PairingEntry.objects.filter(round=round_)}
    assert tables[int(first[1])] != tables[int(second[0])]
