"""Pages of the scoring app (the API's routes are in ``scoring.api``)."""

from django.urls import path

from scoring import views
from scoring.views.photos import PhotoUploadView, PhotoView

app_name = "scoring"

urlpatterns = [
    path("matches/", views.MatchListView.as_view(), name="list"),
    path("matches/new/", views.MatchCreateView.as_view(), name="create"),
    path("matches/<int:pk>/", views.SheetView.as_view(), name="sheet"),
    path("matches/<int:pk>/clock/", views.ClockView.as_view(), name="clock"),
    path("matches/<int:pk>/preview/", views.PreviewView.as_view(), name="preview"),
    path("matches/<int:pk>/deals/", views.RecordView.as_view(), name="record"),
    path("matches/<int:pk>/deals/last/", views.RecordView.as_view(amend=True), name="amend"),
    path("matches/<int:pk>/deals/last/delete/", views.DeleteLastView.as_view(), name="delete_last"),
    path("matches/<int:pk>/submit/", views.SubmitView.as_view(), name="submit"),
    path("matches/<int:pk>/confirm/", views.ConfirmView.as_view(), name="confirm"),
    path("matches/<int:pk>/pin/", views.PinView.as_view(), name="pin"),
    path("matches/<int:pk>/correct/", views.CorrectView.as_view(), name="correct"),
    path("matches/<int:pk>/correct/preview/", views.CorrectPreviewView.as_view(),
         name="correct_preview"),
    path("matches/<int:pk>/history/", views.HistoryView.as_view(), name="history"),
    path("matches/<int:pk>/transcribe/", views.TranscribeView.as_view(), name="transcribe"),
    path("matches/<int:pk>/transcribe/preview/", views.TranscribePreviewView.as_view(),
         name="transcribe_preview"),
    path("matches/<int:pk>/print/", views.PrintView.as_view(), name="print"),
    path("matches/<int:pk>/photos/", PhotoUploadView.as_view(), name="photos"),
    path("matches/<int:pk>/photos/<int:photo_id>/", PhotoView.as_view(), name="photo"),
    path("matches/<int:pk>/protocol.pdf", views.PdfView.as_view(), name="pdf"),
]
