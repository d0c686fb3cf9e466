"""Standings kept between changes: a change re-tallies only the participants it touches.

    kept = Kept(participants, games, settings, sanctions=(), upto_round=None)
    kept.update(games={participant: [its games], …}, sanctions=None) -> set[int]
        the games of these participants replaced (every round of theirs, in the order the full
        list has them); ``sanctions``, when given, replace every sanction; answers whose
        figures were computed again
    kept.rows() -> list[Row]        the same rows as ``standings`` of the same input

Why. A live table of 1,000 pairs after 9 rounds tallies 9,000 games and sums every
participant's opponents' scores (``ranking.standings``), though a confirmed protocol changes the
games of two participants. Their tallies change; so do the opponent-based figures (Buchholz,
cut-1, median, Sonneborn-Berger) of whoever met one of them, since those read the two's
adjusted score (C.07 art. 16, ``metrics.tally``), and of the two themselves; nobody else's
figures move. Those are computed again here, from the figures kept for everybody else. The
ranking itself (the tie-break refinement, head-to-head inside tied groups, the ranks) is redone
over everybody by ``ranking.ranked``: a line that moves shifts every rank it passes.

Exact, not approximate: the figures come from the same functions (``metrics.tally``,
``metrics.opponent_figures``) over the same per-participant lists in the same order (floats
summed in the same order) and the rows from ``ranking.ranked``, so ``rows()`` equals
``standings(...)`` of the same games, sanctions and settings; a property test holds them equal
over random sequences of confirmations, corrections, withdrawals, forfeits, byes and
sanctions. When the last round counted moves (every progressive score reads it) every tally is
computed again. Adding or removing participants is not an update: build a new ``Kept``.

No Django, no database (the bridge that keeps one per live table: ``results.live_state``).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping

from . import metrics, ranking
from .types import Game, Row, Sanction, Settings


class Kept:
    """The figures of every participant of one table, and the games they come from."""

    def __init__(
        self,
        participants: Iterable[int],
        games: Iterable[Game],
        settings: Settings,
        sanctions: Iterable[Sanction] = (),
        upto_round: int | None = None,
    ) -> None:
        self.settings = settings
        self.upto_round = upto_round
        self.ids = list(dict.fromkeys(participants))
        self.known = set(self.ids)
        grouped, self.last_round = ranking.grouped(self.known, games, upto_round)
        self.games_of: dict[int, list[Game]] = {pid: grouped.get(pid, []) for pid in self.ids}
        self.deductions, self.game_points = ranking.deducted(self.known, sanctions, upto_round)
        self.lots = ranking.lot(self.ids, settings.seed)
        #: how many counted games each round has (the last round counted, when not fixed)
        self.per_round: Counter[int] = Counter()
        #: participant -> the participants whose games name it as an opponent
        self.faced_by: defaultdict[int, set[int]] = defaultdict(set)
        for pid, own in self.games_of.items():
            self._index(pid, own, 1)
        self.totals: dict[int, metrics.Totals] = {}
        self.adjusted: dict[int, int] = {}
        self.opponent: dict[int, tuple[float, float, float, float]] = {}
        self._tally(self.ids)
        self._figures(self.ids)
        self._rows: list[Row] | None = None

    def _index(self, pid: int, games: list[Game], step: int) -> None:
        for game in games:
            self.per_round[game.round] += step
            for other in game.faced():
                if step > 0:
                    self.faced_by[other].add(pid)
                else:
                    self.faced_by[other].discard(pid)

    def _tally(self, pids: Iterable[int]) -> None:
        settings, last = self.settings, self.last_round
        for pid in pids:
            self.totals[pid], self.adjusted[pid] = metrics.tally(
                self.games_of[pid], settings, self.deductions.get(pid, {}), last,
                self.game_points.get(pid, 0),
            )  # fmt: skip

    def _figures(self, pids: Iterable[int]) -> None:
        settings, adjusted = self.settings, self.adjusted
        for pid in pids:
            self.opponent[pid] = metrics.opponent_figures(
                self.games_of[pid], settings, self.totals[pid].match_points, adjusted
            )

    def _counted(self, pid: int, games: Iterable[Game]) -> list[Game]:
        """``games`` of the rounds counted, checked as ``ranking.grouped`` checks them."""
        if pid not in self.known:
            raise ValueError(f"games of unknown participants: [{pid}]")
        upto = self.upto_round
        counted = [g for g in games if upto is None or g.round <= upto]
        for game in counted:
            named = {game.participant, *game.faced()}
            if game.participant != pid or not named <= self.known:
                raise ValueError(f"games of unknown participants: {sorted(named - {pid})}")
        return counted

    def update(
        self,
        games: Mapping[int, Iterable[Game]] | None = None,
        sanctions: Iterable[Sanction] | None = None,
    ) -> set[int]:
        """Replace the games of the participants in ``games`` (and every sanction, when
        ``sanctions`` is given); compute again the figures that depend on them. Returns the
        participants whose figures were computed again (everybody when the last round counted
        moved)."""
        changed: dict[int, list[Game]] = {}
        for pid, own in (games or {}).items():
            counted = self._counted(pid, own)
            if counted != self.games_of[pid]:
                changed[pid] = counted
        retally = set(changed)
        if sanctions is not None:
            deductions, game_points = ranking.deducted(self.known, sanctions, self.upto_round)
            for pid in self.deductions.keys() | deductions.keys():
                if self.deductions.get(pid) != deductions.get(pid):
                    retally.add(pid)
            for pid in self.game_points.keys() | game_points.keys():
                if self.game_points.get(pid, 0) != game_points.get(pid, 0):
                    retally.add(pid)
            self.deductions, self.game_points = deductions, game_points
        if not retally:
            return set()
        self._rows = None
        for pid, counted in changed.items():
            self._index(pid, self.games_of[pid], -1)
            self.games_of[pid] = counted
            self._index(pid, counted, 1)
        last = max((number for number, count in self.per_round.items() if count > 0), default=0)
        if self.upto_round is not None:
            last = max(last, self.upto_round)
        if last != self.last_round:  # every progressive score reads it
            self.last_round = last
            self._tally(self.ids)
            self._figures(self.ids)
            return set(self.ids)
        before = {pid: (self.totals[pid].match_points, self.adjusted[pid]) for pid in retally}
        self._tally(retally)
        again = set(changed)
        for pid in retally:
            score, seen = before[pid]
            if self.totals[pid].match_points != score:  # its unplayed rounds' dummy opponent
                again.add(pid)
            if self.adjusted[pid] != seen:  # what its opponents' figures read
                again.update(self.faced_by.get(pid, ()))
        self._figures(again)
        return retally | again

    def rows(self) -> list[Row]:
        """The ranked rows (computed once per change)."""
        if self._rows is None:
            self._rows = ranking.ranked(self.ids, self.games_of, self.settings, self.totals,
                                        self.opponent, self.lots, self.deductions,
                                        self.game_points)  # fmt: skip
        return self._rows
