"""What an archive claims about results, checked before anything is written: nothing of it is
taken on trust.

    check_protocol(problems, item, fields, deals, where, judges) -> verdicts
        the match's deals judged again by the rules engine; its stored result must be the
        engine's fold of them. A match without deals has no result: it must be a draft or in
        play with an empty score (``unproven_result`` otherwise), since only a protocol's deals
        make a result here.
    check_finished_rounds(problems, plan)
        a finished round's every table is confirmed or forfeited, as ``rounds.finish_round``
        demands (``round_open`` otherwise).

The standings snapshots of an archive are not read from it: the importer retakes them from the
imported results (``results.take_snapshot``). ``problems`` is the reader collecting problems.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Protocol

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from config.inputs import quoted
from rules import RulesError
from scoring.games import AnyJudge, deal_keys, judge_for, make_match_rules
from scoring.models import Match
from scoring.services.state import club_outcome
from tournaments.models import Round, Sanction

#: statuses that say the protocol's result is final (and is counted in the standings)
HANDED_IN = (Match.Status.SUBMITTED, Match.Status.CONFIRMED)


class Problems(Protocol):
    def problem(self, code: str, message: Any, field: str | None = None) -> None: ...


def language() -> str:
    return "en" if (get_language() or "ru").startswith("en") else "ru"


def rules_message(err: RulesError) -> str:
    return err.problem.message(language())


def match_name(item: Mapping[str, Any]) -> str:
    label = item.get("label") or f"#{item.get('id')}"
    return quoted(label) + (f" ({_('table')} {item['table']})" if item.get("table") else "")


def _judge(problems: Problems, item: Mapping[str, Any], fields: Mapping[str, Any], where: str,
           judges: dict[str, AnyJudge]) -> AnyJudge | None:  # fmt: skip
    stored = dict(fields["rules"]) if isinstance(fields.get("rules"), Mapping) else None
    if stored is None:
        problems.problem("bad_value", _("The rules of a match must be an object."),
                         f"{where}.rules")  # fmt: skip
        return None
    key = json.dumps([fields.get("rules_preset"), stored], sort_keys=True, default=str)
    judge = judges.get(key)
    if judge is None:
        try:
            preset = stored.pop("preset", fields.get("rules_preset"))
            # either game's judge (``scoring.games``): a fives match is judged as it was played
            judge = judges[key] = judge_for(make_match_rules(preset, stored))
        except RulesError as err:
            problems.problem("bad_rules", _("Match %(match)s: %(problem)s")
                             % {"match": match_name(item), "problem": rules_message(err)},
                             f"{where}.rules")  # fmt: skip
            return None
    return judge


def _check_no_result(problems: Problems, judge: AnyJudge, item: Mapping[str, Any],
                     fields: dict[str, Any], where: str) -> None:  # fmt: skip
    """A match without deals: not handed in, and nothing scored."""
    sides = set(judge.sides)
    totals, won = fields.get("totals"), item.get("deals_won", {})
    if not (isinstance(totals, Mapping) and set(totals) <= sides
            and all(isinstance(v, int) and not isinstance(v, bool) for v in totals.values())
            and fields.get("winner") in (*sides, "draw", "")
            and isinstance(won, Mapping) and set(won) <= sides):  # fmt: skip
        problems.problem("bad_value", _("Match %(match)s: its result is not one of the rules' "
                                        "sides.") % {"match": match_name(item)},
                         f"{where}.totals")  # fmt: skip
        return
    fields["deals_won"] = {}
    start = judge.start()
    if fields.get("result_only") is True and fields.get("status") in HANDED_IN:
        # a final score typed at the desk without deals (``rounds.result_only``): it stands as
        # the desk typed it, and stays marked so wherever it is shown
        return
    if fields.get("status") in HANDED_IN:
        claimed = "status"
    else:
        empty = {"totals": not any(totals.values()), "winner": not fields.get("winner"),
                 "finished": not fields.get("finished"), "end": not fields.get("end"),
                 "unclaimed_eggs": not fields.get("unclaimed_eggs"), "deals_won": not any(
                     won.values()),
                 "next_leader": fields.get("next_leader") in ("", start.leader or "")}
        claimed = next((name for name, ok in empty.items() if not ok), "")
    if claimed:
        value = item.get(claimed)
        problems.problem(
            "unproven_result",
            _("Match %(match)s has no deals, so it has no result here: a match without deals is "
              "imported only as a draft or in play with an empty score (the archive says "
              "%(field)s «%(value)s»).")
            % {"match": match_name(item), "field": claimed,
               "value": value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)},
            f"{where}.{claimed}",
        )  # fmt: skip


def check_protocol(problems: Problems, item: Mapping[str, Any], fields: dict[str, Any],
                   deals: list[dict[str, Any]], where: str,
                   judges: dict[str, AnyJudge]) -> list[dict[str, Any]]:  # fmt: skip
    """Judge the match's deals again; return the engine's verdicts (one per deal)."""
    judge = _judge(problems, item, fields, where, judges)
    if judge is None:
        return []
    numbers = [d.get("n") for d in deals]
    if numbers != list(range(1, len(deals) + 1)):
        problems.problem("bad_value",
                         _("Match %(match)s: deals must be numbered 1, 2, 3 … in order.")
                         % {"match": match_name(item)}, f"{where}.deals")  # fmt: skip
        return []
    if not deals:
        _check_no_result(problems, judge, item, fields, where)
        return []
    state: Any = judge.start()
    verdicts = []
    won: dict[str, int] = {}
    keys = deal_keys(judge.rules)
    for i, deal in enumerate(deals):
        record = deal.get("record")
        if isinstance(record, Mapping) and not set(record) <= keys:
            # the protocol stores only the contract's keys (scoring refuses any other)
            problems.problem("bad_value", _("Match %(match)s, deal %(n)s: a deal has only the "
                                            "fields %(known)s.")
                             % {"match": match_name(item), "n": i + 1,
                                "known": ", ".join(sorted(keys))},
                             f"{where}.deals[{i}].record")  # fmt: skip
            return []
        verdict = judge.judge(state, record)
        if not verdict.ok:
            problem = verdict.errors[0]
            problems.problem("illegal_deal", _("Match %(match)s, deal %(n)s: %(problem)s")
                             % {"match": match_name(item), "n": i + 1,
                                "problem": problem.message(language())},
                             f"{where}.deals[{i}].record")  # fmt: skip
            return []
        verdicts.append(verdict.to_dict())
        if verdict.winner:
            won[verdict.winner] = won.get(verdict.winner, 0) + 1
    fields["deals_won"] = won
    fold = {
        "totals": dict(state.totals), "finished": state.finished, "end": state.end or "",
        "winner": state.winner or "", "unclaimed_eggs": state.eggs,
        "next_leader": state.leader or "",
    }  # fmt: skip
    if "deals_won" in item:
        fold["deals_won"] = won
    differing = [name for name, value in fold.items() if item.get(name) != value]
    if differing:
        problems.problem("totals_mismatch",
                         _("Match %(match)s: %(fields)s differ from the engine's count of its "
                           "deals.") % {"match": match_name(item), "fields": ", ".join(differing)},
                         f"{where}.{differing[0]}")  # fmt: skip
    # a club game's losers, titles, sticks and players out: the engine's, never the file's
    fields["outcome"] = club_outcome(judge.rules.preset, state)
    return verdicts


def check_finished_rounds(problems: Problems, plan: Any) -> None:
    """Every table of a finished round is confirmed, or an active forfeit decides it."""
    status = {match_id: fields.get("status") for match_id, fields in plan.rows["matches"]}
    forfeited = {fields.get("pairing") for _id, fields in plan.rows["sanctions"]
                 if fields.get("kind") == Sanction.Kind.FORFEIT
                 and fields.get("revoked_at") is None}  # fmt: skip
    open_tables: dict[Any, list[int]] = {}
    for pairing_id, fields in plan.rows["pairings"]:
        if fields.get("table") is None or pairing_id in forfeited:
            continue
        if status.get(fields.get("match")) != Match.Status.CONFIRMED:
            open_tables.setdefault(fields.get("round"), []).append(fields["table"])
    for i, (round_id, fields) in enumerate(plan.rows["rounds"]):
        tables = open_tables.get(round_id)
        if fields.get("status") == Round.Status.FINISHED and tables:
            problems.problem("round_open",
                             _("Round %(n)s is finished in the archive, but tables %(tables)s "
                               "are not confirmed.")
                             % {"n": fields.get("number"),
                                "tables": ", ".join(map(str, sorted(tables)))},
                             f"rounds[{i}].status")  # fmt: skip
