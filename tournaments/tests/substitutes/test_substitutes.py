"""Substitutes (``tournaments.substitutes``): the organiser sets one before the round's
protocols start (audited); the table's seats show who plays; the players' standings, a player's
page and the ratings credit who played, not the player replaced; the pair keeps its results;
nobody else may set one, and bad input changes nothing."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from accounts.models import AuditEntry
from scoring import services as scoring
from scoring.models import Match
from scoring.tests.helpers import sport_deals
from tournaments import ratings, results
from tournaments.errors import Conflict, NotAllowed, TournamentError
from tournaments.models import Entry, Pairing, Player, RatingChange, Substitute, Tournament
from tournaments.rounds.tables import reseat_table
from tournaments.substitutes import remove_substitute, set_substitute
from tournaments.tests.builders import play_round
from tournaments.tests.conftest import make_user
from tournaments.tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def confirm(match: Match, ns: int, ew: int) -> None:
    Match.objects.filter(pk=match.pk).update(
        status=Match.Status.CONFIRMED, winner="NS" if ns > ew else "EW",
        totals={"NS": ns, "EW": ew}, finished=True, end="deals", confirmed_at=timezone.now(),
    )  # fmt: skip


@pytest.fixture
def event(tournament: Tournament, organiser: User, pairs) -> dict[str, Any]:
    """Four pairs, round 1 published with both tables not started; a reserve of pair 1's club."""
    Tournament.objects.filter(pk=tournament.pk).update(public=True, rounds=3)
    tournament.refresh_from_db()
    e = pairs(tournament, 4)
    r1 = play_round(tournament, 1, [(e[0], e[1], None), (e[2], e[3], None)])
    for pairing in Pairing.objects.filter(round=r1):  # seated as the pairing job seats them
        reseat_table(pairing, organiser)
    reserve = PlayerFactory(last_name="Запасной", club=e[0].club)
    north, south = sorted(e[0].players.all(), key=lambda p: p.last_name)
    return {"e": e, "r1": r1, "reserve": reserve, "out": south, "partner": north,
            "table1": Pairing.objects.get(round=r1, table=1)}


def seats(pairing: Pairing) -> set[int | None]:
    match = Match.objects.get(pk=pairing.match_id)
    pairing.refresh_from_db()
    assert match.seat_player_ids() == {s: getattr(pairing, f"seat_{s.lower()}_id")
                                       for s in "NESW"}  # fmt: skip
    return set(match.seat_player_ids().values())


def test_a_substitute_for_one_round_sits_at_the_table_and_is_audited(organiser, event) -> None:
    row = set_substitute(organiser, event["e"][0].tournament_id, replaced=event["out"].pk,
                         player=event["reserve"].pk, from_round=1, to_round=1,
                         reason="заболел")  # fmt: skip
    assert row.entry == event["e"][0] and row.to_round == 1
    sitting = seats(event["table1"])
    assert event["reserve"].pk in sitting and event["out"].pk not in sitting
    assert event["partner"].pk in sitting
    entry = AuditEntry.objects.get(action="entry.substitute")
    assert entry.after["player"] == event["reserve"].pk and entry.after["reason"] == "заболел"
    remove_substitute(organiser, row.pk)
    assert event["out"].pk in seats(event["table1"])
    assert AuditEntry.objects.filter(action="entry.substitute_remove").count() == 1


def test_refused_once_the_tables_protocol_has_a_deal(organiser, event) -> None:
    match = Match.objects.get(pk=event["table1"].match_id)
    scoring.record_deal(match.pk, sport_deals()[0], organiser)
    with pytest.raises(Conflict) as err:
        set_substitute(organiser, event["e"][0].tournament_id, replaced=event["out"].pk,
                       player=event["reserve"].pk, from_round=1)  # fmt: skip
    assert err.value.errors[0]["code"] == "protocol_started"
    assert "Стол 1 тура 1" in err.value.errors[0]["message"]
    assert not Substitute.objects.exists() and not AuditEntry.objects.filter(
        action="entry.substitute").exists()


