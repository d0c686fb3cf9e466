"""What the scoring pages say, over raw HTTP in Russian (the default) and English: each message
names what is missing, counts agree with their nouns, no internal code stands in a sentence, a
wrong PIN says how many tries are left, and a wrong announced amount is shown beside the rules'.
"""

from __future__ import annotations

from typing import Any

import pytest

from scoring import services
from scoring.models import Deal, Match
from scoring.tests.helpers import record_all
from scoring.tests.test_views import JSON, form_data

pytestmark = pytest.mark.django_db


def preview(client: Any, match: Match, data: dict[str, Any]) -> dict[str, Any]:
    return client.post(f"/matches/{match.pk}/preview/", data, **JSON).json()


def test_save_with_nothing_chosen_asks_how_the_deal_ended(client, referee, match) -> None:
    client.force_login(referee)
    data = {"client_id": "", "expected_version": match.version, "mode": "tiles"}
    answer = client.post(f"/matches/{match.pk}/deals/", data, **JSON)
    assert answer.status_code == 400
    messages = [e["message"] for e in answer.json()["errors"]]
    assert messages == ["Выберите, чем закончилась раздача."]
    assert "Обязательное поле" not in answer.json()["html"]
    plain = client.post(f"/matches/{match.pk}/deals/", data).content.decode()
    assert "Выберите, чем закончилась раздача." in plain and "Обязательное поле" not in plain
    assert not Deal.objects.exists()


def test_a_domino_without_who_went_out_asks_for_it(client, referee, match) -> None:
    client.force_login(referee)
    data = form_data({"result": "domino", "hands": {"N": "1:1"}}, match)
    html = preview(client, match, data)["html"]
    assert "Выберите, кто вышел." in html
    assert "«by»" not in html


def test_points_written_agree_with_their_number(client, referee, match) -> None:
    client.force_login(referee)
    words = {(20, 1): "+21 очко", (1, 1): "+2 очка", (10, 2): "+12 очков", (4, 1): "+5 очков"}
    for (north, south), text in words.items():
        deal = {"result": "domino", "by": "E", "leader": "N",
                "pips": {"N": north, "S": south, "W": 3}}
        html = preview(client, match, form_data(deal, match))["html"]
        assert text in html, (text, html)
    client.cookies["django_language"] = "en"
    deal = {"result": "domino", "by": "E", "leader": "N", "pips": {"N": 20, "S": 1, "W": 3}}
    assert "+21 points" in preview(client, match, form_data(deal, match))["html"]


def test_an_announced_amount_is_set_beside_the_rules_and_can_be_accepted(
    client, referee, match
) -> None:
    client.force_login(referee)
    deal = {"result": "domino", "by": "E", "leader": "N", "pips": {"N": 8, "S": 50, "W": 9}}
    html = preview(client, match, form_data(deal, match, declared_EW="66"))["html"]
    assert "E–W</b>: объявлено 66, по правилам 58" in html
    assert 'data-accept="{&quot;NS&quot;: 0, &quot;EW&quot;: 58}"' in html
    good = form_data(deal, match, declared_EW="58")
    assert preview(client, match, good)["ok"] is True
    assert client.post(f"/matches/{match.pk}/deals/", good, **JSON).status_code == 201
    assert Deal.objects.get().record["declared"] == {"NS": 0, "EW": 58}


def test_a_finished_match_is_said_in_words(client, referee, match, deals) -> None:
    match = record_all(match, referee, deals)
    client.force_login(referee)
    extra = {"result": "domino", "by": "E", "pips": {"N": 1, "S": 1, "W": 1}}
    answer = client.post(f"/matches/{match.pk}/deals/", form_data(extra, match), **JSON)
    message = answer.json()["errors"][0]["message"]
    assert message == "Партия уже окончена (сыграны все раздачи); новые раздачи не записываются"


def test_a_wrong_pin_says_how_many_tries_are_left(client, referee, match, deals) -> None:
    record_all(match, referee, deals)
    services.submit(match.pk, referee)
    client.force_login(referee)
    said = []
    for _ in range(services.MAX_PIN_FAILURES):
        html = client.post(f"/matches/{match.pk}/confirm/", {"pin": "0000"}).content.decode()
        said.append(html.split('role="alert"><p>', 1)[1].split("</p>", 1)[0])
    assert said == [
        "Неверный PIN. Осталось 4 попытки.",
        "Неверный PIN. Осталось 3 попытки.",
        "Неверный PIN. Осталось 2 попытки.",
        "Неверный PIN. Осталась 1 попытка.",
        "Неверный PIN. Попыток больше нет: протокол подтвердит главный судья.",
    ]
    client.cookies["django_language"] = "en"
    services.set_confirm_pin(match.pk, match.created_by, "1357")
    html = client.post(f"/matches/{match.pk}/confirm/", {"pin": "0000"}).content.decode()
    assert "Wrong PIN. 4 tries left." in html
