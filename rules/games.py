"""The one registry of every game the engine judges: its family, knobs, judge and table status.

Three judges share the work: the classic end-of-deal games of RULES.md sections 1–14
(``rules.PRESETS``, ``rules.Judge``), the fives games of sections 15–23 and 32 (the registry
``rules.fives.FIVES_PRESETS``, read each time, so every fives preset added there is a game here
with no second entry), and the club games of sections 24–31 (``rules.club.CLUB_PRESETS``).
``python -m rules check``, the unknown-preset error, the score sheet, the tournament setup and the
docs all ask this module. A new game is one entry in its judge's registry (and, for a new club
game, a judge class in ``rules.club.games``).

``at_table`` says whether the score sheet can record the game: every game can now («Телефон» on
the fives board, with its «дом», several doubles in one move and its write-off).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from .errors import RulesError
from .presets import KNOBS, PLAYER_RANGE, PRESETS, Knob

#: families of game (``Game.family``)
END_OF_DEAL, CROSS, LINE_OF_PLAY = "end_of_deal", "cross", "line_of_play"
#: the judges (``Game.judge``)
CLASSIC, FIVES, CLUB = "classic", "fives", "club"

#: fives-registry games the score sheet records today; any other fives preset waits for its sheet
_FIVES_AT_TABLE = frozenset({"fives", "muggins", "telefon"})


@dataclass(frozen=True, slots=True)
class Game:
    """One game: what a tournament picks by ``name``."""

    name: str
    family: str
    judge: str
    #: knob -> its description (``Knob``); the defaults are in ``defaults``
    knobs: Mapping[str, Knob]
    defaults: Mapping[str, Any]
    players: tuple[int, int]
    at_table: bool

    def judge_class(self) -> type:
        """The class that judges the game: ``rules.Judge``, ``rules.fives.FivesJudge``, or the
        game's own subclass of ``rules.club.ClubJudge``."""
        if self.judge == CLASSIC:
            from .engine.judge import Judge
            return Judge
        if self.judge == FIVES:
            from .fives.judge import FivesJudge
            return FivesJudge
        from .club.games import JUDGES
        return JUDGES[self.name]

    def describe(self) -> dict[str, Any]:
        return {
            "family": self.family, "judge": self.judge, "at_table": self.at_table,
            "players_allowed": list(self.players),
            "knobs": {k: {**knob.describe(), "default": self.defaults.get(k)}
                      for k, knob in self.knobs.items()},
        }


def _classic() -> list[Game]:
    return [Game(name, END_OF_DEAL, CLASSIC, KNOBS,
                 {k: v for k, v in rules.to_dict().items() if k in KNOBS},
                 PLAYER_RANGE[name], True) for name, rules in PRESETS.items()]


def _fives() -> list[Game]:
    from .fives.presets import FIVES_KNOBS, FIVES_PRESETS
    return [Game(name, LINE_OF_PLAY, FIVES, FIVES_KNOBS,
                 {k: v for k, v in rules.to_dict().items() if k in FIVES_KNOBS},
                 (2, 4), name in _FIVES_AT_TABLE) for name, rules in FIVES_PRESETS.items()]


def _club() -> list[Game]:
    from .club.presets import CLUB_KNOBS, CLUB_PRESETS
    out = []
    for name, (rules, takes, players) in CLUB_PRESETS.items():
        family = CROSS if rules.layout == "cross" else END_OF_DEAL
        knobs = {k: CLUB_KNOBS[k] for k in CLUB_KNOBS if k in takes}
        out.append(Game(name, family, CLUB, knobs, {k: getattr(rules, k) for k in knobs},
                        players, True))
    return out


@cache
def games() -> dict[str, Game]:
    """Every game, by name: the classic presets, every fives preset, the club games. Built once
    (the registries are complete once imported); do not change the dict returned."""
    return {g.name: g for g in (*_classic(), *_fives(), *_club())}


def game_names(at_table_only: bool = False) -> list[str]:
    return [name for name, g in games().items() if g.at_table or not at_table_only]


def find_game(name: object) -> Game:
    """The game called ``name``; ``RulesError('bad_option')`` listing every game otherwise."""
    found = games().get(name) if isinstance(name, str) else None
    if found is None:
        known = ", ".join(games())
        raise RulesError("bad_option", f"unknown preset {name!r}; known: {known}",
                         f"нет набора правил «{name}»; есть: {known}", option="preset")
    return found


def _checker(judge: str) -> Callable[[Mapping[str, Any]], tuple[dict[str, Any], int]]:
    if judge == FIVES:
        from .fives.contract import check_fives
        return check_fives
    if judge == CLUB:
        from .club.contract import check_club
        return check_club
    raise ValueError(judge)


def check_game(data: Mapping[str, Any]) -> tuple[dict[str, Any], int] | None:
    """``check`` for a game with a judge of its own (fives, club); None for a classic game,
    which ``rules.contract`` judges itself. Raises ``RulesError`` for an unknown preset."""
    g = find_game(data.get("preset", "sport"))
    if g.judge == CLASSIC:
        return None
    return _checker(g.judge)(data)


def catalogue() -> dict[str, Any]:
    """Every game and its knobs, as ``python -m rules presets --all`` prints them."""
    return {"default": "sport", "games": {name: g.describe() for name, g in games().items()}}


def judge_of(name: object) -> str | None:
    """Which judge a game has (``CLASSIC``, ``FIVES``, ``CLUB``); None for an unknown name."""
    found = games().get(name) if isinstance(name, str) else None
    return found.judge if found is not None else None


def at_table(name: object) -> bool:
    """Whether the score sheet and the tournament setup may offer the game today."""
    found = games().get(name) if isinstance(name, str) else None
    return found is not None and found.at_table
