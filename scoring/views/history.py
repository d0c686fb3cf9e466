"""The history of a match's versions, each change as people read it: who, when, why, and what it
did — the deal recorded, amended or deleted with what it wrote; for a correction, the deals that
differ, the totals and the result before → after (``scoring.changes``). No raw data on the page
(the API's ``history/`` keeps the records).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from accounts.people import person
from scoring import selectors
from scoring.changes import Comparison, compare, deal_text
from scoring.games import AnyRules
from scoring.models import Match, MatchVersion
from scoring.sheet import side_label
from scoring.views.match_view import MatchView

Action = MatchVersion.Action


@dataclass
class Entry:
    row: MatchVersion
    #: what the change did, a sentence each
    lines: list[str] = field(default_factory=list)
    #: a correction: the protocol after it beside the one before
    cmp: Comparison | None = None


class HistoryView(MatchView):
    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        rows = list(selectors.history(self.match.pk))
        rules = self.match.get_rules()
        names = _names(rows)
        entries = [describe(row, rules, names) for row in rows]
        return render(request, "scoring/history.html", self.context(entries=entries))


def describe(row: MatchVersion, rules: AnyRules, names: dict[str, dict[Any, str]]) -> Entry:
    seats = list(rules.seats)
    before, after = row.before or {}, row.after or {}
    entry = Entry(row)
    if row.action in (Action.RECORD_DEAL, Action.AMEND_DEAL, Action.DELETE_DEAL):
        deal = before if row.action == Action.DELETE_DEAL else after
        n = deal.get("n", "?")
        text = _deal_line(deal, seats)
        if row.action == Action.RECORD_DEAL:
            entry.lines.append(_("Deal %(n)s: %(deal)s.") % {"n": n, "deal": text})
        elif row.action == Action.DELETE_DEAL:
            entry.lines.append(_("Deal %(n)s taken out: %(deal)s.") % {"n": n, "deal": text})
        else:
            entry.lines.append(_("Deal %(n)s was: %(deal)s.")
                               % {"n": n, "deal": _deal_line(before, seats)})
            entry.lines.append(_("Deal %(n)s now: %(deal)s.") % {"n": n, "deal": text})
    elif row.action == Action.CORRECT:
        entry.cmp = compare(rules, after.get("deals") or [], before.get("deals") or [])
    elif row.action == Action.CONFIRM:
        entry.lines.append(_("Confirmed with the opposing captain's PIN.") if after.get("with_pin")
                           else _("Confirmed at the desk."))
    elif row.action in (Action.CREATE, Action.REASSIGN):
        entry.lines += _seating(before, after, names)
    return entry


def _deal_line(deal: dict[str, Any], seats: list[str]) -> str:
    """«domino E · N 6:0 1:1 · S 0:0 — written E–W +33»."""
    record, verdict = deal.get("record") or {}, deal.get("verdict") or {}
    text = deal_text(record, seats)
    written = [f"{side_label(s)} +{a}" for s, a in (verdict.get("recorded") or {}).items() if a]
    if written:
        text += " — " + _("written %(amounts)s") % {"amounts": ", ".join(written)}
    return text


def _seating(before: dict[str, Any], after: dict[str, Any],
             names: dict[str, dict[Any, str]]) -> list[str]:
    lines = []
    seats_after = after.get("seats") or {}
    seats_before = before.get("seats") or {}
    changed = [s for s, p in seats_after.items() if p is not None or s in seats_before]
    if changed and (seats_before or any(seats_after.values())):
        parts = []
        for seat in changed:
            now = names["players"].get(seats_after.get(seat), "—")
            if seats_before:
                parts.append(f"{seat}: {names['players'].get(seats_before.get(seat), '—')} → {now}")
            else:
                parts.append(f"{seat}: {now}")
        lines.append(_("Seats") + ": " + "; ".join(parts))
    if "referee" in after:
        now = names["users"].get(after["referee"], "—")
        if "referee" in before:
            was = names["users"].get(before["referee"], "—")
            lines.append(_("Referee") + f": {was} → {now}")
        else:
            lines.append(_("Referee") + f": {now}")
    return lines


def _names(rows: list[MatchVersion]) -> dict[str, dict[Any, str]]:
    """The players and referees the seating changes name, in two queries."""
    players: set[Any] = set()
    users: set[Any] = set()
    for row in rows:
        if row.action in (Action.CREATE, Action.REASSIGN):
            for part in (row.before or {}, row.after or {}):
                players.update(v for v in (part.get("seats") or {}).values() if v)
                if part.get("referee"):
                    users.add(part["referee"])
    player_model = Match._meta.get_field("seat_n").related_model
    return {
        "players": {p.pk: str(p) for p in player_model._default_manager.filter(pk__in=players)},
        "users": {u.pk: person(u) for u in get_user_model().objects.filter(pk__in=users)},
    }
