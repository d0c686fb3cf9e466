"""A tournament's rule overrides stored before every number knob had an upper bound: lowered to
the bound (see scoring/migrations/0005_rules_within_bounds.py, whose rule this shares)."""

from django.db import migrations

BOUNDS = {"deals": 100, "target": 1000, "bonus_zero": 200, "bonus_six": 200,
          "bonus_both": 200, "min_record": 100}  # fmt: skip


def lower_to_bounds(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    for tournament in Tournament.objects.only("pk", "rules_options").iterator():
        options = tournament.rules_options
        if not isinstance(options, dict):
            continue
        changed = dict(options)
        for name, high in BOUNDS.items():
            value = changed.get(name)
            if isinstance(value, int) and not isinstance(value, bool) and value > high:
                changed[name] = high
        if changed != options:
            tournament.rules_options = changed
            tournament.save(update_fields=["rules_options"])


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0004_names_visible_sanction_bounds")]

    operations = [migrations.RunPython(lower_to_bounds, migrations.RunPython.noop)]
