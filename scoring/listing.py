"""The list of matches (``/matches/``): those the user referees or oversees, grouped by event
(the match's label: a tournament's name, «Товарищеская») and round. The event played last comes
first, and in each event its current round; the rounds before it are folded into links (the
chief's flat list of every match was 9,762 px tall on a phone). Filters narrow it by event,
round, status and «my tables»; with a filter every matching round is shown.

    Filters.read(query) -> Filters        the page's query string, anything unknown ignored
    listing(user, filters) -> Listing     two queries whatever the number of matches: the
                                          rounds counted by status, and the matches shown

Reads only (``scoring.services`` decides who oversees what); nothing here knows tournaments:
the label and the round number stored on each match are enough to group it.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field
from functools import reduce
from operator import or_
from typing import Any
from urllib.parse import urlencode

from django.db.models import Count, Max, Q
from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.models import Match
from scoring.services import overseen_matches

#: at most this many matches on one page; a filter narrows the rest
MAX_SHOWN = 200
#: what a round's summary counts, in the order said
COUNTED = (Match.Status.SUBMITTED, Match.Status.IN_PLAY, Match.Status.DRAFT)


@dataclass(frozen=True)
class Filters:
    event: str = ""
    round: int | None = None
    status: str = ""
    mine: bool = False

    @classmethod
    def read(cls, query: QueryDict) -> Filters:
        number = query.get("round", "")
        status = query.get("status", "")
        return cls(
            event=query.get("event", "")[:200],
            round=int(number) if number.isdigit() and len(number) < 6 else None,
            status=status if status in Match.Status.values else "",
            mine=query.get("mine") == "1",
        )  # fmt: skip

    @property
    def narrowed(self) -> bool:
        """A filter of the matches themselves (not «my tables»): every matching round shown."""
        return bool(self.event or self.round is not None or self.status)

    def query(self, **changes: Any) -> str:
        """The query string of these filters with ``changes`` (a folded round's link)."""
        values = {"event": self.event, "round": self.round, "status": self.status,
                  "mine": "1" if self.mine else "", **changes}  # fmt: skip
        return urlencode({k: v for k, v in values.items() if v not in ("", None)})


@dataclass
class Group:
    """One round of one event (``round`` None: matches of no round), counted by status."""

    label: str
    round: int | None
    counts: dict[str, int] = field(default_factory=dict)
    latest: dt.datetime | None = None
    #: the matches shown, by table; None: the round is folded into a link
    matches: list[Match] | None = None
    link: str = ""

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def waiting(self) -> int:
        return self.counts.get(Match.Status.SUBMITTED, 0)

    @property
    def open_work(self) -> bool:
        return self.total > self.counts.get(Match.Status.CONFIRMED, 0)

    def summary(self) -> str:
        """«12 матчей · 1 ждёт подтверждения · 3 идут», in the page's language."""
        parts = [ngettext("%(n)s match", "%(n)s matches", self.total) % {"n": self.total}]
        said = {
            Match.Status.SUBMITTED: lambda n: ngettext(
                "%(n)s waits for confirmation", "%(n)s wait for confirmation", n),
            Match.Status.IN_PLAY: lambda n: ngettext("%(n)s in play", "%(n)s in play", n),
            Match.Status.DRAFT: lambda n: ngettext("%(n)s not started", "%(n)s not started", n),
        }  # fmt: skip
        for status in COUNTED:
            if self.counts.get(status):
                parts.append(said[status](self.counts[status]) % {"n": self.counts[status]})
        if self.total and self.counts.get(Match.Status.CONFIRMED) == self.total:
            parts.append(_("all confirmed"))
        return " · ".join(parts)


@dataclass
class Event:
    label: str
    groups: list[Group] = field(default_factory=list)

    @property
    def shown(self) -> list[Group]:
        return [g for g in self.groups if g.matches is not None]

    @property
    def folded(self) -> list[Group]:
        return [g for g in self.groups if g.matches is None]


@dataclass
class Listing:
    filters: Filters
    events: list[Event]
    #: the choices of the filters: every event and round the user has matches in
    labels: list[str]
    rounds: list[int]
    capped: bool = False

    @property
    def empty(self) -> bool:
        return not self.events


#: the sides of a score in the order the sheet says them (the stored totals come in any order)
SIDES = ("NS", "EW", "N", "E", "S", "W")


def score(match: Match) -> str:
    """«NS 142 : EW 85»."""
    totals = match.totals or {}
    order = [side for side in SIDES if side in totals] + sorted(set(totals) - set(SIDES))
    return " : ".join(f"{side} {totals[side]}" for side in order)


def _table_order(match: Match) -> tuple[int, int, str, int]:
    table = match.table or ""
    return (0, int(table), "", match.pk) if table.isdigit() else (1, 0, table, match.pk)


def _groups(rows: list[dict[str, Any]], filters: Filters) -> list[Event]:
    found: dict[tuple[str, int | None], Group] = {}
    for row in rows:
        if filters.event and row["label"] != filters.event:
            continue
        if filters.round is not None and row["round"] != filters.round:
            continue
        if filters.status and row["status"] != filters.status:
            continue
        key = (row["label"], row["round"])
        group = found.setdefault(key, Group(*key))
        group.counts[row["status"]] = row["n"]
        group.latest = max(filter(None, (group.latest, row["latest"])), default=None)
    events: dict[str, Event] = {}
    for group in found.values():
        events.setdefault(group.label, Event(group.label)).groups.append(group)
    never = dt.datetime.min.replace(tzinfo=dt.UTC)
    for event in events.values():  # the current round first; matches of no round after
        event.groups.sort(key=lambda g: (g.round is None, -(g.round or 0)))
    # what needs someone now first: an event with a protocol waiting for confirmation, one in
    # play, one not started, then the finished ones (a finished evening seeded or imported later
    # is not news); among equals the one played last
    def key(event: Event) -> tuple[int, float]:
        statuses = {status for g in event.groups for status, n in g.counts.items() if n}
        urgency = next((i for i, status in enumerate(COUNTED) if status in statuses),
                       len(COUNTED))  # fmt: skip
        latest = max((g.latest or never for g in event.groups), default=never)
        return urgency, -latest.timestamp()

    return sorted(events.values(), key=key)


def listing(user: Any, filters: Filters) -> Listing:
    scope = overseen_matches(user, Match.objects.all())
    if filters.mine:
        scope = scope.filter(referee=user)
    rows = list(scope.order_by().values("label", "round", "status")
                .annotate(n=Count("pk"), latest=Max("created_at")))  # fmt: skip
    labels = sorted({r["label"] for r in rows})
    rounds = sorted({r["round"] for r in rows if r["round"] is not None
                     and (not filters.event or r["label"] == filters.event)})  # fmt: skip
    events = _groups(rows, filters)
    if filters.narrowed:
        chosen = [g for e in events for g in e.groups]
        shown = scope
        if filters.event:
            shown = shown.filter(label=filters.event)
        if filters.round is not None:
            shown = shown.filter(round=filters.round)
        if filters.status:
            shown = shown.filter(status=filters.status)
    else:
        # each event's current round, while something in it still needs someone
        chosen = [e.groups[0] for e in events if e.groups[0].open_work]
        if not chosen and events:
            chosen = [events[0].groups[0]]
        where = [Q(label=g.label, round=g.round) for g in chosen]
        shown = scope.filter(reduce(or_, where)) if where else scope.none()
    matches = list(shown.select_related("referee").order_by("-created_at", "-pk")[:MAX_SHOWN + 1])
    by_group: dict[tuple[str, int | None], list[Match]] = defaultdict(list)
    for match in matches[:MAX_SHOWN]:
        by_group[(match.label, match.round)].append(match)
    for group in chosen:
        group.matches = sorted(by_group.get((group.label, group.round), []), key=_table_order)
        for match in group.matches:
            match.score = score(match)  # type: ignore[attr-defined]
    for event in events:
        for group in event.folded:
            group.link = filters.query(event=group.label, round=group.round)
    return Listing(filters, events, labels, rounds, capped=len(matches) > MAX_SHOWN)
