"""The chief referee corrects a confirmed «Семёрка» protocol with the tile picker (issue 27), as
for sports domino: one tile moved from E's hand to S's in deal 4 gives the stick to S instead of
E, every later deal is judged again, and the match that S won is now E's. The history says it
in words, the stored protocol is the engine's fold of the corrected deals."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from accounts import roles
from rules.club import club_judge, make_club_rules
from rules.club.simulate import play_club_match
from scoring import services
from scoring.models import Match
from scoring.services.idempotency import same_deal
from scoring.tests.helpers import make_player, make_user
from scoring.tests.test_browser import log_in, tile_name
from scoring.tests.test_browser_correction import LAPTOP, judged, tap

#: deal 4 (index 3) of this three-player match is a domino by N; E and S hold the rest
SEED, INDEX, MOVED = 32, 3, "5:2"
RULES = make_club_rules("semerka", {"players": 3})


@pytest.mark.django_db(transaction=True)
def test_the_chief_corrects_a_semerka_protocol_with_the_picker(
    browser: Any, live_server: Any
) -> None:
    deals = play_club_match(club_judge(RULES), random.Random(SEED))
    referee = make_user("referee", roles.REFEREE)
    chief = make_user("chief", roles.CHIEF_REFEREE)
    seats = {s: make_player(n) for s, n in zip("NES", ("Иванов", "Петров", "Сидоров"),
                                                 strict=True)}  # fmt: skip
    match = services.create_match(user=chief, referee=referee, seats=seats,
                                  rules_preset="semerka", rules_options={"players": 3},
                                  label="Семёрка", table="1")  # fmt: skip
    for deal in deals:
        services.record_deal(match.pk, deal, referee)
    services.submit(match.pk, referee)
    services.confirm(match.pk, chief)
    before = club_judge(RULES).fold(deals)
    assert before.state.winner == "S"
    wanted = copy.deepcopy(deals)
    east = wanted[INDEX]["hands"]["E"].split()
    assert tile_name(east[0]) == MOVED
    wanted[INDEX]["hands"]["E"] = " ".join(east[1:])
    wanted[INDEX]["hands"]["S"] += f" {east[0]}"
    after = club_judge(RULES).fold(wanted)
    assert after.ok and after.state.winner == "E" and after.state.out == ["N", "S"]

    context = browser.new_context(viewport=LAPTOP, locale="ru-RU")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        log_in(page, live_server.url, "chief", f"/matches/{match.pk}/correct/")
        assert page.locator("#review tr.deal").count() == len(deals)
        page.click(f'.pick[data-index="{INDEX}"]')
        tap(page, "E", MOVED)
        tap(page, "S", MOVED)
        judged(page)
        assert page.locator("#review tr.row-errors").count() == 0
        assert page.locator(f'#review tr.deal.status-changed[data-n="{INDEX + 1}"]').count() == 1
        page.fill("#correct-form textarea[name=reason]", "5:2 была у S")
        with page.expect_navigation():
            page.click("#save-correction")
        assert "Протокол исправлен" in page.inner_text(".messages")
        text = page.locator('.history li[data-action="correct"]').inner_text()
        assert "5:2 была у S" in text and "{" not in text
        assert not errors
    finally:
        context.close()
    stored = Match.objects.get(pk=match.pk)
    records = [d.record for d in stored.deals.order_by("n")]
    assert all(same_deal(a, b) for a, b in zip(records, wanted, strict=True))
    assert stored.totals == after.state.totals and stored.winner == "E"
    assert stored.outcome["out"] == ["N", "S"]
