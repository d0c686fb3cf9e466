"""What one table of a round gives each entry seated at it, and the games of the rounds an entry
had no place in: the one derivation that ``ledger.load`` applies to every table it reads and
``live_state`` to the tables a change touched, so the two cannot drift apart.

    decisions(matches, sides, scored) -> {match: Decision}   the decided tables' results
                                                               (one query)
    scored_column(tournament) -> str                 the JSON column they are scored from
    table_places(info, decision, offenders, swap, bye_result) -> [Place]
    unplaced(entry_id, withdrawn, rounds, unseated, absent) -> [Game]

``info`` is a table as ``ledger.load`` gathers it from the places: ``{"round", "table",
"match", "sides": {side: [entries]}, "BYE": [entries]}``. Plain data in, plain data out; the
only query is ``decisions``'. How a side scored is ``sides``' (points swapped where fewer is
better).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from django.db.models import QuerySet
from django.db.models.fields.json import KT

from scoring.models import Match
from tournaments import standings as pure
from tournaments.models import Tournament
from tournaments.results.sides import side_points, side_result

END_KINDS = {"target": "target", "instant": "target", "time": "time", "deals": "deals"}
TYPED = "result_only"  # the end a final score typed without deals is read with (no END_KINDS)

#: (winner, end, totals by side, deals won by side) of a decided table
Decision = tuple[str, str, dict[str, int], dict[str, int]]


class Place(NamedTuple):
    """One entry's place at a table: its kind ("" played, "pending", "bye", "forfeit_win",
    "forfeit_loss"), result and game (None while pending), and what a crosstable cell shows."""

    entry: int
    kind: str
    result: str
    game: pure.Game | None
    theirs: tuple[int, ...] = ()
    partners: tuple[int, ...] = ()
    ours: int = 0
    others: int = 0
    side: str = ""


def scored_column(tournament: Tournament) -> str:
    """The JSON column a decided table's sides are scored from: the totals, but «Семёрка»
    ranks a table by when its players went out (``Match.outcome``), not by sticks."""
    return "outcome__places" if tournament.rules_preset == "semerka" else "totals"


def _key(column: str, key: str) -> KT:
    """A key of a JSON column as text, read by the database (no JSON decoding here)."""
    return KT(f"{column}__{key}")


def decisions(matches: QuerySet[Any], sides: tuple[str, ...],
              scored: str = "totals") -> dict[int, Decision]:  # fmt: skip
    """The confirmed, decided ones of ``matches`` (one query): the JSON keys of every side of
    ``scored`` (the totals, or «Семёрка»'s places: ``ledger.load``) read as text by the
    database."""
    decided: dict[int, Decision] = {}
    for pk, winner, end, result_only, *values in matches.filter(
        status=Match.Status.CONFIRMED
    ).exclude(winner="").values_list(
        "pk", "winner", "end", "result_only", *(_key(scored, side) for side in sides),
        *(_key("deals_won", side) for side in sides),
    ):  # fmt: skip
        totals, won = values[: len(sides)], values[len(sides):]
        decided[pk] = (  # a score typed without deals (``rounds.result_only``) ends so
            winner, TYPED if result_only else end,
            {side: int(v) for side, v in zip(sides, totals, strict=True) if v is not None},
            {side: int(v) for side, v in zip(sides, won, strict=True) if v is not None},
        )  # fmt: skip
    return decided


def table_places(info: dict[str, Any], decision: Decision | None, offenders: set[int],
                 swap: bool, bye_result: str) -> list[Place]:  # fmt: skip
    """Every place at one table: a bye, a forfeit (``offenders`` lost it), a decided match, or
    a table still in play ("pending", no game)."""
    number = info["round"]
    places = [
        Place(entry_id, "bye", bye_result,
              pure.Game(number, entry_id, None, bye_result, played=False, kind="bye"))  # type: ignore[arg-type]
        for entry_id in info["BYE"]
    ]  # fmt: skip
    sides: dict[str, list[int]] = info["sides"]
    if offenders:
        decision = None
    for side, members in sides.items():
        mine = tuple(members)
        theirs = tuple(e for name, group in sides.items() if name != side for e in group)
        kind, result, ours, others = "pending", "", 0, 0
        won: dict[str, int] = {}
        end = ""
        if offenders:
            lost = bool(offenders & set(mine))
            kind, result = ("forfeit_loss", "loss") if lost else ("forfeit_win", "win")
        elif decision is not None:
            winner, end, totals, won = decision
            kind, result = "", side_result(winner, side, totals, swap)
            ours, others = side_points(side, totals, swap)
        for entry_id in mine:
            game = None
            if kind == "":
                game = pure.Game(
                    number, entry_id, theirs[0] if theirs else None,
                    result, ours, others, won.get(side, 0),  # type: ignore[arg-type]
                    end=END_KINDS.get(end, ""),  # type: ignore[arg-type]
                    opponents=theirs if len(theirs) > 1 else (),
                )  # fmt: skip
            elif kind != "pending":
                game = pure.Game(number, entry_id, None, result, played=False,  # type: ignore[arg-type]
                                 kind=kind)  # type: ignore[arg-type]  # fmt: skip
            partners = tuple(e for e in mine if e != entry_id)
            places.append(Place(entry_id, kind, result, game, theirs, partners, ours, others,
                                side))  # fmt: skip
    return places


def unplaced(entry_id: int, withdrawn: bool, rounds: Iterable[int], unseated: Iterable[int],
             absent: set[tuple[int, int]]) -> list[pure.Game]:  # fmt: skip
    """The games of the rounds ``unseated`` (of ``rounds``) that the entry had no place in:
    absent (by request, or it joined later) or, after its last place, withdrawn when it has
    withdrawn and did not ask to be absent that round."""
    empty = set(unseated)
    last = max((n for n in rounds if n not in empty), default=0)
    games = []
    for number in rounds:
        if number not in empty:
            continue
        gone = withdrawn and number > last and (entry_id, number) not in absent
        games.append(pure.Game(number, entry_id, None, "loss", played=False,
                               kind="withdrawn" if gone else "absent"))  # fmt: skip
    return games
