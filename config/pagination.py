"""The API's pagination: DRF's page numbers, refusing a ``page`` that is not a whole number ≥ 1
(``?page=``, ``?page=abc``) with DRF's own 404 ``Invalid page``, as the schema's integer says,
instead of quietly showing page 1. A module of its own: the settings name it, and the schema
module (which imports drf-spectacular, which reads the settings) cannot hold it."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import pagination
from rest_framework.exceptions import NotFound


class PageNumberPagination(pagination.PageNumberPagination):
    def get_page_number(self, request: Any, paginator: Any) -> Any:
        value = request.query_params.get(self.page_query_param)
        if value is not None and not (value.isascii() and value.isdigit() and int(value) >= 1):
            raise NotFound(_("Invalid page."))
        return super().get_page_number(request, paginator)
