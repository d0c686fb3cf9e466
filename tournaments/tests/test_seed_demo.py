"""``seed_demo``: the three demo events have the shape the README and the guides describe, every
stored protocol is legal (its totals are the engine's fold of its deals), running it twice
creates nothing twice, and the public pages of the demo events render."""

from __future__ import annotations

from collections import Counter

import pytest
from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.core.management import call_command
from django.urls import reverse

from accounts import roles
from scoring.games import judge_for
from scoring.models import Deal, Match, MatchVersion
from tournaments.management.commands import seed_demo
from tournaments.models import (
    Club,
    Entry,
    Pairing,
    Player,
    Round,
    Sanction,
    Standing,
    Tournament,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def seeded(capsys) -> str:
    call_command("seed_demo")
    return capsys.readouterr().out


def _counts() -> tuple[int, ...]:
    return tuple(
        model.objects.count()
        for model in (Club, Player, Tournament, Entry, User, Round, Pairing, Match, Deal,
                      MatchVersion, Standing, Sanction)
    )  # fmt: skip


def test_accounts_and_what_the_command_prints(seeded: str) -> None:
    for username, _first, _last, role in seed_demo.DEMO_ACCOUNTS:
        user = authenticate(username=username, password="demo12345")
        assert user is not None, username
        assert roles.has_role(user, role)
    assert {"referee", "referee2", "referee3", "referee4"} <= set(
        User.objects.values_list("username", flat=True)
    )
    for name in seed_demo.DEMO_TOURNAMENTS:
        tournament = Tournament.objects.get(name=name)
        assert f"/tournaments/{tournament.pk}/" in seeded
        assert list(tournament.organisers.values_list("username", flat=True)) == ["organiser"]
        assert tournament.public
    assert "demo12345" in seeded and "chief" in seeded


def test_the_swiss_event_is_in_round_4_of_6(seeded: str) -> None:
    t = Tournament.objects.get(name=seed_demo.SWISS_NAME)
    assert (t.rules_preset, t.format, t.system, t.rounds, t.status) == (
        "sport", "pairs", "swiss", 6, "running"
    )  # fmt: skip
    assert t.entries.count() == 24
    assert all(e.players.count() == 2 for e in t.entries.all())
    assert Counter(t.entries.values_list("club__name", flat=True)) == {
        name: 8 for name, _city in seed_demo.CLUBS
    }
    statuses = dict(t.round_set.values_list("number", "status"))
    assert statuses == {1: "finished", 2: "finished", 3: "finished", 4: "published"}
    for number in (1, 2, 3):
        round_ = t.round_set.get(number=number)
        assert Standing.objects.filter(round=round_).count() == 24
        assert set(round_.pairings.values_list("match__status", flat=True)) == {"confirmed"}
    round4 = t.round_set.get(number=4)
    tables = list(round4.pairings.select_related("match", "referee").order_by("table"))
    assert len(tables) == 12 and all(p.table for p in tables)
    assert all(p.referee is not None for p in tables)
    by_status = Counter(p.match.status for p in tables)
    assert by_status == {"confirmed": 7, "in_play": 3, "submitted": 1, "draft": 1}
    empty = [p for p in tables if p.match.status == "draft"]
    assert empty[0].match.deals.count() == 0
    assert empty[0].referee.username == "referee"
    submitted = next(p.match for p in tables if p.match.status == "submitted")
    assert submitted.confirm_pin and submitted.finished
    for p in tables:
        if p.match.status == "in_play":
            assert not p.match.finished and p.match.deals.exists()
    # the referee account has a table still to play and one not started
    mine = {p.match.status for p in tables if p.referee.username == "referee"}
    assert {"draft", "in_play"} <= mine
    card = Sanction.objects.get(tournament=t)
    assert (card.kind, card.round_number, card.game_points) == ("yellow", 2, 10)
    assert card.player is not None and card.reason


def test_the_individual_event_and_the_kozel_evening_are_finished(seeded: str) -> None:
    solo = Tournament.objects.get(name=seed_demo.INDIVIDUAL_NAME)
    assert (solo.format, solo.rounds, solo.status) == ("individual", 5, "finished")
    assert solo.entries.count() == 12
    assert set(solo.round_set.values_list("status", flat=True)) == {"finished"}
    assert solo.round_set.count() == 5
    # partners rotate: nobody has the same partner every round
    partners: dict[int, set[int]] = {}
    for p in Pairing.objects.filter(round__tournament=solo, table__isnull=False):
        places = list(p.places.all())
        for place in places:
            mates = {o.entry_id for o in places if o.side == place.side and o != place}
            partners.setdefault(place.entry_id, set()).update(mates)
    assert len(partners) == 12 and all(len(mates) >= 3 for mates in partners.values())

    kozel = Tournament.objects.get(name=seed_demo.KOZEL_NAME)
    assert (kozel.rules_preset, kozel.status, kozel.round_set.count()) == ("kozel", "finished", 3)
    matches = Match.objects.filter(pairing__round__tournament=kozel)
    assert matches.count() == 6
    assert all(m.rules_preset == "kozel" and m.status == "confirmed" for m in matches)


def test_the_fives_evening_is_finished_each_for_himself(seeded: str) -> None:
    fives = Tournament.objects.get(name=seed_demo.FIVES_NAME)
    assert (fives.rules_preset, fives.format, fives.status) == ("muggins", "free_for_all",
                                                                "finished")  # fmt: skip
    assert fives.entries.count() == 7 and fives.round_set.count() == 3
    tables = Pairing.objects.filter(round__tournament=fives, table__isnull=False)
    # seven players: a table of four and a table of three every round, nobody sits out
    assert sorted(p.places.count() for p in tables) == [3, 3, 3, 4, 4, 4]
    assert not Pairing.objects.filter(round__tournament=fives, table__isnull=True).exists()
    for pairing in tables.select_related("match"):
        match = pairing.match
        assert match.status == "confirmed" and match.rules["players"] == pairing.places.count()
        # played move by move: every deal has its line of play
        assert all("play" in deal.record for deal in match.deals.all())
        assert set(match.totals) == set(pairing.places.values_list("side", flat=True))


def test_every_protocol_is_legal(seeded: str) -> None:
    """The cached totals, winner and end of each match are the engine's fold of its records."""
    matches = Match.objects.prefetch_related("deals")
    # Swiss, individual, Козёл, Пятёрка; the cup: 3 Swiss rounds of 4 tables, 2 semi-finals,
    # the final and the match for third place
    # the club evenings: Чечевэ 3 × 2 tables, Семёрка 2 × 2, Генерал 2 × 2, six stints «на
    # вылет», one «Осёл» match
    assert matches.count() == 12 * 4 + 3 * 5 + 2 * 3 + 2 * 3 + 3 * 4 + 2 + 2 + 6 + 4 + 4 + 6 + 1
    for match in matches:
        judge = judge_for(match.get_rules())
        state = judge.start()
        records = [d.record for d in sorted(match.deals.all(), key=lambda d: d.n)]
        for record in records:
            assert judge.judge(state, record).ok, (match.pk, record)
        assert match.totals == state.totals, match.pk
        assert match.finished == state.finished
        if match.status in ("submitted", "confirmed"):
            assert state.finished and records
            assert match.winner == state.winner


def test_seed_demo_is_idempotent(seeded: str) -> None:
    before = _counts()
    call_command("seed_demo")
    assert _counts() == before


def test_the_public_pages_and_the_referee_sheet_render(seeded: str, client) -> None:
    for name in seed_demo.DEMO_TOURNAMENTS:
        t = Tournament.objects.get(name=name)
        first = t.entries.order_by("seed").first()
        assert first is not None
        for page in ("detail", "standings", "crosstable", "hall"):
            response = client.get(reverse(f"tournaments:{page}", args=[t.pk]))
            assert response.status_code == 200, (name, page)
            assert first.name in response.content.decode(), (name, page)
    t = Tournament.objects.get(name=seed_demo.SWISS_NAME)
    assert client.get(reverse("tournaments:round", args=[t.pk, 4])).status_code == 200
    client.login(username="referee", password="demo12345")
    empty = Match.objects.get(pairing__round__tournament=t, status="draft")
    response = client.get(reverse("scoring:sheet", args=[empty.pk]))
    assert response.status_code == 200


def test_the_club_cup_ends_in_a_knockout_and_a_prize_list(seeded: str, client) -> None:
    t = Tournament.objects.get(name=seed_demo.CUP_NAME)
    statuses = list(t.round_set.order_by("number").values_list("number", "status", "stage"))
    assert [(n, s) for n, s, _stage in statuses] == [(n, "finished") for n in range(1, 6)]
    assert [stage is not None for _n, _s, stage in statuses] == [False] * 3 + [True] * 2
    assert t.status == "finished"  # closed: its results are final
    bracket = client.get(reverse("tournaments:bracket", args=[t.pk]))
    assert bracket.status_code == 200 and 'id="final-ranking"' in bracket.content.decode()
    ranking = bracket.context["page"].ranking
    prizes = client.get(reverse("tournaments:prizes", args=[t.pk])).content.decode()
    # the champion takes the cup; the veterans' and the under-35s' prizes are handed out too
    assert ranking[0].name in prizes and "Кубок и диплом" in prizes
    assert prizes.count("Диплом") == 2


def test_the_club_evenings_of_seed_003_are_played_with_their_own_results(seeded: str,
                                                                        client) -> None:
    from tournaments.management import demo_club

    for name, preset in ((demo_club.CHECHEVO_NAME, "chechevo"),
                         (demo_club.SEMERKA_NAME, "semerka"),
                         (demo_club.GENERAL_NAME, "general")):
        tournament = Tournament.objects.get(name=name)
        assert tournament.status == Tournament.Status.FINISHED, name
        matches = Match.objects.filter(pairing__round__tournament=tournament)
        assert matches and all(m.rules["preset"] == preset and m.finished for m in matches)
        page = client.get(f"/tournaments/{tournament.pk}/standings/")
        assert page.status_code == 200
    semerka = Match.objects.filter(pairing__round__tournament__name=demo_club.SEMERKA_NAME)
    # each table plays until one player is left: the others are out, in order
    assert all(len(m.outcome["out"]) == 3 and m.winner not in m.outcome["out"] for m in semerka)
    general = Match.objects.filter(pairing__round__tournament__name=demo_club.GENERAL_NAME)
    assert all(m.end == "time" and set(m.outcome["losses"]) == {"NS", "EW"} for m in general)
    rotation = Tournament.objects.get(name=demo_club.ROTATION_NAME)
    page = client.get(f"/tournaments/{rotation.pk}/rotation/").content.decode()
    assert "Очередь" in page and "За столом" in page
    assert rotation.round_set.filter(status=Round.Status.FINISHED).count() == 5
    osel = Match.objects.get(label=demo_club.OSEL_LABEL)
    assert osel.status == Match.Status.IN_PLAY and osel.deals.count() == 3