@pytest.mark.parametrize("change,field", [
    ({"player": "partner"}, "player"),          # already plays here
    ({"replaced": "reserve"}, "replaced"),      # not a player of an entry
    ({"from_round": 0}, "from_round"),
    ({"from_round": 4}, "from_round"),          # the tournament has 3 rounds
    ({"from_round": 2, "to_round": 1}, "to_round"),
    ({"player": 999999}, "player"),
])  # fmt: skip
def test_bad_input_is_refused_with_the_field_and_changes_nothing(organiser, event, change,
                                                                 field) -> None:  # fmt: skip
    args: dict[str, Any] = {"replaced": event["out"].pk, "player": event["reserve"].pk,
                            "from_round": 1, "to_round": None}
    for key, value in change.items():
        args[key] = event[value].pk if isinstance(value, str) else value
    with pytest.raises(TournamentError) as err:
        set_substitute(organiser, event["e"][0].tournament_id, **args)
    assert err.value.errors[0]["field"] == field
    assert not Substitute.objects.exists()
    assert event["out"].pk in seats(event["table1"])


def test_overlapping_substitutes_are_refused(organiser, event) -> None:
    t = event["e"][0].tournament_id
    set_substitute(organiser, t, replaced=event["out"].pk, player=event["reserve"].pk,
                   from_round=2)  # fmt: skip
    other = PlayerFactory(last_name="Второй", club=event["e"][0].club)
    with pytest.raises(Conflict):
        set_substitute(organiser, t, replaced=event["out"].pk, player=other.pk, from_round=3,
                       to_round=3)  # fmt: skip


def test_nobody_else_may_set_or_remove_one(client, organiser, other_organiser, event) -> None:
    t = event["e"][0].tournament
    chief = make_user("chief", "Chief referee")
    t.chief_referees.add(chief)
    referee = make_user("ref", "Referee")
    row = set_substitute(organiser, t.pk, replaced=event["out"].pk, player=event["reserve"].pk,
                         from_round=2)  # fmt: skip
    form = {"replaced": event["out"].pk, "player": event["reserve"].pk, "from_round": 1,
            "scope": "one"}
    for who in (other_organiser, chief, referee):
        with pytest.raises(NotAllowed):
            set_substitute(who, t.pk, replaced=event["out"].pk, player=event["reserve"].pk,
                           from_round=1, to_round=1)  # fmt: skip
        with pytest.raises(NotAllowed):
            remove_substitute(who, row.pk)
        client.force_login(who)
        assert client.get(f"/manage/{t.pk}/substitutes/").status_code == 403
        assert client.post(f"/manage/{t.pk}/substitutes/", form).status_code == 403
        assert client.post(f"/manage/{t.pk}/substitutes/{row.pk}/remove/").status_code == 403
    client.logout()
    response = client.post(f"/manage/{t.pk}/substitutes/", form)
    assert response.status_code == 302 and "/login/" in response["Location"]
    assert list(Substitute.objects.values_list("pk", flat=True)) == [row.pk]


def test_the_organisers_page(client, organiser, event) -> None:
    t = event["e"][0].tournament
    User.objects.filter(pk=organiser.pk).update(first_name="Ольга", last_name="Устроева")
    client.force_login(organiser)
    page = client.get(f"/manage/{t.pk}/rounds/1/").content.decode()
    assert f"/manage/{t.pk}/substitutes/?round=1" in page
    page = client.get(f"/manage/{t.pk}/substitutes/?round=1").content.decode()
    assert 'id="substitute-form"' in page and "Запасной" in page
    bad = client.post(f"/manage/{t.pk}/substitutes/", {
        "replaced": event["out"].pk, "player": event["reserve"].pk, "from_round": 9,
        "scope": "one"})  # fmt: skip
    assert bad.status_code == 400 and not Substitute.objects.exists()
    done = client.post(f"/manage/{t.pk}/substitutes/", {
        "replaced": event["out"].pk, "player": event["reserve"].pk, "from_round": 1,
        "scope": "one", "reason": "заболел"}, follow=True).content.decode()  # fmt: skip
    assert 'id="substitutes"' in done and "Запасной" in done
    # who set it is named, not shown by the login (the list said «org»)
    assert "Ольга Устроева" in done and not re.search(r'class="meta">\s*org\b', done)
    row = Substitute.objects.get()
    assert row.to_round == 1
    client.post(f"/manage/{t.pk}/substitutes/{row.pk}/remove/")
    assert not Substitute.objects.exists()


