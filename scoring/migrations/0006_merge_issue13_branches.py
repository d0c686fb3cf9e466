# Joins the migrations of the branches written side by side for issue 13.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0005_merge_creation_keys_reassign'),
        ('scoring', '0005_rules_within_bounds'),
    ]

    operations = [
    ]
