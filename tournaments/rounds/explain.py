"""Why each table of a round came out as it did, in words of the page's language.

    reasons(round_, tables) -> {pairing id: [sentence, …]}

The pairing leaves flags on a table (``tournaments.pairing.FLAGS``); the organiser's round page
shows them here as sentences with the names and numbers behind them: a float with both sides'
match points, a same-club table with the club and why it stayed (strict avoidance needed a
rematch to undo it, among equals it would have cost score difference, or avoidance is off), a
repeated opponent with the round they met. Match points are the ones the pairing read: the
history before the round with the latest standings snapshot (``rounds.selectors``), with group
A's virtual points in an accelerated round (``rounds.acceleration``). Flags
without names behind them keep their label. Reads only, in a fixed number of queries.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from config.inputs import quoted
from tournaments.models import Club, Entry, Pairing, PairingEntry, Round
from tournaments.rounds import acceleration, selectors
from tournaments.rounds.labels import FLAG_LABELS

#: flags told in words here, rather than by their label
TOLD = {"float_up", "float_down", "rematch", "same_club", "same_club_kept", "same_club_allowed"}


def _met_in(round_: Round, ids: set[int]) -> dict[frozenset[int], list[int]]:
    """For two entries of ``ids``: the earlier rounds in which they were opponents (one query)."""
    rows = PairingEntry.objects.filter(
        round__tournament_id=round_.tournament_id, round__number__lt=round_.number,
        entry_id__in=ids,
    ).exclude(side=PairingEntry.Side.BYE).values_list(
        "pairing_id", "entry_id", "side", "round__number")  # fmt: skip
    tables: dict[int, list[tuple[str, int]]] = defaultdict(list)
    number_of: dict[int, int] = {}
    for pairing_id, entry_id, side, number in rows:
        tables[pairing_id].append((side, entry_id))
        number_of[pairing_id] = number
    met: dict[frozenset[int], list[int]] = defaultdict(list)
    for pairing_id, places in tables.items():
        # opponents sit on different sides: two pairs, head to head or each for himself
        for side, a in places:
            for other, b in places:
                if side < other:
                    met[frozenset((a, b))].append(number_of[pairing_id])
    return met


def _points(round_: Round, entries: Iterable[Entry],
            virtual: dict[int, float]) -> dict[int, float]:  # fmt: skip
    """Each entry's match points as the pairing of this round read them (two queries)."""
    tournament = round_.tournament
    records = selectors.pairing_history(tournament, round_.number)
    ids = [e.pk for e in entries]
    with_lines = selectors.with_snapshot(Entry.objects.filter(pk__in=ids), tournament,
                                         round_.number)  # fmt: skip
    selectors.apply_standings(records, selectors.snapshot_of(with_lines))
    # an accelerated round paired by the pairing score: group A's virtual points in it
    return {i: (records[i].score if i in records else 0.0) + virtual.get(i, 0.0) for i in ids}


def _rounds(numbers: list[int]) -> str:
    return ", ".join(str(n) for n in sorted(numbers))


