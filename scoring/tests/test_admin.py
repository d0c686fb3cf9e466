"""The admin shows matches read-only; its one action confirms through the service."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from scoring import services
from scoring.models import Match
from scoring.tests.helpers import record_all

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_user() -> User:
    return User.objects.create_superuser("root", password="s3cret-pass")


def test_match_pages_render_read_only_with_deals_and_history(client, admin_user, match, referee,
                                                             deals):  # fmt: skip
    record_all(match, referee, deals[:2])
    client.force_login(admin_user)
    assert client.get("/admin/scoring/match/").status_code == 200
    page = client.get(f"/admin/scoring/match/{match.pk}/change/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "record_deal" in html or "Раздача записана" in html
    assert 'name="deals-0-record"' not in html  # inline rows are not editable
    assert "confirm_pin" not in html
    assert client.get("/admin/scoring/match/add/").status_code == 403
    response = client.post(f"/admin/scoring/match/{match.pk}/change/", {"label": "x"})
    assert response.status_code == 403
    assert Match.objects.get(pk=match.pk).label == "Вечер клуба"


def test_confirm_action_goes_through_the_service(client, admin_user, match, referee, deals):
    other = services.create_match(user=referee)
    record_all(match, referee, deals)
    services.submit(match.pk, referee)
    client.force_login(admin_user)
    response = client.post(
        "/admin/scoring/match/",
        {"action": "confirm_matches", "_selected_action": [match.pk, other.pk]},
        follow=True,
    )
    assert response.status_code == 200
    assert Match.objects.get(pk=match.pk).status == Match.Status.CONFIRMED
    assert Match.objects.get(pk=other.pk).status == Match.Status.DRAFT  # refused, not confirmed
    assert Match.objects.get(pk=match.pk).history.filter(confirmed=True).count() == 1
