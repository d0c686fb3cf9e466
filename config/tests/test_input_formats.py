"""Dates, times and numbers in form inputs keep their value in every language.

A browser keeps the value of ``<input type="date">`` only in HTML's ``YYYY-MM-DD`` (and of
``datetime-local``, ``time`` and ``number`` only in theirs): a Russian ``25.05.2025`` was shown
as an empty field and saving the setup erased the tournament's dates. ``config.formats`` puts
HTML's formats first in every language; these tests check every language and every field of
every form in the project, so a form added later is covered without a line here.
"""

from __future__ import annotations

import datetime
import importlib
import pkgutil
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest
from django import forms
from django.conf import settings
from django.utils import formats, timezone, translation

from config.formats import HTML_DATE, HTML_DATETIME, HTML_TIME
from config.tests.html_values import sanitize

LANGUAGES = [code for code, _name in settings.LANGUAGES]
PACKAGES = ("accounts", "scoring", "tournaments", "config")
SAMPLES: dict[str, Any] = {
    "date": datetime.date(2026, 5, 25),
    "datetime-local": datetime.datetime(2026, 5, 25, 18, 30, 15, tzinfo=datetime.UTC),
    "time": datetime.time(18, 30, 15),
    "number": Decimal("1.5"),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_language_reads_and_writes_html_formats_first(language: str) -> None:
    assert formats.get_format("DATE_INPUT_FORMATS", language)[0] == HTML_DATE
    assert formats.get_format("DATETIME_INPUT_FORMATS", language)[0] == HTML_DATETIME
    assert formats.get_format("TIME_INPUT_FORMATS", language)[0] == HTML_TIME


def test_russian_dates_typed_as_text_still_parse() -> None:
    with translation.override("ru"):
        field = forms.DateField()
        assert field.clean("25.05.2026") == field.clean("2026-05-25") == SAMPLES["date"]
        assert formats.date_format(SAMPLES["date"], "SHORT_DATE_FORMAT") == "25.05.2026"


def _project_forms() -> Iterator[type[forms.BaseForm]]:
    for package in PACKAGES:
        root = importlib.import_module(package)
        for info in pkgutil.walk_packages(root.__path__, f"{package}."):
            if ".tests" in info.name or ".migrations" in info.name or "management" in info.name:
                continue
            importlib.import_module(info.name)
    seen: set[type] = set()
    todo = list(forms.BaseForm.__subclasses__())
    while todo:
        cls = todo.pop()
        if cls in seen:
            continue
        seen.add(cls)
        todo += cls.__subclasses__()
        if cls.__module__.split(".")[0] in PACKAGES and ".tests" not in cls.__module__:
            yield cls


def _typed_fields() -> list[tuple[str, str, forms.Field, str]]:
    """(form, field, the field, its input type) for every field with an HTML-typed input."""
    found = []
    for form in _project_forms():
        for name, field in form.base_fields.items():
            kind = field.widget.attrs.get("type") or getattr(field.widget, "input_type", "")
            if kind in SAMPLES:
                found.append((f"{form.__module__}.{form.__name__}", name, field, kind))
    return found


def test_the_form_finder_sees_the_date_fields() -> None:
    # guards the test below: finding no field would check nothing
    found = {(form.rsplit(".", 1)[-1], name) for form, name, _f, _k in _typed_fields()}
    assert {("TournamentForm", "start_date"), ("TournamentForm", "end_date")} <= found


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_typed_input_of_every_form_renders_a_value_the_browser_keeps(language: str) -> None:
    lost = []
    with translation.override(language):
        for form, name, field, kind in _typed_fields():
            sample = SAMPLES[kind]
            if kind == "number" and isinstance(field, forms.IntegerField):
                sample = 7
            shown = str(field.widget.format_value(field.prepare_value(sample)))
            if sanitize(kind, shown) != shown:
                lost.append(f"{form}.{name}: {shown!r} in <input type={kind}>")
            elif field.to_python(shown) != sample:
                lost.append(f"{form}.{name}: {shown!r} reads back as {field.to_python(shown)!r}")
    assert not lost, "the browser drops these values:\n" + "\n".join(lost)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_date_and_time_field_keeps_its_instant_and_its_seconds(language: str) -> None:
    # no form has one yet; the first one gets Django's widget with the HTML type
    field = forms.DateTimeField(widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))
    sample = SAMPLES["datetime-local"]
    with translation.override(language):
        shown = field.widget.format_value(field.prepare_value(sample))
        # the time of TIME_ZONE (Moscow), as the clock in the hall shows it
        assert shown == timezone.localtime(sample).strftime("%Y-%m-%dT%H:%M:%S")
        assert sanitize("datetime-local", shown) == shown
        assert field.clean(shown) == sample
