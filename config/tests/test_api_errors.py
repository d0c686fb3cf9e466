"""Flattening DRF's nested error details into the one error list."""

from rest_framework import exceptions

from config.api_errors import flatten_errors


def _details(detail):
    return exceptions.ValidationError(detail).get_full_details()


def test_field_errors_keep_the_field_name_and_code() -> None:
    details = _details({"name": [exceptions.ErrorDetail("Too long.", code="max_length")]})
    assert list(flatten_errors(details)) == [
        {"code": "max_length", "message": "Too long.", "field": "name"}
    ]


def test_non_field_errors_have_no_field() -> None:
    details = _details({"non_field_errors": [exceptions.ErrorDetail("Bad.", code="invalid")]})
    assert list(flatten_errors(details)) == [{"code": "invalid", "message": "Bad.", "field": None}]


def test_nested_objects_and_lists_get_dotted_paths() -> None:
    details = _details(
        {
            "players": [
                {},
                {"name": [exceptions.ErrorDetail("Required.", code="required")]},
            ],
            "seat": {"tile": [exceptions.ErrorDetail("Unknown tile.", code="invalid")]},
        }
    )
    assert list(flatten_errors(details)) == [
        {"code": "required", "message": "Required.", "field": "players.1.name"},
        {"code": "invalid", "message": "Unknown tile.", "field": "seat.tile"},
    ]


def test_several_messages_for_one_field_give_several_items() -> None:
    details = _details(
        {
            "password": [
                exceptions.ErrorDetail("Too short.", code="password_too_short"),
                exceptions.ErrorDetail("Too common.", code="password_too_common"),
            ]
        }
    )
    assert [item["code"] for item in flatten_errors(details)] == [
        "password_too_short",
        "password_too_common",
    ]
    assert {item["field"] for item in flatten_errors(details)} == {"password"}


def test_a_plain_list_of_errors_has_no_field() -> None:
    details = _details([exceptions.ErrorDetail("Nope.", code="invalid")])
    assert list(flatten_errors(details)) == [{"code": "invalid", "message": "Nope.", "field": None}]
