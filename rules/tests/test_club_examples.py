"""RULES.md section 36's worked examples as contract tests, read from the committed copies in
``contract_examples/section36`` (CI has no ``shared/`` folder), and a check that the copies (and
those of ``shared/examples``) equal their sources whenever ``shared/`` is there."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rules.contract import check
from rules.games import games
from rules.tests._support import REPO_ROOT, shared_dir, subset_mismatches
from rules.tests.section36 import examples, file_name

HERE = Path(__file__).resolve().parent / "contract_examples"
#: this module's copies: ``NN-<preset>.json`` (other files in the folder are other tests')
COPIES: list[Path] = sorted(p for p in (HERE / "section36").glob("*.json")
                            if re.fullmatch(r"\d\d-[a-z_]+", p.stem)
                            and "status" in json.loads(p.read_text(encoding="utf-8")))
SHARED_COPIES: list[Path] = sorted((HERE / "shared").glob("*.json"))
SHARED = shared_dir()


def _load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _known(preset: str) -> None:
    if preset not in games():
        pytest.xfail(f"preset {preset!r} is not in the registry yet (h26telefon adds telefon)")


def test_every_example_of_section_36_is_copied() -> None:
    assert len(COPIES) == 21
    assert len(SHARED_COPIES) >= 8


@pytest.mark.skipif(SHARED is None, reason="shared/ not found beside the repository")
def test_copies_equal_rules_md_and_shared_examples() -> None:
    assert SHARED is not None
    source = examples((SHARED / "RULES.md").read_text(encoding="utf-8"))
    assert {file_name(e): e for e in source} == {p.name: _load(p) for p in COPIES}
    for path in sorted((SHARED / "examples").glob("*.json")):
        assert _load(HERE / "shared" / path.name) == _load(path), path.name


@pytest.mark.parametrize("path", COPIES, ids=[p.stem for p in COPIES])
def test_section_36_example(path: Path) -> None:
    example = _load(path)
    _known(example["preset"])
    out, status = check(example["input"])
    assert subset_mismatches(example["output"], out) == []
    assert status == example["status"]
    for deal in out.get("deals", []):
        for error in deal["errors"]:
            assert error["message"] and error["message_ru"]
            assert not error["message"].startswith(error["code"] + ":")


@pytest.mark.parametrize("path", SHARED_COPIES, ids=[p.stem for p in SHARED_COPIES])
def test_public_example_from_copy(path: Path) -> None:
    data = _load(path)
    out, status = check(data["input"])
    assert subset_mismatches(data["output"], out) == []
    assert status == (2 if "deals" not in data["output"] else 0 if data["output"]["ok"] else 1)


@pytest.mark.parametrize("path", COPIES[::5], ids=[p.stem for p in COPIES[::5]])
def test_section_36_example_through_cli(path: Path, tmp_path: Path) -> None:
    example = _load(path)
    _known(example["preset"])
    infile = tmp_path / "match.json"
    infile.write_text(json.dumps(example["input"]), encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "rules", "check", str(infile)],
                          cwd=REPO_ROOT, capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == example["status"], proc.stderr
    assert subset_mismatches(example["output"], json.loads(proc.stdout)) == []
