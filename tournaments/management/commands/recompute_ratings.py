"""``manage.py recompute_ratings``: rebuild every rating from the whole confirmed history.

The same as the task after each finished round, at once and in this process: after an import of
old events, a restore, or a change of which tournaments are public.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand

from tournaments import ratings


class Command(BaseCommand):
    help = "Recompute every player's rating from the confirmed matches of public tournaments."

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        count = ratings.recompute()
        self.stdout.write(f"{count} matches rated in {time.perf_counter() - started:.2f} s")
