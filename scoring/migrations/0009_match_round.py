"""A match knows its round; the round is taken out of the labels that held it.

A tournament's table was created with the label «Кубок трёх клубов · тур 4», written in
Russian whatever the reader's language (English pages showed «… · тур 4 · table 5»). The round
becomes a number and the label the event's name; ``Match.title`` composes them when shown.
Free-form labels of stand-alone matches («Товарищеская») do not end with a round and stay.
The pattern is copied from ``scoring.models.LEGACY_ROUND`` so this migration never changes.
"""

import re

from django.db import migrations, models

LEGACY_ROUND = re.compile(r"^(?P<label>.+) · (?:тур|round) (?P<round>\d{1,4})$")


def split_labels(apps, schema_editor):
    Match = apps.get_model("scoring", "Match")
    for label in Match.objects.filter(label__regex=r" · (тур|round) [0-9]+$").values_list(
            "label", flat=True).distinct():
        old = LEGACY_ROUND.match(label)
        if old:
            Match.objects.filter(label=label).update(label=old["label"], round=int(old["round"]))


def join_labels(apps, schema_editor):
    """Back: the round into the label again, as it was stored."""
    Match = apps.get_model("scoring", "Match")
    for match in Match.objects.exclude(round=None).only("label", "round"):
        match.label = f"{match.label} · тур {match.round}"[:200]
        match.save(update_fields=["label"])


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0008_match_clock'),
    ]

    operations = [
        migrations.AddField(
            model_name='match',
            name='round',
            field=models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='round'),
        ),
        migrations.RunPython(split_labels, join_labels),
    ]
