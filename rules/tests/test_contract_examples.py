"""The public contract examples (shared/examples/*.json) through the library and the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rules.contract import check
from rules.tests._support import REPO_ROOT, shared_dir, subset_mismatches

SHARED = shared_dir()
EXAMPLES: list[Path] = sorted((SHARED / "examples").glob("*.json")) if SHARED else []

needs_examples = pytest.mark.skipif(
    not EXAMPLES, reason="shared/examples/ not found beside the repository (or above it)")


def _load(path: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return data["input"], data["output"]


def _expected_status(expected: dict[str, Any]) -> int:
    if "deals" not in expected:
        return 2
    return 0 if expected["ok"] else 1


@needs_examples
def test_examples_folder_holds_every_worked_example() -> None:
    assert len(EXAMPLES) >= 8
    for path in EXAMPLES:
        data = json.loads(path.read_text(encoding="utf-8"))
        assert set(data) >= {"input", "output"}, path.name


@needs_examples
@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_through_library(path: Path) -> None:
    given, expected = _load(path)
    out, status = check(given)
    assert subset_mismatches(expected, out) == []
    assert status == _expected_status(expected)


@needs_examples
@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_through_cli(path: Path, tmp_path: Path) -> None:
    given, expected = _load(path)
    infile = tmp_path / "match.json"
    infile.write_text(json.dumps(given), encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "rules", "check", str(infile)],
                          cwd=REPO_ROOT, capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == _expected_status(expected), proc.stderr
    out = json.loads(proc.stdout)
    assert subset_mismatches(expected, out) == []


def test_subset_match_helper_catches_differences() -> None:
    expected = {"a": 1, "b": [1, {"c": 2}]}
    assert subset_mismatches(expected, {"a": 1, "b": [1, {"c": 2, "d": 3}], "e": 0}) == []
    assert subset_mismatches(expected, {"a": 1, "b": [1, {"c": 3}]}) != []
    assert subset_mismatches(expected, {"a": 1, "b": [1]}) != []
    assert subset_mismatches(expected, {"b": [1, {"c": 2}]}) != []
    assert subset_mismatches({"x": None}, {"x": 0}) != []
    assert subset_mismatches({"x": False}, {"x": 0}) != []
