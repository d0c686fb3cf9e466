"""Result-only tables (issue 29): where the setup allows it, the desk types a table's final score
without deals from the round page; it counts in the standings, is marked «итог без раздач» on
the protocol, the crosstable (page, export and API) and audited; refused where the setting is
off (the default), for a table with deals, and for other organisers."""

from __future__ import annotations

import pytest

from accounts.models import AuditEntry
from scoring.models import Match, MatchVersion
from tournaments.models import Pairing, Tournament
from tournaments.tests.builders import add_deals, play_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening(tournament: Tournament, pairs):
    e = pairs(tournament, 4)
    round_ = play_round(tournament, 1, [(e[0], e[1], None), (e[2], e[3], None)])
    return {"entries": e, "round": round_, "t1": Pairing.objects.get(round=round_, table=1),
            "t2": Pairing.objects.get(round=round_, table=2)}


def post(client, tournament, pairing, ns, ew):
    return client.post(f"/manage/{tournament.pk}/rounds/1/result/",
                       {"pairing": pairing.pk, "NS": ns, "EW": ew}, follow=True)  # fmt: skip


def test_off_by_default_and_nothing_changes(client, tournament, organiser, evening) -> None:
    assert Tournament._meta.get_field("result_only_tables").default is False
    client.force_login(organiser)
    page = client.get(f"/manage/{tournament.pk}/rounds/1/").content.decode()
    assert "Ввести итог" not in page
    html = post(client, tournament, evening["t1"], 120, 80).content.decode()
    assert "итог без раздач допускается, только если это разрешено в настройках" in html
    match = Match.objects.get(pk=evening["t1"].match_id)
    assert (match.status, match.totals, match.result_only) == ("draft", {}, False)


def test_a_typed_score_counts_and_is_marked_everywhere(client, tournament, organiser,
                                                       evening) -> None:  # fmt: skip
    Tournament.objects.filter(pk=tournament.pk).update(result_only_tables=True)
    client.force_login(organiser)
    page = client.get(f"/manage/{tournament.pk}/rounds/1/").content.decode()
    assert "Ввести итог" in page
    html = post(client, tournament, evening["t1"], 120, 80).content.decode()
    assert "Стол 1: итог сохранён (без раздач)." in html
    assert "итог без раздач" in html  # the round page marks the table
    match = Match.objects.get(pk=evening["t1"].match_id)
    assert (match.status, match.totals, match.winner, match.result_only) == (
        "confirmed", {"NS": 120, "EW": 80}, "NS", True)
    assert MatchVersion.objects.filter(match=match, confirmed=True).count() == 1
    assert AuditEntry.objects.filter(action="pairing.result_only").count() == 1
    # the standings count it: Пара 1 won table 1
    standings = client.get(f"/tournaments/{tournament.pk}/standings/").content.decode()
    first = standings.split('id="standings"', 1)[1].split("<tbody>", 1)[1].split("</tr>", 1)[0]
    assert "Пара 1" in first
    # the protocol, the crosstable page, its export and the API say how it was recorded
    sheet = client.get(f"/matches/{match.pk}/").content.decode()
    assert "итог без раздач" in sheet
    cross = client.get(f"/tournaments/{tournament.pk}/crosstable/").content.decode()
    assert "120:80‡" in cross and "(итог без раздач)" in cross
    assert "‡ после очков: итог, введённый без раздач." in cross
    export = client.get(f"/tournaments/{tournament.pk}/crosstable.csv").content.decode()
    assert "120:80‡" in export and "80:120‡" in export
    api = client.get(f"/api/v1/tournaments/{tournament.pk}/crosstable/").json()
    typed = [c for row in api["rows"] for c in row["cells"] if c and c["result_only"]]
    assert len(typed) == 2


def test_refused_for_a_table_with_deals_and_for_other_organisers(
    client, tournament, organiser, other_organiser, evening
) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(result_only_tables=True)
    add_deals(Match.objects.get(pk=evening["t2"].match_id), ["NS"])
    client.force_login(other_organiser)
    assert post(client, tournament, evening["t1"], 120, 80).status_code == 403
    client.force_login(organiser)
    html = post(client, tournament, evening["t2"], 120, 80).content.decode()
    assert "У стола 2 есть свой протокол" in html
    html = post(client, tournament, evening["t1"], "сто", 80).content.decode()
    assert "Укажите итог каждой стороны целым числом от 0 до 10000." in html
    html = post(client, tournament, evening["t1"], 120, 10**6).content.decode()
    assert "Укажите итог каждой стороны" in html
    assert not Match.objects.filter(result_only=True).exists()
    assert not AuditEntry.objects.filter(action="pairing.result_only").exists()
