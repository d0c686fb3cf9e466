"""Rules stored before every number knob had an upper bound (rules/presets.py): a value above
the bound is lowered to it, so that ``make_rules`` accepts every stored match again (a match
of ``deals: 400000`` would otherwise answer every page with an error). The bounds are copied
here, not imported: a migration must not change when the code does."""

from django.db import migrations

BOUNDS = {"deals": 100, "target": 1000, "bonus_zero": 200, "bonus_six": 200,
          "bonus_both": 200, "min_record": 100}  # fmt: skip


def within_bounds(options):
    """``options`` with every bounded knob at most its bound; None when nothing changes."""
    if not isinstance(options, dict):
        return None
    changed = dict(options)
    for name, high in BOUNDS.items():
        value = changed.get(name)
        if isinstance(value, int) and not isinstance(value, bool) and value > high:
            changed[name] = high
    return changed if changed != options else None


def lower_to_bounds(apps, schema_editor):
    Match = apps.get_model("scoring", "Match")
    for match in Match.objects.only("pk", "rules", "rules_options").iterator():
        rules, options = within_bounds(match.rules), within_bounds(match.rules_options)
        if rules is not None or options is not None:
            match.rules = rules if rules is not None else match.rules
            match.rules_options = options if options is not None else match.rules_options
            match.save(update_fields=["rules", "rules_options"])


class Migration(migrations.Migration):
    dependencies = [("scoring", "0004_match_names_visible")]

    operations = [migrations.RunPython(lower_to_bounds, migrations.RunPython.noop)]
