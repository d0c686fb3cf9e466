"""Helpers shared by the rules test modules (not a test module itself)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rules import tiles as T
from rules.engine.judge import Judge
from rules.engine.types import DealVerdict, MatchVerdict
from rules.presets import make_rules

REPO_ROOT = Path(__file__).resolve().parents[2]


def shared_dir() -> Path | None:
    """The ``shared/`` folder with RULES.md and examples, beside the repo or its parent."""
    here = Path(__file__).resolve()
    # a git worktree sits one level deeper (``wt/<name>``) than the main checkout
    for candidate in (here.parents[3] / "shared", here.parents[2].parent / "shared",
                      here.parents[4] / "shared"):
        if (candidate / "examples").is_dir():
            return candidate
    return None


def fold(deals: list[dict[str, Any]], preset: str = "sport",
         options: dict[str, Any] | None = None, players: int | None = None) -> MatchVerdict:
    return Judge(make_rules(preset, options, players)).fold(deals)


def codes(verdict: DealVerdict) -> list[str]:
    return [p.code for p in verdict.errors]


def complement(*parts: str) -> str:
    """Every tile of the set not written in ``parts`` (canonical text)."""
    used = 0
    for part in parts:
        used |= T.mask_of(T.parse_tiles(part))
    return T.format_tiles(T.FULL_SET & ~used)


def pips_of(text: str) -> int:
    return sum(T.PIPS[t] for t in T.parse_tiles(text))


# Worked example 1 of RULES.md: N leads, E goes out; the 23 tiles on the table form a line.
EX1_HANDS: dict[str, str] = {"N": "3:4 1:0", "S": "6:6", "W": "2:2 4:1"}


def ex1(**extra: Any) -> dict[str, Any]:
    deal: dict[str, Any] = {"result": "domino", "by": "E", "leader": "N",
                            "hands": dict(EX1_HANDS)}
    deal.update(extra)
    return deal


# A legal four-player fish: the table is the closed line
# 0:0 0:1 1:2 2:0 0:3 3:4 4:0 0:5 5:6 6:0 (both ends 0, all seven 0 tiles played).
FISH_TABLE = "0:0 1:0 2:1 2:0 3:0 4:3 4:0 5:0 6:5 6:0"
FISH_HANDS: dict[str, str] = {
    "N": "1:1 6:6 3:1 4:2",        # 24
    "E": "2:2 5:5 4:1 6:3",        # 28
    "S": "3:3 5:1 5:2 5:3 6:4",    # 37
    "W": "4:4 6:1 3:2 6:2 5:4",    # 37
}
FISH_VALUES = {"NS": 61, "EW": 65}


def fish(**extra: Any) -> dict[str, Any]:
    deal: dict[str, Any] = {"result": "fish", "by": "W", "hands": dict(FISH_HANDS)}
    deal.update(extra)
    return deal


def domino_pips(by: str, pips: dict[str, int], **extra: Any) -> dict[str, Any]:
    deal: dict[str, Any] = {"result": "domino", "by": by, "pips": dict(pips)}
    deal.update(extra)
    return deal


def fish_pips(pips: dict[str, int], **extra: Any) -> dict[str, Any]:
    deal: dict[str, Any] = {"result": "fish", "pips": dict(pips)}
    deal.update(extra)
    return deal


# A hand of five doubles: a legal redeal.
REDEAL_HANDS: dict[str, str] = {
    "N": "0:0 1:1 2:2 3:3 4:4 1:0 2:0",
    "E": "5:5 6:6 2:1 3:0 3:1 3:2 4:0",
    "S": "4:1 4:2 4:3 5:0 5:1 5:2 5:3",
    "W": "5:4 6:0 6:1 6:2 6:3 6:4 6:5",
}
# The same tiles shuffled so that no hand qualifies (at most 4 doubles, at most 5 of a suit).
NO_REDEAL_HANDS: dict[str, str] = {
    "N": "0:0 1:1 2:2 3:3 6:1 1:0 2:0",
    "E": "5:5 6:6 2:1 3:0 3:1 3:2 4:0",
    "S": "4:1 4:2 4:3 5:0 5:1 5:2 5:3",
    "W": "5:4 6:0 4:4 6:2 6:3 6:4 6:5",
}


def subset_mismatches(expected: Any, actual: Any, path: str = "$") -> list[str]:
    """Where ``actual`` fails to show every key of ``expected`` with an equal value."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{path}: expected an object, got {actual!r}"]
        out: list[str] = []
        for key, value in expected.items():
            if key not in actual:
                out.append(f"{path}.{key}: missing")
            else:
                out.extend(subset_mismatches(value, actual[key], f"{path}.{key}"))
        return out
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [f"{path}: expected {len(expected)} items, got {actual!r}"]
        out = []
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            out.extend(subset_mismatches(e, a, f"{path}[{i}]"))
        return out
    if type(expected) is not type(actual) and not (
        isinstance(expected, int | float) and isinstance(actual, int | float)
        and not isinstance(expected, bool) and not isinstance(actual, bool)
    ):
        return [f"{path}: expected {expected!r}, got {actual!r}"]
    if expected != actual:
        return [f"{path}: expected {expected!r}, got {actual!r}"]
    return []
