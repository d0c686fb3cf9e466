"""The ``python -m rules check`` contract (RULES.md section 13): one match in, one verdict out.

``check(data)`` takes the decoded JSON input and returns ``(output, exit_status)``. The CLI, the
tests and the web app's import tools all go through it, so they cannot disagree.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .engine.judge import Judge
from .errors import Problem, RulesError
from .games import check_game
from .presets import make_rules

EXIT_OK, EXIT_REFUSED, EXIT_UNUSABLE = 0, 1, 2


def unusable(problem: Problem) -> dict[str, Any]:
    return {"ok": False, "errors": [problem.to_dict()]}


def check(data: Any) -> tuple[dict[str, Any], int]:
    """Judge one match given as the contract's input object."""
    try:
        if not isinstance(data, Mapping):
            raise RulesError("bad_input", "the input must be a JSON object",
                             "на входе должен быть JSON-объект")
        deals = data.get("deals", [])
        if not isinstance(deals, list):
            raise RulesError("bad_input", "deals must be a list", "«deals» — список")
        judged = check_game(data)  # the registry (rules.games): fives and club games
        if judged is not None:
            return judged
        rules = make_rules(data.get("preset", "sport"), data.get("options"), data.get("players"))
    except RulesError as err:
        return unusable(err.problem), EXIT_UNUSABLE
    verdict = Judge(rules).fold(deals)
    out = verdict.to_dict()
    return out, EXIT_OK if out["ok"] else EXIT_REFUSED


def check_text(text: str | bytes) -> tuple[dict[str, Any], int]:
    """``check`` on raw JSON text; unreadable text is ``bad_input``."""
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as err:
        error = RulesError("bad_input", f"not JSON: {err}", f"это не JSON: {err}")
        return unusable(error.problem), EXIT_UNUSABLE
    return check(data)
