"""The formats of form inputs in every language (``FORMAT_MODULE_PATH``): HTML's, first.

A browser's ``<input type="date">`` holds its value as ``YYYY-MM-DD`` whatever the language of
the page (it *shows* the date the reader's way) and throws away a value in any other format.
Django renders a date input's value in the first of the language's ``DATE_INPUT_FORMATS``, which
for Russian is ``DD.MM.YYYY``: the browser showed an empty field and saving the form erased the
date. So every language's input formats start with the HTML format (date, local date and time,
time) and keep its own formats after it, for fields typed as text; the display formats
(``DATE_FORMAT`` …) stay the language's. A language added to ``LANGUAGES`` needs its module
here (``config/tests/test_input_formats.py`` checks it).
"""

from __future__ import annotations

from collections.abc import Iterable

#: the value formats of ``<input type="date">``, ``"datetime-local"`` and ``"time"``
HTML_DATE = "%Y-%m-%d"
HTML_DATETIME = "%Y-%m-%dT%H:%M:%S"
HTML_TIME = "%H:%M:%S"


def html_first(html: str, own: Iterable[str]) -> list[str]:
    """The HTML format, then the language's own formats (without a repeat)."""
    return [html, *(f for f in own if f != html)]
