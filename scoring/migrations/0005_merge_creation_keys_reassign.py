# Joins two migrations written side by side: match creation keys and the "reassign" history action.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0004_match_creation_keys'),
        ('scoring', '0004_matchversion_reassign_action'),
    ]

    operations = [
    ]
