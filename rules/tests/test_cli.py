"""The command line (RULES.md section 13): exit statuses, stdin, unusable input, presets."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from rules.tests._support import REPO_ROOT, ex1


def run(*args: str, stdin: str | bytes | None = None) -> tuple[int, Any]:
    data = stdin.encode() if isinstance(stdin, str) else stdin
    proc = subprocess.run([sys.executable, "-m", "rules", *args], input=data, cwd=REPO_ROOT,
                          capture_output=True, timeout=60, check=False)
    return proc.returncode, json.loads(proc.stdout.decode("utf-8"))


def write(tmp_path: Path, data: Any) -> str:
    path = tmp_path / "in.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def test_exit_0_when_every_deal_is_valid(tmp_path: Path) -> None:
    status, out = run("check", write(tmp_path, {"deals": [ex1()]}))
    assert status == 0
    assert out["ok"] is True and out["preset"] == "sport"
    assert out["totals"] == {"NS": 0, "EW": 58}
    assert out["finished"] is False and out["end"] is None and out["winner"] is None


def test_exit_1_when_a_deal_is_refused_and_the_rest_still_judged(tmp_path: Path) -> None:
    bad = ex1(declared={"EW": 66})
    good = ex1()
    status, out = run("check", write(tmp_path, {"preset": "sport", "deals": [bad, good]}))
    assert status == 1
    assert out["ok"] is False
    assert [d["ok"] for d in out["deals"]] == [False, True]
    assert [d["n"] for d in out["deals"]] == [1, 2]
    assert out["deals"][0]["errors"][0]["code"] == "declared_mismatch"
    assert out["totals"] == {"NS": 0, "EW": 58}


def test_dash_reads_standard_input() -> None:
    status, out = run("check", "-", stdin=json.dumps({"deals": [ex1()]}))
    assert status == 0 and out["totals"] == {"NS": 0, "EW": 58}


def test_empty_match_is_valid() -> None:
    status, out = run("check", "-", stdin=json.dumps({"preset": "kozel"}))
    assert status == 0
    assert out["deals"] == [] and out["totals"] == {"NS": 0, "EW": 0}


def test_unreadable_file_is_bad_input_exit_2(tmp_path: Path) -> None:
    status, out = run("check", str(tmp_path / "missing.json"))
    assert status == 2
    assert out["ok"] is False and out["errors"][0]["code"] == "bad_input"
    assert out["errors"][0]["message"]


def test_non_json_is_bad_input_exit_2() -> None:
    for text in (b"{not json", b"", b"\xff\xfe\x00"):
        status, out = run("check", "-", stdin=text)
        assert status == 2
        assert out == {"ok": False, "errors": out["errors"]}
        assert [e["code"] for e in out["errors"]] == ["bad_input"]


def test_unknown_preset_is_bad_option_exit_2() -> None:
    status, out = run("check", "-", stdin=json.dumps({"preset": "poker", "deals": [ex1()]}))
    assert status == 2
    assert out["ok"] is False and "deals" not in out
    assert [e["code"] for e in out["errors"]] == ["bad_option"]


def test_bad_override_is_bad_option_exit_2() -> None:
    status, out = run("check", "-", stdin=json.dumps({"options": {"deals": 6}, "deals": []}))
    assert status == 2 and out["errors"][0]["code"] == "bad_option"


def test_batch_gives_one_verdict_per_match_and_the_worst_status() -> None:
    matches = [{"deals": [ex1()]}, {"deals": [ex1(leader="W")]}, {"preset": "nope"}]
    status, out = run("check", "--batch", "-", stdin=json.dumps(matches))
    assert status == 2
    assert [o["ok"] for o in out] == [True, False, False]
    assert out[1]["deals"][0]["errors"][0]["code"] == "wrong_leader"
    assert out[2]["errors"][0]["code"] == "bad_option"
    status, out = run("check", "--batch", "-", stdin=json.dumps(matches[:1]))
    assert status == 0 and len(out) == 1


def test_batch_needs_a_list() -> None:
    status, out = run("check", "--batch", "-", stdin=json.dumps({"deals": []}))
    assert status == 2 and out["errors"][0]["code"] == "bad_input"


def test_presets_prints_json_with_all_four_presets() -> None:
    status, out = run("presets")
    assert status == 0
    assert set(out["presets"]) == {"sport", "kozel", "morskoy", "international"}
    assert out["default"] == "sport"
    assert out["presets"]["kozel"]["end"] == "target_loses"
    assert "deals" in out["knobs"] and "target" in out["knobs"]
