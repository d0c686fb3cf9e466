"""A match's protocol as the rules engine sees it: the engine's fold of the stored deals, the
cached totals written back on the match row, and deal records cleaned on the way in and shown on
the way out (in history rows and the confirmed protocol).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from config.inputs import BadJSON, check_json
from rules import DealVerdict, MatchState
from rules.club.types import ClubDealVerdict, ClubState
from rules.fives import FivesDealVerdict, FivesState
from scoring.errors import DealRefused, problem_item
from scoring.games import DEAL_KEYS, AnyJudge, AnyRules, deal_keys, deal_limit, judge_for
from scoring.models import Deal, Match


def _judge(match: Match) -> AnyJudge:
    """The judge of the match's game: ``rules.Judge``, or ``rules.fives.FivesJudge``."""
    return judge_for(match.get_rules())


def _records(match: Match, upto: int | None = None) -> list[dict[str, Any]]:
    queryset = match.deals.order_by("n")
    if upto is not None:
        queryset = queryset.filter(n__lte=upto)
    return [deal.record for deal in queryset]


def _state_after(judge: AnyJudge, records: Sequence[Any]) -> AnyState:
    return _fold(judge, records).state


AnyState = MatchState | FivesState | ClubState
AnyVerdict = DealVerdict | FivesDealVerdict | ClubDealVerdict


@dataclass
class _Fold:
    """The engine's state after some deals, and how many deals each side won."""

    state: AnyState
    won: dict[str, int] = field(default_factory=dict)

    def count(self, verdict: AnyVerdict) -> AnyVerdict:
        if verdict.ok and verdict.winner:
            self.won[verdict.winner] = self.won.get(verdict.winner, 0) + 1
        return verdict


def _fold(judge: AnyJudge, records: Sequence[Any]) -> _Fold:
    fold = _Fold(judge.start())
    for record in records:
        fold.count(judge.judge(fold.state, record))  # type: ignore[arg-type]
    return fold


def _apply_state(match: Match, state: AnyState, won: dict[str, int] | None = None) -> None:
    match.deals_won = dict(won or {})
    match.totals = dict(state.totals)
    match.finished = state.finished
    match.end = state.end or ""
    match.winner = state.winner or ""
    match.unclaimed_eggs = state.eggs
    match.next_leader = state.leader or ""
    match.outcome = club_outcome(match.rules.get("preset", match.rules_preset), state)


def club_outcome(preset: str, state: AnyState) -> dict[str, Any]:
    """What a club game's state says beyond the totals, as the contract's match object has it
    (RULES.md section 34): the losers, the titles, Генерал's lost deals, Семёрка's players out
    in order and the place each took at the table by it; {} for the other games."""
    if not isinstance(state, ClubState):
        return {}
    out: dict[str, Any] = {"losers": list(state.losers),
                           "titles": [dict(t) for t in state.titles]}
    if preset == "general":
        out["losses"] = dict(state.losses)
    if preset == "semerka":
        out["out"] = list(state.out)
        # ranked by when they went out: the last one left is 1st, the first out last
        count = len(state.totals)
        places = dict.fromkeys(state.totals, 1)
        places.update({seat: count - i for i, seat in enumerate(state.out)})
        out["places"] = places
    return out


#: what ``_apply_state`` and a deal's recording change on the match row
_STATE_FIELDS = ["deals_won", "totals", "finished", "end", "winner", "unclaimed_eggs",
                 "next_leader", "outcome", "status", "version", "updated_at"]  # fmt: skip


def _refused(verdict: AnyVerdict, prefix: str | None = None) -> DealRefused:
    return DealRefused([problem_item(p, prefix) for p in verdict.errors])


# ``DEAL_KEYS`` (imported above, exported by ``scoring.services``): the keys of a deal record
# (RULES.md sections 5 and 13); a fives match's are ``scoring.games.FIVES_DEAL_KEYS``.
#: keys a request may carry beside the record: they steer the write and are not stored
REQUEST_KEYS = frozenset({"client_id", "expected_version"})


def _clean_record(deal: Any, keys: frozenset[str] = DEAL_KEYS) -> dict[str, Any]:
    """The record to judge and store: only the contract's keys (``keys``, those of the match's
    game: ``scoring.games.deal_keys``; any other key is refused, so nothing unknown is ever
    stored), JSON of a sane depth without NUL (``config.inputs``)."""
    if not isinstance(deal, Mapping):
        raise DealRefused.one("bad_deal", _("A deal must be an object."), "deal")
    record = {k: v for k, v in deal.items() if k not in REQUEST_KEYS}
    unknown = sorted(str(k) for k in record if k not in keys)
    if unknown:
        name = unknown[0][:40].replace("\x00", "")
        raise DealRefused.one(
            "unknown_field",
            _("A deal has no field “%(name)s”; its fields are %(known)s.")
            % {"name": name, "known": ", ".join(sorted(keys))},
            name,
        )  # fmt: skip
    try:
        check_json(record)
    except BadJSON as err:
        raise DealRefused.one(err.code, err.message, "deal") from err
    return record


def clean_records(deals: Sequence[Any], keys: frozenset[str]) -> list[dict[str, Any]]:
    """Each deal of a whole protocol cleaned (``_clean_record``); a refusal names its deal."""
    records = []
    for i, deal in enumerate(deals):
        try:
            records.append(_clean_record(deal, keys))
        except DealRefused as err:
            raise DealRefused([
                {**item, "field": f"deals.{i}" + (f".{item['field']}" if item["field"] else ""),
                 "n": i + 1,
                 "message": _("Deal %(n)s: %(message)s") % {"n": i + 1, "message": item["message"]}}
                for item in err.errors
            ]) from err
    return records


def _game_record(match: Match, deal: Any) -> dict[str, Any]:
    """``deal`` cleaned as a record of the match's game (only that game's keys)."""
    return _clean_record(deal, deal_keys(match.get_rules()))


def _check_deal_count(rules: AnyRules, count: int, field: str | None = None) -> None:
    """Refuses a protocol of more deals than the rules allow (``scoring.games.deal_limit``)
    before judging any of them."""
    limit = deal_limit(rules)
    if count > limit:
        raise DealRefused.one(
            "too_many_deals",
            ngettext("A match holds at most %(limit)s deal under these rules.",
                     "A match holds at most %(limit)s deals under these rules.", limit)
            % {"limit": limit},
            field,
        )  # fmt: skip


def _deal_json(deal: Deal | None) -> dict[str, Any] | None:
    if deal is None:
        return None
    # The key stays in the history, so that a retry of a deleted deal is still recognised.
    client_id = str(deal.client_id) if deal.client_id else None
    return {"n": deal.n, "client_id": client_id, "record": deal.record, "verdict": deal.verdict}


def _protocol(match: Match) -> dict[str, Any]:
    return {
        "deals": _records(match),
        "totals": match.totals,
        "finished": match.finished,
        "end": match.end or None,
        "winner": match.winner or None,
    }
