"""A table's final score typed at the desk without deals, where the tournament allows it.

    record_result(user, pairing_id, scores, reason="") -> Match

Some clubs keep only the match score on paper. With ``Tournament.result_only_tables`` on, the
desk (the tournament's chief referees and organisers) types each side's total: the match is
confirmed with that score and ``Match.result_only``, which every page, print and export marks
«итог без раздач»; it counts in the standings like any confirmed table. The winner is the side
the rules make win with that score (the lower one where the losers write their own pips). A
table with deals, or one already handed in, is refused: its protocol decides. Audited twice, as
a protocol change (the match's history) and as a tournament change (its audit log).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import audit
from scoring.models import Match, MatchVersion
from tournaments.access import User, can_judge, can_manage
from tournaments.errors import Conflict, NotAllowed, TournamentError
from tournaments.models import Pairing

#: a match score above this is a typing error (a sports-domino match ends near 101-365)
MOST = 10_000


def _winner(match: Match, scores: Mapping[str, int]) -> str:
    (a, x), (b, y) = scores.items()
    if x == y:
        return "draw"
    low_wins = match.get_rules().scoring == "losers_record_own"
    return a if (x > y) != low_wins else b


def record_result(user: User, pairing_id: int, scores: Mapping[str, Any],
                  reason: str = "") -> Match:  # fmt: skip
    with transaction.atomic():
        pairing = (Pairing.objects.select_for_update(of=("self",))
                   .select_related("round__tournament").get(pk=pairing_id))  # fmt: skip
        tournament = pairing.round.tournament
        if not (can_judge(user, tournament) or can_manage(user, tournament)):
            raise NotAllowed.one("not_allowed", _(
                "Only the tournament's chief referees and organisers type a final score."))
        if not tournament.result_only_tables:
            raise Conflict.one("result_only_off", _(
                "This tournament records every table deal by deal: a final score without deals "
                "is allowed only where the setup says so."), "scores")  # fmt: skip
        if pairing.match_id is None:
            raise TournamentError.one("bye", _("A bye has no table to score."), "table")
        match = Match.objects.select_for_update().get(pk=pairing.match_id)
        if match.deals.exists() or match.status not in (Match.Status.DRAFT,
                                                        Match.Status.IN_PLAY):  # fmt: skip
            raise Conflict.one("has_protocol", _(
                "Table %(t)s has a protocol of its own (deals or a handed-in result): correct "
                "that instead.") % {"t": pairing.table}, "scores")  # fmt: skip
        sides = list(match.get_rules().sides)
        if len(sides) != 2:
            raise TournamentError.one("sides", _(
                "A final score without deals is for tables of two sides."), "scores")
        cleaned: dict[str, int] = {}
        for side in sides:
            value = scores.get(side)
            try:
                number = int(str(value).strip())
            except (TypeError, ValueError):
                number = -1
            if not 0 <= number <= MOST:
                raise TournamentError.one("bad_score", _(
                    "Give each side's total as a whole number from 0 to %(most)s.")
                    % {"most": MOST}, side)  # fmt: skip
            cleaned[side] = number
        before = {"status": match.status, "totals": match.totals}
        match.totals = cleaned
        match.winner = _winner(match, cleaned)
        match.finished = True
        match.result_only = True
        match.status = Match.Status.CONFIRMED
        match.confirmed_by = user  # type: ignore[assignment]
        match.confirmed_at = timezone.now()
        match.version += 1
        match.save()
        after = {"status": match.status, "totals": cleaned, "winner": match.winner,
                 "result_only": True}  # fmt: skip
        MatchVersion.objects.create(
            match=match, version=match.version, action=MatchVersion.Action.CONFIRM,
            user=user, before=before, after=after, reason=(reason or "").strip(),
            protocol={"deals": [], **after}, confirmed=True,
        )  # fmt: skip
        audit.record(user, "pairing.result_only", pairing, tournament_id=tournament.pk,
                     before={"table": pairing.table, **before},
                     after={"table": pairing.table, **after})  # fmt: skip
    return match
