"""The roll call before a round, one tap per entry, and what the desk does with a no-show.

    call(user, entry_id, state) -> Entry          present, late, absent or "" (not called) for
                                                  the next round to pair
    sheet(tournament) -> Sheet                    that round, each active entry with its state,
                                                  and the round in play with each entry's table
    no_show(user, entry_id, what) -> Entry        in the round in play: ``forfeit`` (its table
                                                  goes to the other side) or ``withdraw``

«Absent» is an ``EntryAbsence`` (the pairing leaves the entry out, as the entries page's absence
does); «present» and «late» are a ``RollCall`` the desk and the round page read. Every change is
audited; a round already paired is refused (``set_absence`` says so).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Count
from django.utils.translation import gettext as _

from accounts import audit
from scoring.models import Match
from tournaments.access import User, require_manager
from tournaments.discipline import services as discipline
from tournaments.errors import Conflict, TournamentError
from tournaments.models import Entry, EntryAbsence, PairingEntry, RollCall, Round, Tournament
from tournaments.registration import services

STATES = ("present", "late", "absent", "")
NO_SHOW = ("forfeit", "withdraw")


@dataclass
class Row:
    entry: Entry
    state: str  # present, late, absent or "" (not called yet)
    table: int | None = None  # its table in the round in play
    can_forfeit: bool = False  # that table has no deal yet


@dataclass
class Sheet:
    round_number: int  # the round the roll call is for (the next to pair)
    rows: list[Row]
    playing: int | None = None  # the published round in play, if any
    counts: dict[str, int] = field(default_factory=dict)


def sheet(tournament: Tournament) -> Sheet:
    number = services.next_round_number(tournament)
    entries = list(tournament.entries.filter(status=Entry.Status.ACTIVE).order_by("name", "pk"))
    called = dict(RollCall.objects.filter(entry__tournament=tournament, round_number=number)
                  .values_list("entry_id", "state"))  # fmt: skip
    absent = set(EntryAbsence.objects.filter(entry__tournament=tournament, round_number=number)
                 .values_list("entry_id", flat=True))  # fmt: skip
    playing = (tournament.round_set.filter(status=Round.Status.PUBLISHED)
               .order_by("-number").values_list("number", flat=True).first())  # fmt: skip
    tables: dict[int, tuple[int, bool]] = {}
    if playing is not None:
        for entry_id, table, status, deals in (
            PairingEntry.objects.filter(round__tournament=tournament, round__number=playing,
                                        pairing__table__isnull=False)  # fmt: skip
            .annotate(deals=Count("pairing__match__deals"))
            .values_list("entry_id", "pairing__table", "pairing__match__status", "deals")
        ):
            tables[entry_id] = (table, status in (None, Match.Status.DRAFT) and not deals)
    rows = []
    for entry in entries:
        state = "absent" if entry.pk in absent else called.get(entry.pk, "")
        table, open_table = tables.get(entry.pk, (None, False))
        rows.append(Row(entry, state, table, open_table))
    counts = {s or "uncalled": sum(1 for r in rows if r.state == s) for s in STATES}
    return Sheet(number, rows, playing, counts)


def call(user: User, entry_id: int, state: str) -> Entry:
    """The entry's state for the next round to pair (see the module docstring)."""
    if state not in STATES:
        raise TournamentError.one("bad_state", _("Present, late or absent."), "state")
    entry = Entry.objects.select_related("tournament").get(pk=entry_id)
    require_manager(user, entry.tournament)
    number = services.next_round_number(entry.tournament)
    with transaction.atomic():
        # the absence first: it locks the tournament and refuses a round already paired
        services.set_absence(user, entry_id, number, state == "absent",
                             _("roll call") if state == "absent" else None)  # fmt: skip
        old = RollCall.objects.filter(entry_id=entry_id, round_number=number).first()
        before = old.state if old else ""
        if state in ("present", "late"):
            RollCall.objects.update_or_create(
                entry_id=entry_id, round_number=number,
                defaults={"state": state, "called_by": user},
            )  # fmt: skip
        elif old is not None:
            old.delete()
        after = state if state in ("present", "late") else ""
        if after != before:
            audit.record(user, "entry.roll_call", entry, tournament_id=entry.tournament_id,
                         before={"round": number, "state": before},
                         after={"round": number, "state": after})  # fmt: skip
    return entry


def no_show(user: User, entry_id: int, what: str) -> Entry:
    """An entry that did not come to its table in the round in play: its table forfeited (the
    chief's forfeit sanction) or the entry withdrawn from the later rounds."""
    entry = Entry.objects.select_related("tournament").get(pk=entry_id)
    require_manager(user, entry.tournament)
    if what == "withdraw":
        return services.withdraw_entry(user, entry_id)
    if what != "forfeit":
        raise TournamentError.one("bad_action", _("Forfeit or withdraw."), "action")
    found = sheet(entry.tournament)
    row = next((r for r in found.rows if r.entry.pk == entry_id), None)
    if found.playing is None or row is None or row.table is None:
        raise Conflict.one("no_table", _("The entry has no table in the round in play."), "entry")
    if not row.can_forfeit:
        raise Conflict.one("table_started", _(
            "Table %(t)s has started: the chief referee decides a forfeit there.")
            % {"t": row.table}, "entry")  # fmt: skip
    discipline.record_sanction(user, entry.tournament_id, entry_id=entry_id,
                               round_number=found.playing, kind="forfeit", table=row.table,
                               reason=_("Did not come to table %(t)s (roll call).")
                               % {"t": row.table})  # fmt: skip
    return entry
