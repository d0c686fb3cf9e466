"""A referee records a whole «Чечевэ» match of three players on a 360 px phone (issue 27): the
seats follow the count, the sheet asks for the finishing tile only on a domino, the verdict
says in words what the engine decided («Козёл»), and the match ends as the engine says for the
same deals. The taps are counted (the issue's note reports them)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from accounts import roles
from config.tests.axe import install, violations
from rules.club import club_judge, make_club_rules
from rules.club.simulate import play_club_match
from scoring import services
from scoring.models import Match
from scoring.tests.helpers import make_player, make_user
from scoring.tests.test_browser import PHONE, log_in, shot, tap_deal, tile_name

#: a four-deal match that ends by E's 0:0 finish: N and S become «козлы» (RULES.md section 29)
SEED = 3


def as_the_sheet_records(deal: dict[str, Any]) -> dict[str, Any]:
    """The simulated deal as the phone's sheet records it: the result, who went out, the hands
    as tiles, and of the finishing tiles only what the special endings need (0:0, 6:6)."""
    out = {k: deal[k] for k in ("result", "by", "hands") if k in deal}
    finish = [t for t in (deal.get("last_tiles") or "").split() if tile_name(t) in ("0:0", "6:6")]
    if deal["result"] == "domino" and finish:
        out["last_tiles"] = " ".join(sorted(tile_name(t) for t in finish))
    return out


@pytest.mark.django_db(transaction=True)
def test_a_referee_records_a_whole_chechevo_match_of_three(
    browser: Any, live_server: Any, tmp_path: Path
) -> None:
    rules = make_club_rules("chechevo", {"players": 3})
    deals = [as_the_sheet_records(d) for d in play_club_match(club_judge(rules),
                                                               random.Random(SEED))]
    expected = club_judge(rules).fold(deals).to_dict()
    assert expected["ok"] and expected["end"] == "instant" and len(deals) == 4
    assert expected["winner"] == "E" and expected["losers"] == ["N", "S"]

    referee = make_user("referee", roles.REFEREE)
    seats = {seat: make_player(name) for seat, name in
             zip("NES", ("Иванов", "Петров", "Сидоров"), strict=True)}  # fmt: skip
    match = services.create_match(user=referee, referee=referee, seats=seats,
                                  rules_preset="chechevo", rules_options={"players": 3},
                                  label="Вечер Чечевэ", table="1")  # fmt: skip
    axe = install()
    context = browser.new_context(viewport=PHONE, locale="ru-RU", has_touch=True,
                                  bypass_csp=True)
    taps: list[int] = []
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        log_in(page, live_server.url, "referee", f"/matches/{match.pk}/")
        # three seats, no fourth; the finishing tile is asked only once a player went out
        assert page.locator(".seat-tab").count() == 3
        assert not page.locator(".finish-choice").is_visible()
        assert violations(page, axe) == []
        for i, deal in enumerate(deals, start=1):
            tap_deal(page, deal)
            count = 1 + bool(deal.get("by")) + sum(
                1 + len(h.split()) for h in (deal.get("hands") or {}).values())
            if deal["result"] == "domino":
                assert page.locator(".finish-choice").is_visible()
                if deal.get("last_tiles"):
                    page.click(f'.finish-choice input[value="{deal["last_tiles"]}"]')
                    count += 1
            page.wait_for_selector("#verdict .verdict.ok")
            if i == len(deals):
                verdict = page.inner_text("#verdict")
                assert "«Козёл»: N" in verdict and "«Козёл»: S" in verdict
                assert "Раздачу выиграл E." in verdict  # one player: not «выиграли»
                shot(page, tmp_path, "chechevo-verdict-360.png")
            page.click("#save-deal")
            taps.append(count + 1)
            if i < len(deals):
                page.wait_for_selector(f'#protocol tr[data-n="{i}"]')
            else:
                page.wait_for_selector("#submit-link")  # the finished match reloads the page
        protocol = page.inner_text("#protocol")
        assert "«Козёл»: N" in protocol and "Звания: N — «Козёл» (раздача 4)" in protocol
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert violations(page, axe) == []
        shot(page, tmp_path, "chechevo-protocol-360.png")
        assert not errors
    finally:
        context.close()
    match = Match.objects.get(pk=match.pk)
    assert match.totals == expected["totals"] and match.winner == expected["winner"]
    assert match.finished and match.end == "instant"
    assert match.outcome["titles"] == expected["titles"]
    assert [d.record.get("last_tiles") for d in match.deals.all()] == [
        d.get("last_tiles") for d in deals]
    print("taps per deal (Чечевэ, 3 players):", taps)
