# Joins two migrations written side by side: import provenance and per-tournament chief referees.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0004_import_provenance'),
        ('tournaments', '0004_tournament_chief_referees'),
    ]

    operations = [
    ]
