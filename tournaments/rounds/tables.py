"""A table's scoring match while the round is reviewed: the seats its sides give, the players
and the referee moved in the match in place, and the unlocked tables dropped before a new
pairing. Nothing here deletes or re-creates a match in which anything was recorded.

    SEAT_FIELDS, seats_of(sides, number, subs) -> {"N": player id | None, …}  (with the
        round's substitutes in)
    reseat_table(pairing, user, *, seats=True, referee=KEEP)    the table's seats (from its
        places) and/or referee, on the pairing and in its match (``scoring.reseat``)
    drop_unlocked(round_, user)      the unlocked tables and byes deleted with their blank
        matches; ``Conflict`` ``match_started`` naming the tables otherwise, nothing deleted
    scoring_refusals()               a scoring refusal raised as the tournaments' error

The scoring services lock the match row for each change, as ``record_deal`` does, so a deal
recorded at the same moment is either in the match before the change (and the change is
refused or keeps it) or comes after it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from django.utils.translation import gettext as _

from scoring import services as scoring
from scoring.errors import ScoringError
from tournaments.errors import Conflict, NotAllowed, TournamentError
from tournaments.models import Entry, Pairing, Round
from tournaments.selectors import Lineups, lineups

SEAT_FIELDS = {"N": "seat_n", "E": "seat_e", "S": "seat_s", "W": "seat_w"}
KEEP = scoring.KEEP


def seats_of(sides: Sequence[tuple[str, Sequence[Entry]]], number: int = 0,
             subs: Lineups | None = None) -> dict[str, int | None]:
    """The seats of a table's sides (``[(side, entries)]``) in round ``number``. Pairs: the NS
    pair's players sit N and S, the EW pair's E and W. Individual format: the first of each side
    sits N (E), the partner S (W). A side named by a seat (head to head, each for himself): its
    player sits there. A substitute of the round (``subs``) sits where his player would."""
    seats: dict[str, int | None] = dict.fromkeys("NESW")
    subs = subs or Lineups()
    for side, entries in sides:
        players = [pk for entry in entries
                   for pk in subs.ids(entry.pk, number, [p.pk for p in entry.players.all()])
                   ][: len(side)]  # fmt: skip
        for seat, player in zip(side, players, strict=False):
            seats[seat] = player
    return seats


def places_by_side(places: Sequence[Any]) -> list[tuple[str, list[Entry]]]:
    """A table's places (``PairingEntry`` rows, ordered) as ``[(side, entries)]`` in the order
    the sides first appear."""
    sides: dict[str, list[Entry]] = {}
    for place in places:
        sides.setdefault(place.side, []).append(place.entry)
    return list(sides.items())


def as_tournament_error(err: ScoringError) -> TournamentError:
    kind = {403: NotAllowed, 409: Conflict}.get(err.status, TournamentError)
    return kind([dict(item) for item in err.errors])


@contextmanager
def scoring_refusals() -> Iterator[None]:
    """Scoring's refusals (403, 409, 400) as the tournaments app's, with the same items, so
    that the organiser's pages and API answer them like their own."""
    try:
        yield
    except ScoringError as err:
        raise as_tournament_error(err) from err


def reseat_table(pairing: Pairing, user: Any, *, seats: bool = True, referee: Any = KEEP) -> None:
    """Write the table's seats (from its places, when ``seats``) and/or its referee on the
    pairing and, in place, in its match. A match with deals keeps its seats: refused (409)."""
    if pairing.table is None:
        return
    fields: list[str] = []
    seating: Any = KEEP
    if seats:
        places = list(pairing.places.select_related("entry").prefetch_related("entry__players")
                      .order_by("side", "position"))  # fmt: skip
        number = pairing.round.number
        seating = seats_of(places_by_side(places), number,
                           lineups(entry_id__in=[p.entry_id for p in places]))
        for seat, player in seating.items():
            setattr(pairing, f"{SEAT_FIELDS[seat]}_id", player)
        fields += SEAT_FIELDS.values()
    if referee is not KEEP:
        pairing.referee = referee
        fields.append("referee")
    if fields:
        pairing.save(update_fields=fields)
    if pairing.match_id is not None:
        with scoring_refusals():
            scoring.reseat(pairing.match_id, user, seats=seating, referee=referee)


def drop_unlocked(round_: Round, user: Any) -> None:
    """Delete the round's unlocked tables and byes with their matches, all of which must be
    blank (``scoring.discard_blank`` locks and checks them); else refuse, naming the tables."""
    pairings = list(round_.pairings.filter(locked=False).values_list("pk", "table", "match_id"))
    if not pairings:
        return
    # The tables go first (they protect their matches); a refusal below rolls this back.
    Pairing.objects.filter(pk__in=[pk for pk, _table, _match in pairings]).delete()
    try:
        scoring.discard_blank(user, [m for _pk, _table, m in pairings if m is not None])
    except ScoringError as err:
        started = {m for item in err.errors for m in item.get("matches", ())}
        if not started:
            raise as_tournament_error(err) from err
        tables = sorted(t for _pk, t, m in pairings if m in started)
        raise Conflict.one(
            "match_started",
            _("Deals are already recorded at tables: %(tables)s. Lock them to keep them, then "
              "pair the rest again.") % {"tables": ", ".join(map(str, tables))},
        ) from err  # fmt: skip
