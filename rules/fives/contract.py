"""The ``python -m rules check`` contract for the fives games (RULES.md section 22).

``check_fives(data)`` takes the decoded input of a match whose ``preset`` is ``fives`` or
``muggins`` and returns ``(output, exit_status)`` in the shape of section 13, each deal entry with
its ``play_points``, ``bonus`` and ``moves``. ``rules.contract.check`` sends such inputs here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import RulesError
from .judge import FivesJudge
from .presets import make_fives_rules

# The exit statuses of section 13 (``rules.contract`` has the same; importing them from there
# would make the two modules import each other).
EXIT_OK, EXIT_REFUSED, EXIT_UNUSABLE = 0, 1, 2


def check_fives(data: Mapping[str, Any]) -> tuple[dict[str, Any], int]:
    """Judge one fives match given as the contract's input object."""
    try:
        deals = data.get("deals", [])
        if not isinstance(deals, list):
            raise RulesError("bad_input", "deals must be a list", "«deals» — список")
        rules = make_fives_rules(data.get("preset", "fives"), data.get("options"),
                                 data.get("players"))
    except RulesError as err:
        return {"ok": False, "errors": [err.problem.to_dict()]}, EXIT_UNUSABLE
    out = FivesJudge(rules).fold(deals).to_dict()
    return out, EXIT_OK if out["ok"] else EXIT_REFUSED
