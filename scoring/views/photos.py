"""The signed paper protocol's photographs: attach one (the table's referee or its desk, from
the phone's camera) and look at one (the same people; never the public).

    POST /matches/<pk>/photos/              ``photo`` (a file) and ``next`` (where to go back)
    GET  /matches/<pk>/photos/<photo_id>/   the picture, streamed after the check
"""

from __future__ import annotations

from django.contrib import messages
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from config.limits import body_limit
from scoring.errors import ScoringError
from scoring.models import ProtocolPhoto
from scoring.services.photos import attach_photo, can_view_photos
from scoring.views.match_view import MatchView


@body_limit("PROTOCOL_PHOTO_MAX_BYTES")
class PhotoUploadView(MatchView):
    def allowed(self) -> bool:
        return can_view_photos(self.request.user, self.match)

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        back = request.POST.get("next", "")
        if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()},
                                               require_https=request.is_secure()):  # fmt: skip
            back = reverse("scoring:history", args=[pk])
        try:
            attach_photo(request.user, pk, request.FILES.get("photo"))
        except ScoringError as err:
            for item in err.errors:
                messages.error(request, item["message"])
        else:
            messages.success(request, _("The photograph is kept with the protocol."))
        return redirect(back)


class PhotoView(MatchView):
    def allowed(self) -> bool:
        return can_view_photos(self.request.user, self.match)

    def get(self, request: HttpRequest, pk: int, photo_id: int) -> HttpResponse:
        photo = get_object_or_404(ProtocolPhoto, pk=photo_id, match_id=pk)
        try:
            handle = photo.file.open("rb")
        except (FileNotFoundError, OSError) as missing:
            raise Http404 from missing
        answer = FileResponse(handle, content_type=photo.content_type)
        answer["Cache-Control"] = "private, max-age=3600"
        name = f"protocol-{pk}-{photo.pk}.{photo.extension}"
        answer["Content-Disposition"] = f'inline; filename="{name}"'
        return answer
