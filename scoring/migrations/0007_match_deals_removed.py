# Match.deals_removed: how many times deals left a protocol, counted for existing matches from
# their history (each deletion of the last deal and each correction is one row there).

from django.db import migrations, models
from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce

REMOVING = ("delete_deal", "correct")


def count_removals(apps, schema_editor):
    Match = apps.get_model("scoring", "Match")
    MatchVersion = apps.get_model("scoring", "MatchVersion")
    removals = (
        MatchVersion.objects.filter(match=OuterRef("pk"), action__in=REMOVING)
        .order_by()
        .values("match")
        .annotate(n=Count("pk"))
        .values("n")
    )
    Match.objects.update(deals_removed=Coalesce(Subquery(removals), 0))


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0006_merge_issue13_branches"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="deals_removed",
            field=models.PositiveIntegerField(default=0, verbose_name="deal removals"),
        ),
        migrations.RunPython(count_removals, migrations.RunPython.noop),
    ]
