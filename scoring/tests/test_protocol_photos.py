"""The signed paper protocol photographed and kept with its match (issue 29): the referee attaches
it from the submit page, the chief sees it beside the deals and in the history; never public;
only real pictures of a bounded size are kept, through Django's storage API."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from scoring.errors import ScoringError
from scoring.models import ProtocolPhoto
from scoring.services.photos import attach_photo

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _media(settings: Any, tmp_path: Any) -> None:
    settings.MEDIA_ROOT = tmp_path


def jpeg(size: tuple[int, int] = (40, 30)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, (200, 180, 160)).save(out, "JPEG")
    return out.getvalue()


def upload(client: Any, match: Any, content: bytes, name: str = "protocol.jpg") -> str:
    answer = client.post(f"/matches/{match.pk}/photos/", {
        "photo": SimpleUploadedFile(name, content, content_type="image/jpeg"),
        "next": f"/matches/{match.pk}/submit/",
    }, follow=True)  # fmt: skip
    return answer.content.decode()


def test_the_referee_attaches_the_chief_sees_it_nobody_else(
    client, match, referee, chief, other_referee, stranger
) -> None:
    client.force_login(referee)
    page = client.get(f"/matches/{match.pk}/submit/").content.decode()
    assert 'id="photo-form"' in page and 'capture="environment"' in page
    html = upload(client, match, jpeg())
    assert "Фотография сохранена вместе с протоколом." in html
    photo = ProtocolPhoto.objects.get()
    assert (photo.match, photo.content_type, photo.uploaded_by) == (match, "image/jpeg", referee)
    assert photo.file.name.startswith(f"protocols/{match.pk}/") and "protocol" not in \
        photo.file.name.split("/")[-1]  # a random name, not the phone's
    url = f"/matches/{match.pk}/photos/{photo.pk}/"
    client.force_login(chief)
    for page in ("history/", "transcribe/"):
        assert f'src="{url}"' in client.get(f"/matches/{match.pk}/{page}").content.decode()
    picture = client.get(url)
    assert picture.status_code == 200 and picture["Content-Type"] == "image/jpeg"
    assert b"".join(picture.streaming_content) == jpeg()
    assert "private" in picture["Cache-Control"]
    for who in (other_referee, stranger):
        client.force_login(who)
        assert client.get(url).status_code in (403, 404)
    client.logout()
    assert client.get(url).status_code in (302, 403, 404)
    assert client.get(url).status_code != 200


def test_only_real_pictures_of_a_bounded_size_are_kept(client, match, referee, settings) -> None:
    client.force_login(referee)
    html = upload(client, match, b"%PDF-1.4 not a picture", "protocol.jpg")
    assert "Это не фотография, которую можно сохранить" in html
    html = upload(client, match, b"<svg xmlns='http://www.w3.org/2000/svg'/>", "p.svg")
    assert "Это не фотография" in html
    settings.PROTOCOL_PHOTO_MAX_BYTES = 2**20
    big = SimpleUploadedFile("p.jpg", jpeg() + b"\0" * (2**20 + 2**17), content_type="image/jpeg")
    answer = client.post(f"/matches/{match.pk}/photos/", {"photo": big})
    assert answer.status_code == 413  # refused before the body is read
    with pytest.raises(ScoringError) as refused:  # and the service checks the file itself
        attach_photo(referee, match.pk, SimpleUploadedFile("p.jpg", jpeg() + b"\0" * 2**20))
    assert refused.value.codes == ["too_large"]
    assert "больше 1 МБ" in refused.value.errors[0]["message"]
    assert not ProtocolPhoto.objects.exists()


def test_another_referee_cannot_attach(client, match, other_referee) -> None:
    client.force_login(other_referee)
    answer = client.post(f"/matches/{match.pk}/photos/",
                         {"photo": SimpleUploadedFile("p.jpg", jpeg())})  # fmt: skip
    assert answer.status_code in (403, 404)
    assert not ProtocolPhoto.objects.exists()
