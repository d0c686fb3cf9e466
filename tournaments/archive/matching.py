"""Who each archive player is on this site, as the review shows it and the import writes it.

    match_players(plan, user) -> [{"id", "name", "club", "federation_id", "status", "player",
                                   "player_name"}]
        status: ``federation_id`` (the registry player with that federation ID and name),
        ``name_club`` (the one player of that name and club), ``new``, or ``conflict`` (the
        federation ID is someone of another name here, or several players fit): a conflict is
        created as a new player, out of the registry

Only the players the importer may be offered (``Player.objects.offered_to``) are candidates, so
an import never links to another organiser's imported players.
"""

from __future__ import annotations

from typing import Any

from tournaments.access import User
from tournaments.archive.reader import Plan
from tournaments.models import Player

FEDERATION, NAME_CLUB, NEW, CONFLICT = "federation_id", "name_club", "new", "conflict"


def match_players(plan: Plan, user: User) -> list[dict[str, Any]]:
    """Per archive player: ``status`` (federation_id, name_club, new, conflict), the registry
    ``player`` he is linked to (or None: created), and what the archive says of him."""
    clubs = {archive_id: f["name"] for archive_id, f in plan.rows["clubs"]}
    rows = plan.rows["players"]
    ids = {f["federation_id"] for _i, f in rows if f["federation_id"]}
    by_federation = {p.federation_id: p for p in Player.objects.filter(federation_id__in=ids)}
    offered = Player.objects.offered_to(user)
    names = sorted({f["last_name"] for _i, f in rows})
    by_name: dict[tuple[str, str, str], list[Player]] = {}
    for start in range(0, len(names), 500):
        for p in offered.filter(last_name__in=names[start : start + 500]).select_related("club"):
            key = (p.last_name, p.first_name, p.club.name if p.club else "")
            by_name.setdefault(key, []).append(p)
    out = []
    for archive_id, f in rows:
        club = clubs.get(f["club"], "")
        item = {"id": archive_id, "name": f"{f['last_name']} {f['first_name']}".strip(),
                "club": club, "federation_id": f["federation_id"], "player": None,
                "player_name": "", "status": NEW}  # fmt: skip
        known = by_federation.get(f["federation_id"]) if f["federation_id"] else None
        fits = by_name.get((f["last_name"], f["first_name"], club), [])
        if known is not None:
            same = (known.last_name, known.first_name) == (f["last_name"], f["first_name"])
            visible = known.in_registry or offered.filter(pk=known.pk).exists()
            item.update(status=FEDERATION if same and visible else CONFLICT,
                        player=known.pk if same and visible else None,
                        player_name=known.full_name)  # fmt: skip
        elif len(fits) == 1 and not (f["federation_id"] and fits[0].federation_id):
            item.update(status=NAME_CLUB, player=fits[0].pk, player_name=fits[0].full_name)
        elif fits:
            item.update(status=CONFLICT, player_name=", ".join(p.full_name for p in fits[:3]))
        out.append(item)
    return out
