"""The referees of a round's tables, all at once.

    plan(round_, mode, pool=None) -> {pairing id: user id or None}   what each table gets
    assign_all(user, round_id, wanted) -> int                          written, tables changed

Modes (the organiser's one click on the round page):

* ``keep`` — each table number gets the referee it had in the previous round;
* ``rotate`` — the previous round's referees, moved so that nobody judges an entry he has
  already judged in this tournament (when that is impossible, as few repeats as can be, then
  nobody at the table number he had);
* ``list`` — the same, from the referees the organiser ticked;
* ``all`` — the same, from everyone who may referee (round 1 in one click).

A referee judges one table of a round. When the pool is smaller than the tables, the rest stay
empty (the page says how many). The matching is rustworkx's maximum-weight matching, the one the
pairing uses: exact, and instant at a hundred tables.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping

import rustworkx as rx
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from accounts.roles import CHIEF_REFEREE, REFEREE, holders
from tournaments.access import User
from tournaments.errors import TournamentError
from tournaments.models import Pairing, PairingEntry, Round
from tournaments.rounds import services

MODES = ("keep", "rotate", "list", "all")
#: a repeat (a referee meeting an entry he judged) outweighs every other preference together
REPEAT = 1_000_000
SAME_TABLE = 1_000


def _tables(round_: Round) -> list[Pairing]:
    return list(round_.pairings.filter(table__isnull=False).order_by("table"))


def _previous(round_: Round) -> dict[int, int]:
    """The previous round's table number -> its referee's id (tables with one)."""
    return dict(
        Pairing.objects.filter(round__tournament_id=round_.tournament_id,
                               round__number=round_.number - 1, table__isnull=False,
                               referee__isnull=False)  # fmt: skip
        .values_list("table", "referee_id")
    )


def _judged(round_: Round) -> dict[int, set[int]]:
    """Referee id -> the entries he has judged in the earlier rounds of this tournament."""
    judged: dict[int, set[int]] = defaultdict(set)
    for referee, entry in PairingEntry.objects.filter(
        pairing__round__tournament_id=round_.tournament_id,
        pairing__round__number__lt=round_.number, pairing__referee__isnull=False,
    ).values_list("pairing__referee_id", "entry_id"):
        judged[referee].add(entry)
    return judged


def _match(tables: list[Pairing], pool: list[int], judged: Mapping[int, set[int]],
           last_table: Mapping[int, int]) -> dict[int, int | None]:  # fmt: skip
    """Each table a referee of ``pool`` (at most one table each), fewest repeats first."""
    entries: dict[int, set[int]] = defaultdict(set)
    for pairing_id, entry in PairingEntry.objects.filter(
        pairing__in=[t.pk for t in tables]
    ).values_list("pairing_id", "entry_id"):
        entries[pairing_id].add(entry)
    graph = rx.PyGraph()
    table_nodes = graph.add_nodes_from([("table", t.pk) for t in tables])
    referee_nodes = graph.add_nodes_from([("referee", r) for r in pool])
    worst = REPEAT * 4 + SAME_TABLE
    for t_node, table in zip(table_nodes, tables, strict=True):
        for r_node, referee in zip(referee_nodes, pool, strict=True):
            cost = REPEAT * len(entries[table.pk] & judged.get(referee, set()))
            if last_table.get(referee) == table.table:
                cost += SAME_TABLE
            # every edge weighs more than any cost: the matching fills as many tables as it can
            graph.add_edge(t_node, r_node, worst + 1 - cost)
    chosen: dict[int, int | None] = {t.pk: None for t in tables}
    for a, b in rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int):
        (kind_a, id_a), (_kind_b, id_b) = graph[a], graph[b]
        table_id, referee = (id_a, id_b) if kind_a == "table" else (id_b, id_a)
        chosen[table_id] = referee
    return chosen


def offered() -> list[int]:
    """Everyone who may referee (``assign_referee`` accepts them)."""
    return list(holders(REFEREE, CHIEF_REFEREE).values_list("pk", flat=True))


def plan(round_: Round, mode: str, pool: Iterable[int] | None = None) -> dict[int, int | None]:
    """The referee of each table of ``round_`` (pairing id -> user id or None); see the module
    docstring for the modes. Refused (``TournamentError``) without a previous round to follow
    or with an empty list."""
    if mode not in MODES:
        raise TournamentError.one("bad_mode", _("Unknown way to assign the referees."), "mode")
    tables = _tables(round_)
    previous = _previous(round_)
    if mode == "keep":
        if not previous:
            raise TournamentError.one("no_previous", _(
                "The previous round has no referees to keep."), "mode")  # fmt: skip
        return {t.pk: previous.get(t.table) for t in tables}
    if mode == "rotate":
        people = list(dict.fromkeys(previous.values()))
        if not people:
            raise TournamentError.one("no_previous", _(
                "The previous round has no referees to rotate."), "mode")  # fmt: skip
    else:
        allowed = offered()
        chosen = allowed if mode == "all" else pool or []
        people = [r for r in dict.fromkeys(chosen) if r in set(allowed)]
        if not people:
            raise TournamentError.one("no_referees", _("Tick at least one referee."), "pool")
    last_table = {referee: table for table, referee in previous.items()}
    return _match(tables, people, _judged(round_), last_table)


def assign_all(user: User, round_id: int, wanted: Mapping[int, int | None]) -> int:
    """Every table its referee in one transaction (all or nothing, each change audited as a
    single assignment is); the number of tables that changed."""
    users = {u.pk: u for u in get_user_model().objects.filter(
        pk__in=[r for r in wanted.values() if r is not None])}  # fmt: skip
    unknown = {r for r in wanted.values() if r is not None} - set(users)
    if unknown:
        raise TournamentError.one("unknown_referee", _("No such referee."), "referee")
    changed = 0
    with transaction.atomic():
        current = dict(Pairing.objects.filter(round_id=round_id, pk__in=list(wanted))
                       .values_list("pk", "referee_id"))  # fmt: skip
        if set(current) != set(wanted):
            raise TournamentError.one("bad_table", _("A table of another round."), "table")
        for pairing_id, referee in wanted.items():
            if current[pairing_id] == referee:
                continue
            services.assign_referee(user, pairing_id, users.get(referee) if referee else None)
            changed += 1
    return changed