def test_who_played_is_credited_and_the_pair_keeps_its_results(client, organiser, event) -> None:
    t = event["e"][0].tournament
    e, out, reserve = event["e"], event["out"], event["reserve"]
    set_substitute(organiser, t.pk, replaced=out.pk, player=reserve.pk, from_round=1, to_round=1)
    confirm(Match.objects.get(pk=event["table1"].match_id), 120, 40)  # pair 1 wins round 1
    confirm(Match.objects.get(pairing__round=event["r1"], pairing__table=2), 90, 70)
    play_round(t, 2, [(e[0], e[2], (50, 110)), (e[1], e[3], (100, 20))])  # pair 1 loses

    # the pair keeps both rounds
    pair = {line.participant: line for line in results.live_table(t).lines}[e[0].pk]
    assert pair.row["match_points"] == 2 and pair.row["points_for"] == 170
    # the players: the reserve scored round 1, the player he replaced round 2 only
    players = {line.participant: line for line in results.live_table(t, scope="players").lines}
    assert players[reserve.pk].row["match_points"] == 2
    assert players[reserve.pk].row["points_for"] == 120
    assert players[out.pk].row["match_points"] == 0 and players[out.pk].row["points_for"] == 50
    assert players[event["partner"].pk].row["points_for"] == 170
    assert players[reserve.pk].name == reserve.full_name and players[reserve.pk].players

    # the player's pages
    page = client.get(f"/players/{reserve.pk}/").content.decode()
    assert page.count('class="history-match') == 1 and event["partner"].full_name in page
    page = client.get(f"/players/{out.pk}/").content.decode()
    assert page.count('class="history-match') == 1
    page = client.get(f"/players/{event['partner'].pk}/").content.decode()
    assert page.count('class="history-match') == 2 and reserve.full_name in page

    # the ratings
    ratings.recompute()
    first = Match.objects.get(pk=event["table1"].match_id)
    assert RatingChange.objects.filter(player=reserve, match=first).exists()
    assert not RatingChange.objects.filter(player=out, match=first).exists()
    assert RatingChange.objects.filter(player=out, round_number=2).count() == 1
    assert Player.objects.filter(pk=reserve.pk).exists()


def test_a_substitute_from_a_round_on_sits_at_the_tables_paired_later(organiser, event,
                                                                      settings) -> None:
    t = event["e"][0].tournament
    set_substitute(organiser, t.pk, replaced=event["out"].pk, player=event["reserve"].pk,
                   from_round=2)  # fmt: skip
    assert event["out"].pk in seats(event["table1"])  # round 1 is not his
    from tournaments import rounds as rounds_

    User.objects.filter(pk=organiser.pk)  # the organiser pairs round 2 (eager Celery in tests)
    Match.objects.filter(pairing__round=event["r1"]).update(status=Match.Status.CONFIRMED,
                                                            winner="NS", finished=True)
    rounds_.finish_round(organiser, event["r1"].pk)
    round2 = rounds_.start_pairing(organiser, t.pk)
    from tournaments.rounds.job import run_pairing

    run_pairing(round2.pk)
    table = Pairing.objects.get(round=round2, places__entry=event["e"][0])
    assert event["reserve"].pk in seats(table) and event["out"].pk not in seats(table)


def test_the_archive_keeps_the_substitutes_and_reads_older_archives(organiser, event) -> None:
    import json

    from tournaments import archive

    t = event["e"][0].tournament
    set_substitute(organiser, t.pk, replaced=event["out"].pk, player=event["reserve"].pk,
                   from_round=1, to_round=1, reason="заболел")  # fmt: skip
    doc = json.loads(archive.dumps(archive.export_tournament(t)))
    assert len(doc["substitutes"]) == 1
    row = doc["substitutes"][0]
    assert set(row) == {"id", "entry", "replaced", "player", "from_round", "to_round", "reason",
                        "created_by", "created_at"}
    assert row["created_by"] == "org" and row["reason"] == "заболел"
    copy = archive.import_tournament(doc, organiser)
    # players without a federation id are created afresh by an import: compared by name
    sub = Substitute.objects.select_related("replaced", "player").get(tournament=copy)
    assert (sub.replaced.full_name, sub.player.full_name, sub.from_round, sub.to_round) == (
        event["out"].full_name, event["reserve"].full_name, 1, 1)
    assert sub.entry.tournament_id == copy.pk and sub.entry.players.filter(pk=sub.replaced_id)
    table = Pairing.objects.get(round__tournament=copy, table=1)
    assert sub.player_id in seats(table) and sub.replaced_id not in seats(table)
    # an archive written before substitutes existed has no such list: it still imports
    del doc["substitutes"]
    older = archive.import_tournament(doc, organiser)
    assert not Substitute.objects.filter(tournament=older).exists()


