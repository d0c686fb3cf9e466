"""The bridge from the database to the pure knock-out bracket (``tournaments.pairing.knockout``).

    final_stage(tournament) -> Stage | None         the final stage after the qualifying rounds
    final_over(stage) -> bool                       nothing more to pair in it
    games(stage, statuses, before=None) -> [Game]   its tables in the order played (2 queries)
    load(stage, statuses=COUNTED, before=None) -> Bracket
    level_name(bracket, level) -> str               "Quarter-final", "Semi-final", "Final" …

A table's game is won by the side its confirmed protocol names (``Match.winner``), or by the
other side of a forfeit (``Sanction``); a draw wins nobody anything; a table neither confirmed nor
forfeited is still in play. Reads only.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext as _

from scoring.models import Match
from tournaments.errors import TournamentError
from tournaments.models import PairingEntry, Round, Sanction, Stage, Tournament
from tournaments.pairing import knockout
from tournaments.pairing.knockout import Bracket, Game

COUNTED = (Round.Status.PUBLISHED, Round.Status.FINISHED)


def final_stage(tournament: Tournament) -> Stage | None:
    """The final stage (a knock-out, or a round robin of the groups' best), if any."""
    return tournament.stages.filter(number=2).first()


def final_rounds(stage: Stage) -> int:
    """How many rounds a final round robin of the stage's seeds takes."""
    n = len(stage.seeds)
    return n - 1 + n % 2


def final_over(stage: Stage) -> bool:
    """The final stage has nothing more to pair: the bracket is over, or every round of the
    final round robin is paired."""
    if stage.kind == Stage.Kind.KNOCKOUT:
        return load(stage, statuses=(Round.Status.FINISHED,)).finished
    return stage.rounds.count() >= final_rounds(stage)


def games(stage: Stage, statuses: Iterable[str] = COUNTED, before: int | None = None) -> list[Game]:
    """Every table of the stage's rounds in ``statuses`` (and numbered below ``before``)."""
    places = PairingEntry.objects.filter(round__stage=stage, round__status__in=list(statuses),
                                         pairing__table__isnull=False)  # fmt: skip
    if before is not None:
        places = places.filter(round__number__lt=before)
    rows = places.order_by("round__number", "pairing__table", "side").values_list(
        "round__number", "pairing_id", "entry_id", "side", "pairing__match__status",
        "pairing__match__winner",
    )  # fmt: skip
    offenders: dict[int, set[int]] = {}
    for pairing_id, entry_id in Sanction.objects.filter(
        kind=Sanction.Kind.FORFEIT, revoked_at__isnull=True, pairing__round__stage=stage
    ).values_list("pairing_id", "entry_id"):
        offenders.setdefault(pairing_id, set()).add(entry_id)
    tables: dict[int, dict[str, object]] = {}
    for number, pairing_id, entry_id, side, status, winner in rows:
        table = tables.setdefault(pairing_id, {"round": number, "sides": {}, "status": status,
                                               "winner": winner})  # fmt: skip
        table["sides"][side] = entry_id  # type: ignore[index]
    out = []
    for pairing_id, table in tables.items():
        sides: dict[str, int] = table["sides"]  # type: ignore[assignment]
        if len(sides) != 2:
            continue  # a knock-out table has two sides; anything else is no game of a tie
        (a_side, a), (_b_side, b) = sorted(sides.items(), key=lambda s: s[0] not in ("NS", "N"))
        lost = offenders.get(pairing_id, set())
        if lost:
            winner = next((e for e in (a, b) if e not in lost), None)
            out.append(Game(int(table["round"]), a, b, winner))  # type: ignore[call-overload]
        elif table["status"] == Match.Status.CONFIRMED:
            won = table["winner"]
            winner = sides.get(str(won)) if won in sides else None
            out.append(Game(int(table["round"]), a, b, winner))  # type: ignore[call-overload]
        else:
            out.append(Game(int(table["round"]), a, b, None, done=False))  # type: ignore[call-overload]
    return out


def load(stage: Stage, statuses: Iterable[str] = COUNTED, before: int | None = None) -> Bracket:
    """The bracket after the stage's games (a started stage; its frozen seeds)."""
    try:
        return knockout.bracket(stage.seeds, stage.qualifiers, stage.best_of, stage.third_place,
                                games(stage, statuses, before))  # fmt: skip
    except ValueError as err:
        # only a table changed by hand against the bracket gets here (a swap is refused)
        raise TournamentError.one("bad_bracket", _("The knock-out bracket cannot be read: "
                                                   "%(why)s.") % {"why": err}) from err


def level_name(br: Bracket, level: int) -> str:
    """The level's name by how many levels are left after it."""
    left = br.depth - level
    if left == 0:
        return _("Final")
    if left == 1:
        return _("Semi-finals")
    if left == 2:
        return _("Quarter-finals")
    return _("Round of 16")  # the largest bracket has 16 lines
