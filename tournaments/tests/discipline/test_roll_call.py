"""The roll call before a round (issue 29): one tap per entry through the page, the pairing
leaves the absent out, a no-show of the round in play becomes a forfeit or a withdrawal from the
same page; refused for other organisers and for a round already paired."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import AuditEntry
from tournaments.models import Entry, EntryAbsence, Pairing, RollCall, Round, Sanction, Tournament
from tournaments.tests.builders import add_deals, play_round
from tournaments.tests.rounds.test_rounds import pair

pytestmark = pytest.mark.django_db


def url(tournament: Tournament) -> str:
    return f"/manage/{tournament.pk}/roll-call/"


def tap(client: Client, tournament: Tournament, entry: Entry, state: str) -> str:
    answer = client.post(url(tournament), {"call": f"{entry.pk}:{state}"}, follow=True)
    assert answer.redirect_chain[-1][0].endswith(f"#entry-{entry.pk}")  # back to the same row
    return answer.content.decode()


def test_one_tap_each_and_the_pairing_leaves_the_absent_out(
    client, tournament, organiser, pairs, django_capture_on_commit_callbacks
) -> None:
    a, b, c, d, e, f = pairs(tournament, 6)
    client.force_login(organiser)
    page = client.get(url(tournament)).content.decode()
    assert "перекличка перед туром 1" in page and "не отмечены 6" in page
    tap(client, tournament, a, "present")
    tap(client, tournament, b, "late")
    html = tap(client, tournament, c, "absent")
    assert "Здесь 1 · опаздывают 1 · отсутствуют 1 · не отмечены 3" in html
    assert f'id="entry-{c.pk}" data-state="absent"' in html
    assert EntryAbsence.objects.filter(entry=c, round_number=1).exists()
    assert set(RollCall.objects.values_list("entry_id", "state")) == {(a.pk, "present"),
                                                                        (b.pk, "late")}
    # a tap changes one's mind: absent back to present, the absence goes
    tap(client, tournament, c, "present")
    assert not EntryAbsence.objects.filter(entry=c).exists()
    tap(client, tournament, c, "absent")
    assert AuditEntry.objects.filter(action="entry.roll_call").count() == 4  # a, b, c twice
    round_ = pair(organiser, tournament, django_capture_on_commit_callbacks)
    assert round_.status == Round.Status.PAIRED
    seated = set(round_.places.values_list("entry_id", flat=True))
    assert c.pk not in seated and {a.pk, b.pk, d.pk, e.pk, f.pk} <= seated
    # round 1 is paired: the page now calls round 2, and round 1 can no longer change
    assert "перекличка перед туром 2" in client.get(url(tournament)).content.decode()


def test_a_no_show_in_the_round_in_play_is_forfeited_or_withdrawn(client, tournament, organiser,
                                                                  pairs) -> None:  # fmt: skip
    a, b, c, d = pairs(tournament, 4)
    round_ = play_round(tournament, 1, [(a, b, None), (c, d, None)])  # published, in play
    add_deals(Pairing.objects.get(round=round_, table=2).match, ["NS"])  # table 2 has started
    client.force_login(organiser)
    page = client.get(url(tournament)).content.decode()
    assert "Не пришёл к столу 1?" in page and "тур 1: стол 2" in page
    client.post(url(tournament), {"no_show": f"{b.pk}:forfeit"})
    forfeit = Sanction.objects.get(kind="forfeit")
    assert (forfeit.entry, forfeit.round_number, forfeit.pairing.table) == (b, 1, 1)
    html = client.post(url(tournament), {"no_show": f"{d.pk}:forfeit"},
                       follow=True).content.decode()  # fmt: skip
    assert "За столом 2 уже играют" in html
    assert Sanction.objects.count() == 1
    client.post(url(tournament), {"no_show": f"{d.pk}:withdraw"})
    assert Entry.objects.get(pk=d.pk).status == Entry.Status.WITHDRAWN


def test_other_organisers_and_bad_taps_change_nothing(client, tournament, organiser,
                                                      other_organiser, pairs) -> None:  # fmt: skip
    a, b = pairs(tournament, 2)
    client.force_login(other_organiser)
    assert client.get(url(tournament)).status_code == 403
    assert client.post(url(tournament), {"call": f"{a.pk}:absent"}).status_code == 403
    client.force_login(organiser)
    html = client.post(url(tournament), {"call": f"{a.pk}:asleep"}, follow=True).content.decode()
    assert "Здесь, опаздывает или отсутствует." in html
    other = Tournament.objects.create(name="Чужой")
    stranger = Entry.objects.create(tournament=other, name="Чужая пара")
    assert client.post(url(tournament), {"call": f"{stranger.pk}:absent"},
                       follow=True).status_code == 200  # fmt: skip
    assert not EntryAbsence.objects.exists() and not RollCall.objects.exists()
    assert not AuditEntry.objects.filter(action="entry.roll_call").exists()
