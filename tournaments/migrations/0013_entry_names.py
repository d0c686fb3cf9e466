"""Entries imported under a number («1»…«16», the CSV's grouping key) get their players' names.

Only an entry whose name is a bare number (optionally «№»/«#» before it) and that has players is
renamed: names an organiser chose are kept. A pair is called after its players' surnames in the
order they were added («Иванов – Петров»), one player by the full name; a name already taken in
the tournament gets the initials, then a number. The rule is copied here rather than imported
from ``tournaments.registration.names`` so that this migration does not change when that
module does.
"""

import re

from django.db import migrations

NUMBERED = re.compile(r"^\s*[№#]?\s*\d+\s*$")
SEPARATOR = " – "


def _candidates(players):
    if len(players) == 1:
        return [f"{players[0].last_name} {players[0].first_name}".strip()]
    plain = SEPARATOR.join(p.last_name for p in players)
    initials = SEPARATOR.join(
        f"{p.last_name} {p.first_name.strip()[0]}." if p.first_name.strip() else p.last_name
        for p in players
    )
    return [plain] if initials == plain else [plain, initials]


def _free(players, taken):
    tries = [name[:200] for name in _candidates(players)]
    for name in tries:
        if name not in taken:
            return name
    number = 2
    while f"{tries[-1][:190]} ({number})" in taken:
        number += 1
    return f"{tries[-1][:190]} ({number})"


def name_numbered_entries(apps, schema_editor):
    Entry = apps.get_model("tournaments", "Entry")
    through = Entry.players.through
    numbered = [e for e in Entry.objects.order_by("tournament_id", "pk") if NUMBERED.match(e.name)]
    taken = {}
    for entry in numbered:
        # in the order the players were added to the pair (the file's order)
        players = [link.player for link in through.objects.filter(entry_id=entry.pk)
                   .select_related("player").order_by("pk")]  # fmt: skip
        if not players:
            continue
        names = taken.setdefault(entry.tournament_id, set(
            Entry.objects.filter(tournament_id=entry.tournament_id).values_list("name", flat=True)))
        entry.name = _free(players, names)
        names.add(entry.name)
        entry.save(update_fields=["name"])


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0012_substitutes")]

    operations = [migrations.RunPython(name_numbered_entries, migrations.RunPython.noop)]
