"""The ``python -m rules check`` contract for the club games (RULES.md sections 13 and 34).

``check_club(data)`` takes the decoded input of a match whose ``preset`` is a club game and
returns ``(output, exit_status)``; ``rules.contract.check`` sends such inputs here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import RulesError
from .games import JUDGES
from .judge import ClubJudge
from .presets import ClubRules, make_club_rules

EXIT_OK, EXIT_REFUSED, EXIT_UNUSABLE = 0, 1, 2


def club_judge(rules: ClubRules) -> ClubJudge:
    """The judge of ``rules.preset``."""
    return JUDGES[rules.preset](rules)


def check_club(data: Mapping[str, Any]) -> tuple[dict[str, Any], int]:
    """Judge one club match given as the contract's input object."""
    try:
        deals = data.get("deals", [])
        if not isinstance(deals, list):
            raise RulesError("bad_input", "deals must be a list", "«deals» — список")
        rules = make_club_rules(str(data.get("preset")), data.get("options"),
                                data.get("players"))
    except RulesError as err:
        return {"ok": False, "errors": [err.problem.to_dict()]}, EXIT_UNUSABLE
    out = club_judge(rules).fold(deals).to_dict()
    return out, EXIT_OK if out["ok"] else EXIT_REFUSED
