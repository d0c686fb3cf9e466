"""Pure standings: games, settings and sanctions in, ranked rows out. No Django, no database.

The Django side (snapshots per round, public pages, exports, API) loads confirmed matches, byes,
forfeits and sanctions once, turns them into ``Game``/``Sanction``/``Settings`` and calls

    standings(participants, games, settings, sanctions=(), upto_round=None) -> list[Row]

``incremental.Kept`` keeps the figures of every participant between changes and recomputes
only those a change touches; its rows equal ``standings`` of the same input.

Each played match appears twice in ``games``, once from each side; every unplayed round is one
``Game`` with ``played=False`` and a ``kind``. Ranks are 1..n and never shared.

Decisions on FIDE's tie-break regulations (C.07, 2024) and the domino federation rules
------------------------------------------------------------------------------------
Score. A round scores the match points of its ``result`` (win/draw/loss as ``Settings`` says),
except a pairing-allocated bye, which scores ``Settings.bye_result`` (a win by default).
Sanctions deduct match points in their round: from the score, the progressive score and the
score the participant shows to its opponents' Buchholz.

Number of wins ("wins") is C.07's WIN: rounds scored as a win, with or without playing (byes
scored as wins and forfeit wins included). ``Row.games_won`` is WON: wins over the table.

Voluntary unplayed rounds (VUR) are the kinds ``absent`` (requested absence, chose not to play),
``forfeit_loss`` and ``withdrawn`` (every round after withdrawing). A pairing-allocated ``bye``
and a ``forfeit_win`` are not voluntary.

Own unplayed rounds (Buchholz family and Sonneborn-Berger). Each unplayed round of the
participant counts as a game against a dummy opponent whose score is the participant's own
score (its match points after sanctions, in the rounds counted), C.07 art. 16 "dummy opponent".

Opponents' unplayed rounds (C.07 art. 16). When an opponent's score is used, its unplayed
rounds after its last played game (or pairing-allocated bye, or forfeit win) count as draws,
whatever the reason and whatever its status (withdrawn or not) — except a forfeit, won or lost:
the opponent was paired that round (16.2.5 is about rounds without an opponent), so its score
stands. Its earlier unplayed rounds count as they scored. This is how FIDE's tie-break
exercises, Vega, Swiss-Manager and FIDE's TieBreakServer compute it (a forfeit loss at the end
read as a draw made 19 published Buchholz and Sonneborn-Berger values ½ or 1 point too high).

Cut-1 drops the least significant contribution, but if the participant has VURs the lowest VUR
contribution is dropped first, whatever its value. Median Buchholz drops that same contribution
and then the highest remaining one.

Sonneborn-Berger sums each opponent's (adjusted) score times the share of a win the round
scored: 1 for a win, draw/win for a draw (1/2 with 2/1/0), 0 for a loss. Unplayed rounds use
the dummy opponent with the round's scored result (a bye scored as a win adds the own score).

Progressive score sums the cumulative score after each round 1..last round (sanctions at their
round), C.07's PS without modifiers.

Head-to-head (C.07 "direct encounter", ``ranking.direct_encounter``): applied to each group
still tied on every earlier criterion. When every two members have met, the match points they
scored in those games order them (a repeated encounter counts its mean), and it is applied again
within each sub-group left tied. When some have not met, a member is ranked above the others
only while its points exceed what each of them could still reach by winning its unplayed
encounters in the group; the others are not separated by it. ``Row.head_to_head`` is the number
of the tied participants that the direct encounter ranks below the row (0 when it separates
nobody).

Efectividad (see ``metrics.game_efectividad``), ``Settings.efectividad``: "capped" (target
reached: the winner gets T minus the loser's points and the loser the negative of that, both
capped at T; in the fives games both may pass it: then 0; time or a fixed number of deals ended
it: plus or minus the difference) or "plain" (points for minus points against, every game).
Either way a forfeit gives -T to the offender and +T/2 to the other side, a bye +T/2 (the shares
of T are settings), requested absence and rounds after withdrawing 0. Without a target
(``Settings.target is None``) a played game gives its difference and unplayed rounds 0.

Lot: a permutation of the participants shuffled by ``random.Random(seed)`` over their sorted
ids; it is always the last criterion, appended when the order lacks it, so ranks never tie.
Every criterion sorts higher values first.
"""

from .metrics import game_efectividad
from .ranking import direct_encounter, lot, standings
from .types import (
    INTERNATIONAL_ORDER,
    SPORTS_ORDER,
    TIEBREAKS,
    VOLUNTARY,
    Game,
    Row,
    Sanction,
    Settings,
)

__all__ = [
    "INTERNATIONAL_ORDER",
    "SPORTS_ORDER",
    "TIEBREAKS",
    "VOLUNTARY",
    "Game",
    "Row",
    "Sanction",
    "Settings",
    "game_efectividad",
    "direct_encounter",
    "lot",
    "standings",
]
