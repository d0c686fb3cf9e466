"""Every entry gets the key of its personal page (``Entry.token``); existing entries get one
each here, new ones from the field's default."""

import secrets

from django.db import migrations, models

import tournaments.models.registration


def fill_tokens(apps, schema_editor):
    Entry = apps.get_model("tournaments", "Entry")
    entries = list(Entry.objects.filter(token__isnull=True).only("pk"))
    for entry in entries:
        entry.token = secrets.token_urlsafe(16)
    Entry.objects.bulk_update(entries, ["token"], batch_size=500)


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0023_h30prizes_categories"),
    ]

    operations = [
        migrations.AddField(
            model_name="entry",
            name="token",
            field=models.CharField(editable=False, max_length=32, null=True,
                                   verbose_name="personal link key"),
        ),
        migrations.RunPython(fill_tokens, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="entry",
            name="token",
            field=models.CharField(default=tournaments.models.registration.new_entry_token,
                                   editable=False, max_length=32, unique=True,
                                   verbose_name="personal link key"),
        ),
    ]
