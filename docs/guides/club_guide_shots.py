"""The pictures of the club games guide (docs/guides/club-games.*.md), taken on the demo.

Run the demo (``make run``, or ``manage.py seed_demo`` then ``uvicorn config.asgi:application
--port 8123`` with ``DATABASE_URL=sqlite:////tmp/demo.sqlite3``), then
``.venv/bin/python docs/guides/club_guide_shots.py [base-url] [sqlite-file]``: it writes them into
docs/guides/img/club/. It creates one «Чечевэ» match on the demo (the referee's first deal).
"""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

BASE = sys.argv[1] if len(sys.argv) > 1 else "http://localhost:8123"
DB = sys.argv[2] if len(sys.argv) > 2 else "/tmp/demo.sqlite3"  # noqa: S108 - the demo's file
OUT = Path(__file__).resolve().parent / "img" / "club"
PHONE, LAPTOP = {"width": 360, "height": 740}, {"width": 1366, "height": 768}
LABEL = {"ru": "Вечер Чечевэ", "en": "Chechevo evening"}


def _ids(db: sqlite3.Connection) -> dict[str, int]:
    def tournament(name: str) -> int:
        return int(db.execute("select id from tournaments_tournament where name=?",
                              (name,)).fetchone()[0])

    def first_match(name: str) -> int:
        return int(db.execute(
            "select m.id from scoring_match m join tournaments_pairing p on p.match_id=m.id "
            "join tournaments_round r on p.round_id=r.id where r.tournament_id=? and "
            "m.status='confirmed' order by m.id limit 1", (tournament(name),)).fetchone()[0])

    return {"semerka": first_match("Семёрка до последнего"),
            "general": first_match("Генерал: вечер клуба"),
            "rotation": tournament("Генерал на вылет")}


def _page(browser: Any, lang: str, size: dict[str, int], user: str) -> Any:
    context = browser.new_context(viewport=size, locale=lang)
    context.add_cookies([{"name": "django_language", "value": lang, "url": BASE}])
    page = context.new_page()
    page.goto(BASE + "/login/?next=/")
    page.fill("input[name=username]", user)
    page.fill("input[name=password]", "demo12345")
    with page.expect_navigation():
        page.press("input[name=password]", "Enter")
    return page


def _chechevo_deal(page: Any, lang: str) -> None:
    """A new «Чечевэ» match of three; its first deal: E goes out with 0:0."""
    page.goto(BASE + "/matches/new/")
    page.select_option("select[name=rules_preset]", "chechevo")
    page.fill("input[name=label]", LABEL[lang])
    page.check("input[name=players][value='3']")
    with page.expect_navigation():
        page.click("button[form=match-form]")
    page.click('.result-choice input[value="domino"]')
    page.click('.by-choice input[value="E"]')
    for seat, tiles in (("N", ["6:5", "4:4"]), ("S", ["3:1"])):
        page.click(f'.seat-tab[data-seat="{seat}"]')
        for tile in tiles:
            page.click(f'#tile-grid .tile[data-tile="{tile}"]')
    page.click('.finish-choice input[value="0:0"]')
    page.wait_for_selector("#verdict .verdict.ok")
    page.locator(".finish-choice").scroll_into_view_if_needed()


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    ids = _ids(sqlite3.connect(DB))
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        for lang in ("ru", "en"):
            page = _page(browser, lang, PHONE, "chief")
            _chechevo_deal(page, lang)
            page.screenshot(path=OUT / f"referee-chechevo-{lang}.png")
            page.goto(f"{BASE}/matches/{ids['semerka']}/")
            page.screenshot(path=OUT / f"semerka-protocol-{lang}.png", full_page=True)
            page.context.close()
            page = _page(browser, lang, LAPTOP, "organiser")
            page.goto(f"{BASE}/manage/{ids['rotation']}/setup/")
            page.locator("#rules").screenshot(path=OUT / f"organiser-rotation-setup-{lang}.png")
            page.goto(f"{BASE}/tournaments/{ids['rotation']}/rotation/")
            page.screenshot(path=OUT / f"rotation-page-{lang}.png", full_page=True)
            page.goto(f"{BASE}/matches/{ids['general']}/print/")
            page.screenshot(path=OUT / f"general-print-{lang}.png", full_page=True)
            page.context.close()
        browser.close()


if __name__ == "__main__":
    main()
