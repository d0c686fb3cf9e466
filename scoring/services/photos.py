"""Photographs of the signed paper protocol, attached to its match.

    attach_photo(user, match_id, upload) -> ProtocolPhoto   the table's referee or its desk
    can_view_photos(user, match) -> bool                    the same people, never the public

A file is checked before it is kept: its size (``PROTOCOL_PHOTO_MAX_BYTES``) and that it really
is a JPEG, PNG or WebP picture (Pillow reads it; the name and the browser's type are not
trusted). It is stored through Django's storage API under a random name.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _
from PIL import Image, UnidentifiedImageError

from scoring.errors import NotAllowed, ScoringError
from scoring.models import Match, ProtocolPhoto
from scoring.services.permissions import User, can_write

KINDS = {"JPEG": "image/jpeg", "PNG": "image/png", "WEBP": "image/webp"}
#: a photograph of at most this many pixels (a decompression bomb is refused before decoding)
MAX_PIXELS = 60_000_000


def can_view_photos(user: User, match: Match) -> bool:
    return can_write(user, match)


def _kind(upload: Any) -> str:
    """The picture's MIME type, read from its content; "" when it is not one we keep."""
    try:
        upload.seek(0)
        with Image.open(upload) as image:
            if image.width * image.height > MAX_PIXELS:
                return ""
            image.verify()
            kind = KINDS.get(image.format or "", "")
    except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError):
        kind = ""
    upload.seek(0)
    return kind


def attach_photo(user: User, match_id: int, upload: Any) -> ProtocolPhoto:
    match = Match.objects.get(pk=match_id)
    if not can_write(user, match):
        raise NotAllowed.one("not_referee", _(
            "Only the table's referee or its desk attaches the protocol's photograph."))
    if upload is None:
        raise ScoringError.one("no_file", _("Choose a photograph of the protocol."), "photo")
    most = settings.PROTOCOL_PHOTO_MAX_BYTES
    if upload.size > most:
        raise ScoringError.one("too_large", _("The photograph is larger than %(mb)s MB.")
                               % {"mb": most // 2**20}, "photo")  # fmt: skip
    kind = _kind(upload)
    if not kind:
        raise ScoringError.one("not_a_photo", _(
            "This is not a photograph we keep: send a JPEG, PNG or WebP picture."), "photo")
    with transaction.atomic():
        photo = ProtocolPhoto(match=match, content_type=kind, size=upload.size,
                              uploaded_by=user if user.is_authenticated else None)  # fmt: skip
        photo.file.save(f"photo.{photo.extension}", upload, save=False)
        photo.save()
    return photo
