"""What the club games' verdicts say beyond amounts, in words (RULES.md sections 29–30, 34).

    TITLES                                  each title a side can earn, by the engine's name
    deal_notes(preset, verdict) -> [str]    «Сопливый козёл: С–Ю», «палка: В (2-я)», «В выбывает»
    outcome_lines(preset, outcome) -> [str] the match's titles, players out, lost deals
    units(preset) -> str                    what the totals count when they are not points

The engine (``rules.club``) names titles and ends by identifiers; the referee's verdict, the
protocol rows, the print page and the public pages read these words from here, once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.labels import side_label

#: every title of section 29, by the engine's identifier
TITLES: dict[str, Any] = {
    "kozel": gettext_lazy("«Козёл»"),
    "soplivy": gettext_lazy("«Сопливый козёл»"),
    "admiral": gettext_lazy("«Адмирал»"),
    "vneocherednoy": gettext_lazy("«Внеочередной козёл»"),
    "podvesnoy": gettext_lazy("«Подвесной козёл»"),
    "general": gettext_lazy("«Генерал»"),
    "golyi": gettext_lazy("«Голый»"),
}


def title_name(title: str) -> str:
    name = TITLES.get(title)
    return str(name) if name is not None else title


def units(preset: str) -> str:
    """What a club game's totals count when they are not points: sticks (``semerka``),
    generals (``general``); "" for points."""
    if preset == "semerka":
        return _("sticks")
    if preset == "general":
        return _("generals")
    return ""


def deal_notes(preset: str, verdict: Mapping[str, Any]) -> list[str]:
    """What the deal decided beyond its amounts, in words: the titles it gave, a stick and
    its number, a player out, the side that lost a «Генерал» deal, a void deal."""
    if not verdict.get("ok", True):
        return []
    notes = [f"{title_name(t.get('title', ''))}: {side_label(str(t.get('side', '')))}"
             for t in verdict.get("titles") or ()]
    totals = verdict.get("totals") or {}
    if preset == "semerka":
        for side, amount in (verdict.get("recorded") or {}).items():
            if amount:
                notes.append(_("stick: %(side)s (no. %(n)s)")
                             % {"side": side_label(side), "n": totals.get(side, 0)})
        notes += [_("%(side)s is out") % {"side": side_label(side)}
                  for side in verdict.get("out") or ()]
    if preset == "general" and verdict.get("loser") and not verdict.get("titles"):
        notes.append(_("lost the deal: %(side)s") % {"side": side_label(verdict["loser"])})
    if verdict.get("void"):
        notes.append(_("the deal does not count"))
    return notes


def outcome_lines(preset: str, outcome: Mapping[str, Any] | None) -> list[str]:
    """The match's result beyond the totals (``Match.outcome``), a line each: the titles
    earned, the players out in order, the deals each side lost."""
    if not outcome:
        return []
    lines = []
    titles = outcome.get("titles") or ()
    if titles:
        lines.append(_("Titles: %(list)s") % {"list": ", ".join(
            f"{side_label(str(t.get('side', '')))} — {title_name(str(t.get('title', '')))}"
            + (f" ({_('deal %(n)s') % {'n': t['deal']}})" if t.get("deal") else "")
            for t in titles)})
    out = outcome.get("out") or ()
    if out:
        lines.append(_("Out, in order: %(list)s") % {"list": ", ".join(
            side_label(s) for s in out)})
    losses = outcome.get("losses") or {}
    if preset == "general" and any(losses.values()):
        lines.append(_("Deals lost: %(list)s") % {"list": " · ".join(
            f"{side_label(side)} {n}" for side, n in losses.items())})
    return lines
