"""In a real browser on a laptop (1366×768, Russian): the chief referee corrects a confirmed
protocol with the tile picker, as a referee records a deal, and finds the change in the history.

He taps deal 3's number, gives «who went out» to the wrong seat: only deal 3 is marked wrong
(the old finisher has no hand), none of the deals after it; a reload keeps his unsaved work.
He puts it right, moves one tile from S's hand to W's (the amount written changes), sees every
later total and the result judged again beside the confirmed ones, writes the reason and saves.
The history shows the deal that differs, the totals before → after, who and why; the stored
protocol is the engine's fold of the deals he made.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from accounts import roles
from rules import Judge, make_rules
from rules.simulate import play_match
from scoring import services
from scoring.models import Match, MatchVersion
from scoring.services.idempotency import same_deal
from scoring.tests.helpers import make_player, make_user
from scoring.tests.test_browser import log_in, tile_name

LAPTOP = {"width": 1366, "height": 768}
#: deal 3 of this match is a domino by E; N holds one tile, S three, W (E's partner) three
SEED = 1
INDEX = 2


def pips(tile: str) -> int:
    a, b = tile.split(":")
    return int(a) + int(b)


@pytest.fixture
def confirmed(db: Any) -> tuple[Match, list[dict[str, Any]]]:
    referee = make_user("referee", roles.REFEREE)
    chief = make_user("chief", roles.CHIEF_REFEREE)
    seats = {seat: make_player(name) for seat, name in
             zip("NESW", ("Иванов", "Петров", "Сидоров", "Кузнецов"), strict=True)}  # fmt: skip
    match = services.create_match(user=chief, referee=referee, seats=seats,
                                  label="Клубный вечер", table="2")  # fmt: skip
    deals = play_match(make_rules("sport"), random.Random(SEED), style="tiles")
    for deal in deals:
        services.record_deal(match.pk, deal, referee)
    services.submit(match.pk, referee)
    services.confirm(match.pk, chief)
    return Match.objects.get(pk=match.pk), deals


def tap(page: Any, seat: str, tile: str) -> None:
    page.click(f'#deal-editor .seat-tab[data-seat="{seat}"]')
    page.click(f'#deal-editor #tile-grid .tile[data-tile="{tile}"]')


def judged(page: Any) -> None:
    """Waits for the protocol judged again after the last tap."""
    page.wait_for_function("() => !document.getElementById('review').classList.contains('busy')")
    page.wait_for_timeout(400)
    page.wait_for_function("() => !document.getElementById('review').classList.contains('busy')")


@pytest.mark.django_db(transaction=True)
def test_the_chief_corrects_a_deal_with_the_tile_picker_and_the_history_shows_the_change(
    browser: Any, live_server: Any, confirmed: tuple[Match, list[dict[str, Any]]]
) -> None:
    match, deals = confirmed
    deal = deals[INDEX]
    assert deal["result"] == "domino" and deal["by"] == "E" and set(deal["hands"]) == set("NSW")
    assert len(deal["hands"]["S"].split()) > 1
    n = INDEX + 1
    context = browser.new_context(viewport=LAPTOP, locale="ru-RU")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        log_in(page, live_server.url, "chief", f"/matches/{match.pk}/correct/")
        assert page.locator("#review tr.deal").count() == len(deals)
        assert "Пока ничего не изменено" in page.inner_text("#correct-status")

        # «who went out» given to N by mistake: E, who did go out, now has no hand
        page.click(f'.pick[data-index="{INDEX}"]')
        assert page.inner_text("#editor-title") == f"Раздача {n}"
        page.click('#deal-editor .by-choice input[value="N"]')
        judged(page)
        rows = page.locator("#review tr.row-errors")
        assert rows.count() == 1
        assert rows.first.get_attribute("data-index") == str(INDEX)
        assert f"№\xa0{n} · E · Петров: Для места E не записаны" in rows.first.inner_text()
        assert "Заходило место" not in page.inner_text("#review")
        assert "1 ошибка" in page.inner_text("#correct-status")

        # a reload loses nothing
        page.reload()
        assert page.locator("#draft-note").is_visible()
        judged(page)
        assert page.locator("#review tr.row-errors").count() == 1

        # put right: E went out and N gets his tiles back; then one of S's tiles goes to W
        page.click(f'.pick[data-index="{INDEX}"]')
        page.click('#deal-editor .by-choice input[value="E"]')
        for token in deal["hands"]["N"].split():
            tap(page, "N", tile_name(token))
        moved = tile_name(deal["hands"]["S"].split()[0])
        tap(page, "S", moved)
        tap(page, "W", moved)
        judged(page)
        assert page.locator("#review tr.row-errors").count() == 0
        assert page.locator(f'#review tr.deal.status-changed[data-n="{n}"]').count() == 1
        assert page.locator("#review tr.deal.status-changed").count() == 1

        wanted = copy.deepcopy(deals)
        south = [tile_name(t) for t in deal["hands"]["S"].split()]
        wanted[INDEX]["hands"]["S"] = " ".join(t for t in south if t != moved)
        wanted[INDEX]["hands"]["W"] = f"{deal['hands']['W']} {moved}"
        before = Judge(make_rules("sport")).fold(deals)
        after = Judge(make_rules("sport")).fold(wanted)
        assert after.state.totals["EW"] == before.state.totals["EW"] - pips(moved)
        shown = [page.inner_text(f'#review tfoot [data-total="{i}"]').split()[0]
                 for i in range(2)]
        assert shown == [str(after.state.totals[s]) for s in ("NS", "EW")]
        # every later deal judged again: its running total beside the confirmed one
        for later in (i for i in range(INDEX, len(deals)) if deals[i]["result"] != "redeal"):
            cell = page.locator(f'#review tr.deal[data-index="{later}"] td.side').nth(1)
            assert cell.locator(".total").inner_text() == str(after.deals[later].totals["EW"])
            assert cell.locator(".was-total").inner_text() == str(before.deals[later].totals["EW"])
        assert "Изменена 1 раздача" in page.inner_text("#correct-status")

        page.fill("#correct-form textarea[name=reason]", "Кость 6:1 была у W, а не у S")
        with page.expect_navigation():
            page.click("#save-correction")
        assert "Протокол исправлен" in page.inner_text(".messages")

        stored = Match.objects.get(pk=match.pk)
        records = [d.record for d in stored.deals.order_by("n")]
        assert all(same_deal(a, b) for a, b in zip(records, wanted, strict=True))
        assert stored.totals == after.state.totals
        row = MatchVersion.objects.get(match=match, action="correct")
        assert (row.user.username, row.reason) == ("chief", "Кость 6:1 была у W, а не у S")

        # the history: who, why, the deal that differs, the totals before → after
        entry = page.locator('.history li[data-action="correct"]')
        text = entry.inner_text()
        assert "chief" in text and "Кость 6:1 была у W, а не у S" in text
        assert f"E–W {before.state.totals['EW']} → {after.state.totals['EW']}" in text
        changes = entry.locator("table").first  # the whole protocol is folded away below it
        assert changes.locator(f'tr.deal.status-changed[data-n="{n}"]').count() == 1
        assert changes.locator("tr.deal").count() == 1  # only the deal that differs
        assert "было:" in changes.locator(f'tr.detail[data-index="{INDEX}"]').inner_text()
        assert "{" not in text  # no raw records
        assert not errors
    finally:
        context.close()

