"""Filters of the site's log (``LOGGING`` in ``config.settings``).

    PlainRefusals    a refused request (``PermissionDenied``, a 403) is logged as Django words
                     it, «Forbidden (Permission denied): /path», without the traceback Django
                     attaches: a refusal is the app working, and a page of tracebacks per
                     refused visitor buried the failures that need one.
"""

from __future__ import annotations

import logging

from django.core.exceptions import PermissionDenied


class PlainRefusals(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and isinstance(record.exc_info[1], PermissionDenied):
            record.exc_info = None
            record.exc_text = None
        return True
