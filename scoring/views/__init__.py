"""Pages of a match: the referee's phone page, submit, confirm, correct, history and printing.

Thin: a view parses with ``scoring.forms``, writes only through ``scoring.services`` (which judge
every deal through the rules engine and decide who may do what) and reads through
``scoring.selectors``. Nothing here scores a deal. The referee's page talks to the record and
preview views with ``fetch`` (JSON answers) and works as plain HTML forms without JavaScript.

The pages are grouped in modules; this package re-exports their views for ``scoring.urls``:

    match_view      ``MatchView``, the base of every match page, and the shared helpers
    matches         the list of matches and the new-match form
    referee_page    the sheet with the deal entry, preview, record and amend, delete the last
                    deal; the match's clock (JSON)
    confirmation    submit, confirm, the captain's PIN
    correction      the chief referee's correction: the tile picker, the protocol judged again
    history         the history of versions, each change as people read it
    printing        the print page and the PDF
    transcription   the desk's copy of a paper protocol, row by row on a keyboard
"""

from __future__ import annotations

from scoring.views.confirmation import ConfirmView, PinView, SubmitView
from scoring.views.correction import CorrectPreviewView, CorrectView
from scoring.views.history import HistoryView
from scoring.views.match_view import MatchView, form_errors, verdict_context, wants_json
from scoring.views.matches import MatchCreateView, MatchListView
from scoring.views.printing import PdfView, PrintView, blank_copy, qr_svg
from scoring.views.referee_page import (
    ClockView,
    DeleteLastView,
    PreviewView,
    RecordView,
    SheetView,
)
from scoring.views.transcription import TranscribePreviewView, TranscribeView

__all__ = [
    "ClockView",
    "ConfirmView",
    "CorrectPreviewView",
    "CorrectView",
    "DeleteLastView",
    "HistoryView",
    "MatchCreateView",
    "MatchListView",
    "MatchView",
    "PdfView",
    "PinView",
    "PreviewView",
    "PrintView",
    "RecordView",
    "SheetView",
    "SubmitView",
    "TranscribePreviewView",
    "TranscribeView",
    "blank_copy",
    "form_errors",
    "qr_svg",
    "verdict_context",
    "wants_json",
]
