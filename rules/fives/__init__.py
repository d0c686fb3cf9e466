"""The fives games (Пятёрка / Muggins / All Fives): RULES.md sections 15–23, pure Python.

Points are scored during play, when the open ends add up to a multiple of five, and the referee
records the line of play move by move (the strong form) or only the points (the light form). The
package sits beside the judge of the other games (``rules.engine``) and shares its tiles
(``rules.tiles``), its error objects (``rules.errors``) and its knob descriptions
(``rules.presets.Knob``). Its presets live in a registry of their own, ``FIVES_PRESETS``, so the
web app, which builds its choices from ``rules.PRESETS``, offers no fives game yet;
``python -m rules check`` sends ``"preset": "fives"`` / ``"muggins"`` here.

Modules, each one concern: ``presets`` (the knobs of section 16), ``table`` (ends, the spinner,
the count, section 18), ``reading`` (a record into masks), ``hands`` (the hands at the end),
``strong`` (the line of play), ``after`` (what the whole play says, checked once it is laid),
``light`` (points only, section 19), ``scoring`` (bonus, eggs, the end of the match, section
20), ``judge`` (the stages in order), ``contract`` (section 22), ``simulate`` (legal random
games), ``messages`` (the new error codes' texts).

A match, as the score sheet keeps it::

    from rules.fives import FivesJudge, make_fives_rules
    judge = FivesJudge(make_fives_rules("muggins", {"target": 250}, players=2))
    verdict = judge.fold(deals)              # .deals[i].moves, .play_points, .bonus, .to_dict()
    state = judge.start()
    v = judge.judge(state, deal)             # applies the deal when legal
    v = judge_deal("fives", deal)            # one deal, a fresh match, nothing kept

Move by move, as a phone UI lays the tiles before the record is sent::

    from rules.fives import FivesTable, parse_tile
    table = judge.table()                    # empty: the first ``play`` is the lead
    table.play(parse_tile("5:5"))            # Laid(tile, end=None, count=10, points=10)
    table.legal_ends(parse_tile("5:3"))      # ['L', 'R']
    table.play(parse_tile("5:3"), "L")       # Laid(end='L', count=13, points=0)
    table.open_ends                          # {'L': 3, 'R': 5}
    table.play(parse_tile("6:6"), "L")       # LayError('tile_does_not_match_end')

``LayError.code`` is the code the judge gives for the same move (``bad_end``,
``tile_does_not_match_end``), so a UI that lays moves on a ``FivesTable`` writes records the
judge accepts.
"""

from __future__ import annotations

from .. import tiles as _tiles
from . import messages as _messages  # noqa: F401  (registers the new codes' messages)
from .contract import check_fives
from .judge import FivesJudge, judge_deal
from .presets import (
    FIVES_KNOBS,
    FIVES_PRESETS,
    FivesRules,
    fives_catalogue,
    is_fives_preset,
    make_fives_rules,
)
from .table import END_NAMES, FivesTable, Laid, LayError
from .types import FivesDealVerdict, FivesMatchVerdict, FivesState


def parse_tile(text: str) -> int:
    """One tile written in any notation of section 3; raises ``tiles.TileError``."""
    items = _tiles.parse_tiles(text)
    if len(items) != 1:
        raise _tiles.TileError("bad_tile", text)
    return items[0]


__all__ = [
    "END_NAMES", "FIVES_KNOBS", "FIVES_PRESETS", "FivesDealVerdict", "FivesJudge",
    "FivesMatchVerdict", "FivesRules", "FivesState", "FivesTable", "Laid", "LayError",
    "check_fives", "fives_catalogue", "is_fives_preset", "judge_deal", "make_fives_rules",
    "parse_tile",
]