def test_the_api_for_organisers_only(organiser, other_organiser, event) -> None:
    from rest_framework.test import APIClient

    t = event["e"][0].tournament
    api = APIClient()
    url = f"/api/v1/tournaments/{t.pk}/substitutes/"
    body = {"replaced": event["out"].pk, "player": event["reserve"].pk, "from_round": 1,
            "to_round": 1, "reason": "заболел"}
    chief = make_user("chief", "Chief referee")
    t.chief_referees.add(chief)
    for who in (other_organiser, chief, make_user("ref", "Referee"), None):
        api.force_authenticate(who)
        assert api.post(url, body, format="json").status_code in (401, 403, 404)
        assert api.get(url).status_code in (401, 403, 404)
    assert not Substitute.objects.exists()
    api.force_authenticate(organiser)
    bad = api.post(url, {**body, "from_round": 7}, format="json")
    assert bad.status_code == 400 and bad.json()["errors"][0]["field"] == "from_round"
    made = api.post(url, body, format="json")
    assert made.status_code == 201, made.json()
    assert made.json()["entry"] == event["e"][0].pk and made.json()["created_by"] == "org"
    assert event["reserve"].pk in seats(event["table1"])
    assert [row["id"] for row in api.get(url).json()] == [made.json()["id"]]
    api.force_authenticate(other_organiser)
    assert api.post(f"{url}{made.json()['id']}/remove/").status_code in (403, 404)
    api.force_authenticate(organiser)
    assert api.post(f"{url}{made.json()['id']}/remove/").status_code == 204
    assert not Substitute.objects.exists() and event["out"].pk in seats(event["table1"])


def test_a_player_of_another_organisers_private_event_cannot_substitute(organiser, event,
                                                                         other_organiser) -> None:
    """Issue 25: the substitutes API took a player seen only in another organiser's private
    tournament. A substitute is a reserve of this tournament's clubs (or of no club) that the
    organiser may see; the page offers exactly those."""
    from rest_framework.test import APIClient

    from tournaments.substitutes.forms import SubstituteForm
    from tournaments.tests.factories import TournamentFactory

    hidden = TournamentFactory(name="Чужой закрытый", public=False)
    hidden.organisers.add(other_organiser)
    secret = PlayerFactory(last_name="Тайный", club=None)
    Entry.objects.create(tournament=hidden, name="Тайный", status=Entry.Status.ACTIVE
                         ).players.add(secret)  # fmt: skip
    api = APIClient()
    api.force_authenticate(organiser)
    url = f"/api/v1/tournaments/{event['e'][0].tournament_id}/substitutes/"
    body = {"replaced": event["out"].pk, "from_round": 1, "to_round": 1}
    refused = api.post(url, {**body, "player": secret.pk}, format="json")
    assert refused.status_code == 400, refused.content
    assert refused.json()["errors"][0]["field"] == "player"
    assert not Substitute.objects.exists()
    offered = SubstituteForm(tournament=event["e"][0].tournament, user=organiser)
    ids = {pk for pk, _label in offered.fields["player"].choices}
    assert secret.pk not in ids and event["reserve"].pk in ids
    accepted = api.post(url, {**body, "player": event["reserve"].pk}, format="json")
    assert accepted.status_code == 201, accepted.content


def test_one_substitute_cannot_sit_at_two_tables_of_a_round(organiser, event) -> None:
    """Issue 25: the same substitute sat at two tables of one round (the standings counted
    one match for him, the ratings two). Over raw HTTP: the second is refused, nothing moves."""
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(organiser)
    url = f"/api/v1/tournaments/{event['e'][0].tournament_id}/substitutes/"
    first = api.post(url, {"replaced": event["out"].pk, "player": event["reserve"].pk,
                           "from_round": 1, "to_round": 1}, format="json")  # fmt: skip
    assert first.status_code == 201, first.content
    other = next(iter(event["e"][2].players.all()))
    Player.objects.filter(pk=event["reserve"].pk).update(club=None)  # a reserve for both
    second = api.post(url, {"replaced": other.pk, "player": event["reserve"].pk,
                            "from_round": 1}, format="json")  # fmt: skip
    assert second.status_code == 409, second.content
    assert second.json()["errors"][0]["code"] == "seat_taken"
    assert Substitute.objects.filter(player=event["reserve"]).count() == 1
    seated = [p for p in Pairing.objects.filter(round=event["r1"])
              if event["reserve"].pk in seats(p)]  # fmt: skip
    assert len(seated) == 1
