"""Same-club avoidance becomes a mode (off, among equals, strict) with strict rounds at the
start, replacing ``avoid_same_club_until``; and the individual format's federation seating.

The old setting avoided same-club opponents before score in rounds 1…K and never after, so K
maps to strict up to round K and off afterwards, and 0 to off: every existing tournament keeps
the pairing it had. New tournaments default to avoidance among equals.
"""

from django.db import migrations, models
from django.db.models import F
from django.db.models.functions import Greatest


def forwards(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    Tournament.objects.update(club_avoidance="off", club_strict_until=F("avoid_same_club_until"))


def backwards(apps, schema_editor):
    # strict up to K is all the old field can say: "among equals" has no old equivalent
    Tournament = apps.get_model("tournaments", "Tournament")
    Tournament.objects.exclude(club_avoidance="strict").update(
        avoid_same_club_until=F("club_strict_until"))
    Tournament.objects.filter(club_avoidance="strict").update(
        avoid_same_club_until=Greatest("rounds", "club_strict_until"))


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0007_formats_singles_free_for_all"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="club_avoidance",
            field=models.CharField(
                choices=[
                    ("off", "not avoided"),
                    ("among_equals", "avoided among equals"),
                    ("strict", "avoided strictly"),
                ],
                default="among_equals",
                help_text="Among equals: two entries of one club meet only where every other "
                "pairing has a larger score difference. Strict: they meet only where every other "
                "pairing needs a rematch, even if the score groups suffer for it.",
                max_length=20,
                verbose_name="same-club opponents",
            ),
        ),
        migrations.AddField(
            model_name="tournament",
            name="club_strict_until",
            field=models.PositiveSmallIntegerField(
                default=0,
                help_text="Rounds 1 to this one avoid same-club opponents strictly, the later "
                "ones as chosen above; 0: none.",
                verbose_name="strict club avoidance up to round",
            ),
        ),
        migrations.AddField(
            model_name="tournament",
            name="individual_federation",
            field=models.BooleanField(
                default=False,
                help_text="Round 2 keeps round 1's winning partners apart; the last round seats "
                "1+3 against 2+4 in blocks of four of the standings.",
                verbose_name="federation seating (individual format)",
            ),
        ),
        migrations.RunPython(forwards, backwards),
        migrations.RemoveField(model_name="tournament", name="avoid_same_club_until"),
    ]
