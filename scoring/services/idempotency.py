"""Writes sent again: when a request is the same as one already done, and what "same" means.

A phone on a hall's network often does not see the answer to a write it made, and sends it
again. Every write of a protocol recognises its own retry and answers it without changing
anything a second time, or refuses it with a message that says what happened.

**The same deal.** Two deal records are the same deal when the keys of the rules contract
(RULES.md section 13: ``result``, ``by``, ``leader``, ``hands``, ``pips``, ``lead_tile``,
``last_tiles``, ``boneyard``, ``declared``, ``time_up``) hold the same values once normalised as
the engine reads them: a key that is absent, ``null`` (and ``time_up`` that is not ``true``) is
the same as missing; the tiles of a hand or of the boneyard are a set, in any notation (``6:4``,
``4-6``, ``[6|4]``, ``[6, 4]``) and order; ``lead_tile`` and ``last_tiles`` are tiles in the
order written; seats and sides with a ``null`` value are absent. A fives record's ``play`` and
``scores`` (sections 17 and 19) are their entries in order, each with its tile read, the tiles of
a draw as a set and its ``null`` values absent. Other keys are refused before
this is asked (``scoring.services.state``). ``deal_identity`` gives that normal form.

**A deal's key** (``client_id`` or the ``Idempotency-Key`` header, a UUID, scoped to the match):
``record_deal`` answers a key it has stored with the stored deal when the deal is the same (as
stored, or as first recorded under that key if it was amended since); a different deal, or any
deal under a key whose deal was deleted since, is ``Conflict`` 409 ``idempotency_conflict``
(``key_conflict``), and nothing is stored. The key of a recorded deal is kept in its history row
(``after.client_id``), which is how a deleted deal's key is still known; a protocol that never
lost a deal (``Match.deals_removed`` is 0) cannot hold such a key, and a new key is known to be
new without reading the history.

**Other writes** carry the protocol's version they were made against (``expected_version``):
the change at the next version tells whether the request was already done
(``change_after``). Without a version, see each service's docstring.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from rules import tiles as T
from scoring.errors import Conflict, ScoringError, error
from scoring.models import Match, MatchVersion

#: the keys of a deal record in the rules contract, and those of the fives games' records
#: (RULES.md sections 17 and 19: the line of play, or the points only)
CONTRACT_KEYS = ("result", "by", "leader", "hands", "pips", "lead_tile", "last_tiles",
                 "boneyard", "declared", "time_up", "play", "scores")  # fmt: skip


def parse_key(client_id: Any) -> uuid.UUID | None:
    """A request's key (``client_id`` or ``Idempotency-Key``) as a UUID; none when blank."""
    if client_id in (None, ""):
        return None
    try:
        return client_id if isinstance(client_id, uuid.UUID) else uuid.UUID(str(client_id))
    except ValueError as err:
        raise ScoringError.one(
            "bad_client_id", _("The client id must be a UUID."), "client_id"
        ) from err


def _tiles(value: Any) -> Any:
    """The tile numbers written in ``value`` in order, or ``value`` itself when unreadable."""
    try:
        if isinstance(value, str):
            return tuple(T.parse_tiles(value))
        if isinstance(value, list | tuple):
            if len(value) == 2 and all(type(x) is int for x in value):
                return (T.tile(value[0], value[1]),)  # one tile written as a pair
            out: list[int] = []
            for item in value:
                if isinstance(item, str):
                    out.extend(T.parse_tiles(item))
                elif isinstance(item, list | tuple) and len(item) == 2 \
                        and all(type(x) is int for x in item):
                    out.append(T.tile(item[0], item[1]))
                else:
                    return value
            return tuple(out)
    except T.TileError:
        return value
    return value


def _tile_set(value: Any) -> Any:
    read = _tiles(value)
    return tuple(sorted(read)) if isinstance(read, tuple) else read


def _present(mapping: Any) -> Any:
    """A mapping without its ``null`` entries; anything else as it is."""
    if isinstance(mapping, Mapping):
        return {k: v for k, v in mapping.items() if v is not None}
    return mapping


def _entry(entry: Any) -> Any:
    """One entry of a fives ``play`` (a move, several doubles, a draw, a pass) or of ``scores``,
    normalised: its tiles read, a drawn set in any order, ``null`` values absent."""
    if not isinstance(entry, Mapping):
        return entry
    out = _present(entry)
    if "tile" in out:
        out["tile"] = _tiles(out["tile"])
    if isinstance(out.get("draw"), str | list):
        out["draw"] = _tile_set(out["draw"])
    if isinstance(out.get("tiles"), list):  # «Телефон»'s several doubles: each placement read
        out["tiles"] = [_entry(t) for t in out["tiles"]]
    return out


def _entries(value: Any) -> Any:
    return [_entry(e) for e in value] if isinstance(value, list) else value


def deal_identity(record: Any) -> dict[str, Any]:
    """The normal form of a deal record: equal for two records that are the same deal."""
    if not isinstance(record, Mapping):
        return {"": record}
    out: dict[str, Any] = {}
    for key in CONTRACT_KEYS:
        value = record.get(key)
        if value is None:
            continue
        if key == "time_up":
            if value is not True:
                continue
        elif key == "hands":
            value = value if not isinstance(value, Mapping) else {
                seat: _tile_set(tiles) for seat, tiles in value.items() if tiles is not None
            }
        elif key in ("pips", "declared"):
            value = _present(value)
        elif key == "boneyard":
            value = _tile_set(value)
        elif key in ("lead_tile", "last_tiles"):
            value = _tiles(value)
        elif key in ("play", "scores"):
            value = _entries(value)
        out[key] = value
    return out


def same_deal(a: Any, b: Any) -> bool:
    return deal_identity(a) == deal_identity(b)


def key_history(match: Match, key: uuid.UUID) -> list[MatchVersion]:
    """The history rows that recorded a deal under ``key``, oldest first."""
    # only what the callers read: a row's ``protocol`` and ``before`` can be large
    return list(match.history.filter(action=MatchVersion.Action.RECORD_DEAL,
                                     after__client_id=str(key))
                .only("version", "after").order_by("version"))  # fmt: skip


def key_conflict(match: Match, n: int, deleted: bool = False) -> Conflict:
    if deleted:
        message = _("This deal's key (client_id or Idempotency-Key) was already used for deal "
                    "%(n)s, which is no longer in the protocol (deleted or corrected since). "
                    "Nothing was stored; a new deal needs a new key.") % {"n": n}  # fmt: skip
    else:
        message = _("This deal's key (client_id or Idempotency-Key) was already used for deal "
                    "%(n)s, which is a different deal. Nothing was stored; a new deal needs a "
                    "new key, and deal %(n)s is changed by amending it.") % {"n": n}  # fmt: skip
    return Conflict([error("idempotency_conflict", message, "client_id")], match)


def change_after(match: Match, expected_version: int | None, action: Any) -> MatchVersion | None:
    """The change made on top of ``expected_version`` when it was ``action``, else None.

    Versions grow by one per change, so the row at ``expected_version + 1`` is the one change a
    request made against ``expected_version`` can have been; the caller compares its contents.
    """
    if expected_version is None or match.version <= expected_version:
        return None  # nothing was changed on top of it (the first send: no query)
    return match.history.filter(version=expected_version + 1, action=action).first()
