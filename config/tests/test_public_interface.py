"""The site's public interface does not change by accident: every route (path and name) and the
OpenAPI schema are compared with the copies kept beside this file.

A deliberate change of a route or of the API updates the copy in the same commit, so the diff
shows it to the reviewer:

    .venv/bin/python manage.py spectacular --file config/tests/api_schema.yaml   # on PostgreSQL
    .venv/bin/python -c 'from config.tests.test_public_interface import routes; print(routes())' \
        > config/tests/routes.txt

The schema is taken on PostgreSQL (CI's database): integer bounds in it follow the backend.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import URLPattern, URLResolver, get_resolver

HERE = Path(__file__).resolve().parent


def _walk(patterns: Iterable[URLPattern | URLResolver], prefix: str = "",
          namespace: str = "") -> Iterator[str]:  # fmt: skip
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            yield from _walk(pattern.url_patterns, prefix + str(pattern.pattern), inner)
        else:
            yield f"{prefix}{pattern.pattern}  {namespace}{pattern.name or ''}"


def routes() -> str:
    """Every route but the admin's, one ``path  name`` a line, sorted."""
    lines = sorted({line for line in _walk(get_resolver().url_patterns)
                    if not line.startswith("admin/")})  # fmt: skip
    return "\n".join(lines) + "\n"


def test_the_routes_are_the_ones_kept() -> None:
    assert routes() == (HERE / "routes.txt").read_text()


@pytest.mark.django_db
def test_the_api_schema_is_the_one_kept(require_postgres: None, tmp_path: Path) -> None:
    generated = tmp_path / "schema.yaml"
    call_command("spectacular", "--file", str(generated))
    kept = (HERE / "api_schema.yaml").read_text()
    assert generated.read_text() == kept, (
        "the OpenAPI schema changed: if on purpose, regenerate config/tests/api_schema.yaml"
    )
