# Joins the migrations of the branches written side by side for issue 13.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0005_merge_provenance_chief_referees'),
        ('tournaments', '0005_rules_within_bounds'),
    ]

    operations = [
    ]
