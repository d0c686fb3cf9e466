"""RULES.md section 23's worked examples (rules/tests/fives_examples/*.json) through the library
and the CLI: each file is a contract input and the output expected, every key shown must match."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rules.contract import check
from rules.tests._support import REPO_ROOT, subset_mismatches

FOLDER = Path(__file__).resolve().parent / "fives_examples"
EXAMPLES: list[Path] = sorted(FOLDER.glob("*.json"))


def _load(path: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return data["input"], data["output"]


def _expected_status(expected: dict[str, Any]) -> int:
    if "deals" not in expected:
        return 2
    return 0 if expected["ok"] else 1


def test_every_worked_example_is_there() -> None:
    # examples 1-9 of section 23, the tampering table of example 7 row by row, and section 22
    assert len(EXAMPLES) >= 30
    for number in range(1, 10):
        assert any(f"example {number}" in json.loads(p.read_text(encoding="utf-8"))["note"]
                   for p in EXAMPLES), number


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_through_library(path: Path) -> None:
    given, expected = _load(path)
    out, status = check(given)
    assert subset_mismatches(expected, out) == []
    assert status == _expected_status(expected)
    for deal in out.get("deals", []):
        for error in deal["errors"]:  # every error is worded in both languages
            assert error["message"] and error["message_ru"]
            assert not error["message"].startswith(error["code"] + ":")


@pytest.mark.parametrize("path", EXAMPLES[:3] + EXAMPLES[-3:],
                         ids=[p.stem for p in EXAMPLES[:3] + EXAMPLES[-3:]])
def test_example_through_cli(path: Path, tmp_path: Path) -> None:
    given, expected = _load(path)
    infile = tmp_path / "match.json"
    infile.write_text(json.dumps(given), encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "rules", "check", str(infile)],
                          cwd=REPO_ROOT, capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == _expected_status(expected), proc.stderr
    assert subset_mismatches(expected, json.loads(proc.stdout)) == []
