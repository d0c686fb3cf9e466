"""The API base: token auth, one error format, the OpenAPI schema and its docs."""

import pytest
from django.contrib.auth.models import Group, User
from rest_framework.test import APIClient

from accounts import roles

pytestmark = pytest.mark.django_db


@pytest.fixture
def api() -> APIClient:
    return APIClient()


@pytest.fixture
def referee() -> User:
    user = User.objects.create_user("ref", password="s3cret-pass", first_name="Семён")
    user.groups.add(Group.objects.get(name=roles.REFEREE))
    return user


def test_token_is_issued_for_valid_credentials_and_authenticates(api, referee) -> None:
    response = api.post(
        "/api/v1/auth/token/", {"username": "ref", "password": "s3cret-pass"}, format="json"
    )
    assert response.status_code == 200
    token = response.json()["token"]

    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    me = api.get("/api/v1/me/")
    assert me.status_code == 200
    assert me.json()["username"] == "ref"
    assert me.json()["roles"] == [roles.REFEREE]


def test_bad_login_answers_400_in_the_error_format(api, referee) -> None:
    response = api.post(
        "/api/v1/auth/token/", {"username": "ref", "password": "wrong"}, format="json"
    )
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert len(errors) == 1
    assert errors[0]["code"] == "authorization"
    assert errors[0]["field"] is None
    assert errors[0]["message"]


def test_missing_fields_are_named_in_the_errors(api) -> None:
    response = api.post("/api/v1/auth/token/", {"username": "ref"}, format="json")
    assert response.status_code == 400
    assert response.json() == {
        "errors": [{"code": "required", "message": "Обязательное поле.", "field": "password"}]
    }


def test_error_messages_follow_the_chosen_language(api) -> None:
    api.cookies["django_language"] = "en"
    response = api.post("/api/v1/auth/token/", {"username": "ref"}, format="json")
    assert response.json()["errors"][0]["message"] == "This field is required."


def test_anonymous_me_is_401_in_the_error_format(api) -> None:
    response = api.get("/api/v1/me/")
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"] == "Token"
    [error] = response.json()["errors"]
    assert error["code"] == "not_authenticated"
    assert error["field"] is None


def test_unknown_object_is_404_in_the_error_format(api) -> None:
    response = api.get("/api/v1/tournaments/999999/")
    assert response.status_code == 404
    assert response.json()["errors"][0]["code"] == "not_found"


def test_wrong_method_is_405_in_the_error_format(api, referee) -> None:
    api.force_authenticate(referee)
    response = api.delete("/api/v1/me/")
    assert response.status_code == 405
    assert response.json()["errors"][0]["code"] == "method_not_allowed"


def test_schema_is_openapi_3_and_lists_the_endpoints(api) -> None:
    response = api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    assert {"/api/v1/auth/token/", "/api/v1/me/", "/api/v1/tournaments/"} <= set(schema["paths"])


def test_schema_generates_without_warnings() -> None:
    from drf_spectacular.drainage import GENERATOR_STATS
    from drf_spectacular.generators import SchemaGenerator

    GENERATOR_STATS.reset()
    SchemaGenerator().get_schema(request=None, public=True)
    assert not GENERATOR_STATS._warn_cache
    assert not GENERATOR_STATS._error_cache


def test_api_docs_pages_render(client) -> None:
    assert client.get("/api/docs/").status_code == 200
    assert client.get("/api/redoc/").status_code == 200
