"""The form helper of the round-trip tests sends what a browser sends (guards those tests)."""

from __future__ import annotations

import pytest

from config.tests.browser_forms import FormPage
from config.tests.html_values import sanitize

PAGE = """<form id="f" method="post" action="/save/">
<input type="date" name="d1" value="25.05.2026"><input type="date" name="d2" value="2026-05-25">
<input type="number" name="n1" value="1,5"><input type="number" name="n2" value="7" min="1">
<input type="checkbox" name="off"><input type="checkbox" name="on" checked>
<input type="radio" name="r" value="a" checked><input type="radio" name="r" value="b" checked>
<select name="s1"><option value="x">X</option><option value="y">Y</option></select>
<select name="s2"><option value="x">X</option><option value="y" selected>Y</option></select>
<textarea name="t">
две
строки</textarea><input name="gone" value="1" disabled>
<fieldset disabled><input name="gone2" value="1"></fieldset>
<button name="go" value="1">Save</button></form>
<input name="outside" value="o" form="f">"""


def test_the_entry_list_is_the_browsers() -> None:
    form = FormPage(PAGE, "/page/").form("#f")
    assert form.entries() == [
        ("d1", ""), ("d2", "2026-05-25"), ("n1", ""), ("n2", "7"), ("on", "on"), ("r", "b"),
        ("s1", "x"), ("s2", "y"), ("t", "две\r\nстроки"), ("outside", "o"),
    ]  # fmt: skip


def test_constraint_validation_stops_what_the_browser_stops() -> None:
    form = FormPage(PAGE, "/page/").form("#f")
    assert form.problems() == []
    form.fill(n2="0")
    assert form.problems() == ["n2='0': below min 1"]
    form.fill(n2="1.5")
    assert form.problems() == ["n2='1.5': not a multiple of step 1"]


@pytest.mark.parametrize(("kind", "value", "kept"), [
    ("date", "2026-02-29", ""), ("date", "2028-02-29", "2028-02-29"), ("date", "05/25/2026", ""),
    ("number", "-1.5e3", "-1.5e3"), ("number", "1 000", ""), ("time", "18:30", "18:30"),
    ("datetime-local", "2026-05-25 18:30:00", "2026-05-25T18:30"), ("text", "a\nb", "ab"),
])  # fmt: skip
def test_value_sanitization(kind: str, value: str, kept: str) -> None:
    assert sanitize(kind, value) == kept