def reasons(round_: Round, tables: list[Pairing]) -> dict[int, list[str]]:
    """Sentences per table (pairing id); tables are prefetched with ``round_with_pairings``."""
    sides: dict[int, dict[str, list[Entry]]] = {}
    for pairing in tables:
        # the two sides of a Swiss table: two pairs, or two players head to head (N and E);
        # each for himself (the free-for-all) has no flag told in words
        sides[pairing.pk] = {"NS": [pl.entry for pl in pairing.north_south],
                             "EW": [pl.entry for pl in pairing.east_west]}  # fmt: skip
    # a team match's flags belong to the teams, not to the pairs at its tables: labels only
    teams = round_.tournament.format == round_.tournament.Format.TEAMS
    flagged = [] if teams else [p for p in tables if TOLD & set(p.flags)]
    entries = [e for p in flagged for side in sides[p.pk].values() for e in side]
    labels = {p.pk: [str(FLAG_LABELS.get(f, f)) for f in sorted(p.flags)]
              for p in tables if p.flags}  # fmt: skip
    if not entries:
        return labels
    virtual = acceleration.virtual_points(round_.tournament, round_.number)
    points = _points(round_, entries, virtual)
    met = _met_in(round_, {e.pk for e in entries})
    clubs = dict(Club.objects.filter(pk__in={e.club_id for e in entries if e.club_id})
                 .values_list("pk", "name"))  # fmt: skip
    for pairing in flagged:
        ns, ew = sides[pairing.pk]["NS"], sides[pairing.pk]["EW"]
        said: list[str] = []
        for flag in sorted(set(pairing.flags) - TOLD):
            said.append(str(FLAG_LABELS.get(flag, flag)))
        flags = set(pairing.flags)
        if flags & {"float_up", "float_down"}:
            said.append(_float(ns, ew, points))
            if virtual:
                said.append(_("An accelerated round: group A's virtual match points are counted "
                              "in, as the pairing counted them."))
        if "rematch" in flags:
            said += _repeats(ns, ew, met)
        club_flag = next((f for f in ("same_club", "same_club_kept", "same_club_allowed")
                          if f in flags), "")  # fmt: skip
        if club_flag:
            said.append(_club(club_flag, ns, ew, clubs, round_.number))
        labels[pairing.pk] = said
    return labels


def _name(side: list[Entry]) -> str:
    return " + ".join(e.name for e in side)


def _float(ns: list[Entry], ew: list[Entry], points: dict[int, float]) -> str:
    high, low = (ns, ew) if points[ns[0].pk] >= points[ew[0].pk] else (ew, ns)
    upper, lower = points[high[0].pk], points[low[0].pk]
    return _(
        "%(high)s (%(upper)s match points) plays %(low)s (%(lower)s): a float of %(gap)s. It "
        "belongs to the round's best pairing: the fewest rematches first, then the smallest "
        "score differences."
    ) % {"high": _name(high), "upper": f"{upper:g}", "low": _name(low), "lower": f"{lower:g}",
         "gap": f"{upper - lower:g}"}  # fmt: skip


def _repeats(ns: list[Entry], ew: list[Entry], met: dict[frozenset[int], list[int]]) -> list[str]:
    said = []
    for a in ns:
        for b in ew:
            numbers = met.get(frozenset((a.pk, b.pk)))
            if not numbers:
                continue
            said.append(ngettext(
                "%(a)s and %(b)s met as opponents before, in round %(rounds)s.",
                "%(a)s and %(b)s met as opponents before, in rounds %(rounds)s.", len(numbers),
            ) % {"a": a.name, "b": b.name, "rounds": _rounds(numbers)})  # fmt: skip
    if said and (len(ns) > 1 or len(ew) > 1):
        said.append(_("No seating with fewer repeated opponents was found that keeps partners "
                      "new and seats balanced."))  # fmt: skip
    elif said:
        said.append(_("No pairing of the whole round avoided every rematch."))
    return said


def _club(flag: str, ns: list[Entry], ew: list[Entry], clubs: dict[int, str], number: int) -> str:
    names = {"a": _name(ns), "b": _name(ew), "club": quoted(clubs.get(ns[0].club_id or 0, ""))}
    if flag == "same_club":
        return _("%(a)s and %(b)s are both of the club %(club)s. Avoidance is strict in this "
                 "round, and fewer same-club tables were impossible without a rematch."
                 ) % names  # fmt: skip
    if flag == "same_club_kept":
        return _("%(a)s and %(b)s are both of the club %(club)s. Avoidance is among equals: "
                 "every pairing with fewer same-club tables had larger score differences."
                 ) % names  # fmt: skip
    return _("%(a)s and %(b)s are both of the club %(club)s: club avoidance is off in round "
             "%(n)s.") % {**names, "n": number}  # fmt: skip
