"""The one registry of games (rules.games): every preset of every judge, the unknown-preset error
listing them all, and the club games judged but not yet offered at the table (issue 27)."""

from __future__ import annotations

import json
import subprocess
import sys

from rules import PRESETS
from rules.contract import check
from rules.fives import FIVES_PRESETS
from rules.games import CLUB, CROSS, END_OF_DEAL, FIVES, LINE_OF_PLAY, at_table, games, judge_of
from rules.tests._support import REPO_ROOT

CLUB_GAMES = ("dvorovoe", "kozel_morskoy", "osel", "chechevo", "semerka", "general")


def test_every_preset_of_every_judge_is_one_entry() -> None:
    registry = games()
    assert set(PRESETS) | set(FIVES_PRESETS) | set(CLUB_GAMES) == set(registry)
    for name in FIVES_PRESETS:  # telefon too, once h26telefon adds it there
        assert registry[name].judge == FIVES and registry[name].family == LINE_OF_PLAY
    for name in CLUB_GAMES:
        assert registry[name].judge == CLUB
    assert registry["osel"].family == registry["chechevo"].family == CROSS
    assert registry["semerka"].family == END_OF_DEAL
    assert registry["sport"].judge_class().__name__ == "Judge"
    assert registry["muggins"].judge_class().__name__ == "FivesJudge"
    assert registry["general"].judge_class().__name__ == "GeneralJudge"


def test_every_game_is_at_the_table() -> None:
    for name in (*PRESETS, *CLUB_GAMES, "fives", "muggins", "telefon"):
        assert at_table(name), name
    assert not at_table("nonsense") and judge_of("nonsense") is None


def test_knobs_defaults_and_ranges_of_section_25() -> None:
    registry = games()
    sem = registry["semerka"]
    assert "target" not in sem.knobs and sem.defaults["sticks"] == 3
    assert registry["general"].players == (4, 4)
    assert registry["kozel_morskoy"].defaults["target"] == 125
    assert registry["osel"].defaults["min_record"] == 13
    assert registry["chechevo"].knobs["held_doubles"].choices == ("any_hand", "lone")


def test_unknown_preset_lists_every_game() -> None:
    out, status = check({"preset": "domino_x", "deals": []})
    assert status == 2
    message = out["errors"][0]["message"]
    for name in games():
        assert name in message


def test_presets_all_prints_the_registry() -> None:
    proc = subprocess.run([sys.executable, "-m", "rules", "presets", "--all"], cwd=REPO_ROOT,
                          capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["games"]["general"]["at_table"] is True
    assert data["games"]["telefon"]["at_table"] is True
    assert data["games"]["sport"]["family"] == END_OF_DEAL
