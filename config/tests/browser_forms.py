"""Forms as a browser sees and sends them, for tests that drive pages with Django's test Client.

A page's forms are read with the standard library's ``html.parser`` and submitted the way the
HTML Living Standard says a browser builds the entry list: disabled controls and unchecked boxes
left out, a select without a ``selected`` option sending its first option, a textarea without
the newline after its start tag and with its line breaks as CRLF. Every input's value goes
through its type's *value sanitization* first, so what a browser throws away is thrown away here
too: a date rendered as ``25.05.2025`` in ``<input type="date">`` is sent empty, ``1,5`` in
``<input type="number">`` too. A form the browser would refuse to send (a required field empty,
a number out of range or off its step) fails the test instead of being posted. What each input
type keeps and refuses is ``config.tests.html_values``.

    page = FormPage.load(client, url)
    form = page.form("#setup-form")                 # by id; or page.form(action="/absence/")
    form.fill(name="Кубок", start_date="2026-05-25")   # as typed: sanitized by the input's type
    response = form.submit(client)                  # what the browser would post
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urlencode, urljoin

from config.tests.html_values import range_problems, sanitize

_NEWLINES = re.compile(r"\r\n|\r|\n")
#: controls whose value is typed text (the rest are checked, chosen or uploaded)
_CHOICE_TYPES = {"checkbox", "radio"}
_BUTTON_TYPES = {"submit", "image", "reset", "button"}


@dataclass
class Option:
    value: str
    label: str
    selected: bool
    disabled: bool


@dataclass
class Control:
    tag: str  # input, select, textarea, button
    type: str
    name: str
    attrs: dict[str, str]
    value: str = ""
    checked: bool = False
    disabled: bool = False
    options: list[Option] = field(default_factory=list)
    upload: Any = None  # a file given with fill() (SimpleUploadedFile)

    @property
    def multiple(self) -> bool:
        return "multiple" in self.attrs

    def chosen(self) -> list[Option]:
        """The options a browser has selected: the ``selected`` ones, else (a single select)
        the first option that is not disabled."""
        picked = [o for o in self.options if o.selected]
        if self.multiple:
            return picked
        if picked:
            return picked[-1:]
        first = next((o for o in self.options if not o.disabled), None)
        return [first] if first else []


class Form:
    def __init__(self, attrs: dict[str, str], url: str) -> None:
        self.attrs, self.url = attrs, url
        self.controls: list[Control] = []

    def __repr__(self) -> str:
        return f"<Form {self.attrs.get('id') or self.attrs.get('action') or self.url}>"

    def named(self, name: str) -> list[Control]:
        found = [c for c in self.controls if c.name == name and c.type not in _BUTTON_TYPES]
        assert found, f"{self!r} has no field {name!r}: {sorted({c.name for c in self.controls})}"
        return found

    def fill(self, values: dict[str, Any] | None = None, **more: Any) -> Form:
        """Type, tick, choose or upload, as a user would; a value the control cannot take
        (an option that is not there, text longer than ``maxlength``) fails the test."""
        for name, value in {**(values or {}), **more}.items():
            controls = self.named(name)
            first = controls[0]
            if first.type == "radio":
                assert any(c.value == str(value) for c in controls), f"{name}: no radio {value!r}"
                for c in controls:
                    c.checked = c.value == str(value)
            elif first.type == "checkbox":
                for c in controls:
                    if isinstance(value, list | tuple | set):  # tick these, untick the rest
                        c.checked = c.value in {str(v) for v in value}
                    else:
                        c.checked = bool(value) if not isinstance(value, str) else c.value == value
            elif first.tag == "select":
                wanted = {str(v) for v in value} if isinstance(value, list | tuple | set) else {
                    str(value)}  # fmt: skip
                values_there = {o.value for o in first.options}
                assert wanted <= values_there, f"{name}: no option {wanted - values_there}"
                for o in first.options:
                    o.selected = o.value in wanted
            elif first.type == "file":
                first.upload = value
            else:
                text = "" if value is None else str(value)
                limit = first.attrs.get("maxlength")
                assert limit is None or len(text) <= int(limit), f"{name}: longer than {limit}"
                first.value = text if first.tag == "textarea" else sanitize(first.type, text)
        return self

    def value(self, name: str) -> Any:
        """What the browser shows in the field (a list for a multiple select)."""
        first = self.named(name)[0]
        if first.tag == "select":
            chosen = [o.value for o in first.chosen()]
            return chosen if first.multiple else (chosen or [""])[0]
        if first.type in _CHOICE_TYPES:
            return [c.value for c in self.named(name) if c.checked]
        return first.value

    def entries(self, submitter: Control | None = None) -> list[tuple[str, Any]]:
        """The entry list a browser builds when the form is submitted by ``submitter``."""
        out: list[tuple[str, Any]] = []
        for c in self.controls:
            if c.disabled or not c.name:
                continue
            if c.type in _BUTTON_TYPES or c.tag == "button":
                if c is submitter:
                    out.append((c.name, c.value))
            elif c.type in _CHOICE_TYPES:
                if c.checked:
                    out.append((c.name, c.value if "value" in c.attrs else "on"))
            elif c.tag == "select":
                out += [(c.name, o.value) for o in c.chosen() if not o.disabled]
            elif c.type == "file":
                if c.upload is not None:
                    out.append((c.name, c.upload))
            else:
                out.append((c.name, c.value))
        # every line break in a name or value is sent as CRLF
        return [(_NEWLINES.sub("\r\n", n), _NEWLINES.sub("\r\n", v) if isinstance(v, str) else v)
                for n, v in out]  # fmt: skip

    def problems(self) -> list[str]:
        """Why a browser would not submit the form (constraint validation), if it would not."""
        if "novalidate" in self.attrs:
            return []
        found = []
        radios_done: set[str] = set()
        for c in self.controls:
            if c.disabled or c.type in _BUTTON_TYPES or c.tag == "button" or c.type == "hidden":
                continue
            required = "required" in c.attrs
            if c.type == "radio":
                if required and c.name not in radios_done and not self.value(c.name):
                    found.append(f"{c.name}: choose one")
                radios_done.add(c.name)
            elif c.type == "checkbox":
                if required and not c.checked:
                    found.append(f"{c.name}: must be ticked")
            elif c.tag == "select":
                chosen = c.chosen()
                if required and (not chosen or chosen[0].value == ""):
                    found.append(f"{c.name}: choose an option")
            elif c.type == "file":
                if required and c.upload is None:
                    found.append(f"{c.name}: choose a file")
            elif c.value == "":
                if required:
                    found.append(f"{c.name}: required")
            else:
                problems = range_problems(c.type, c.value, c.attrs)
                found += [f"{c.name}={c.value!r}: {p}" for p in problems]
                pattern = c.attrs.get("pattern")
                if pattern and not re.fullmatch(pattern, c.value):
                    found.append(f"{c.name}={c.value!r}: does not match {pattern}")
        return found

    def submit(self, client: Any, button: str | None = None, **extra: Any) -> Any:
        """Post (or get) what a browser would send; ``button`` is the submit button's text."""
        submitter = None
        if button is not None:
            buttons = [c for c in self.controls if c.tag == "button" or c.type == "submit"]
            submitter = next((c for c in buttons if button in (c.attrs.get("_text"), c.value)),
                             None)  # fmt: skip
            assert submitter, f"{self!r} has no button {button!r}"
        problems = self.problems()
        assert not problems, f"the browser would not submit {self!r}: {problems}"
        attrs = {**self.attrs, **{k[4:]: v for k, v in (submitter.attrs if submitter else {})
                                  .items() if k.startswith("form") and v}}  # fmt: skip
        action = urljoin(self.url, attrs.get("action") or self.url)
        entries = self.entries(submitter)
        if attrs.get("method", "get").lower() != "post":
            return client.get(action, entries, **extra)
        if attrs.get("enctype") == "multipart/form-data":
            data: dict[str, list[Any]] = {}
            for name, value in entries:
                data.setdefault(name, []).append(value)
            return client.post(action, data, **extra)
        return client.post(action, urlencode(entries), **extra,
                           content_type="application/x-www-form-urlencoded")  # fmt: skip


class _Parser(HTMLParser):
    def __init__(self, url: str) -> None:
        super().__init__(convert_charrefs=True)
        self.url = url
        self.forms: list[Form] = []
        self.by_id: dict[str, Form] = {}
        self.orphans: list[tuple[str, Control]] = []  # controls with form="id"
        self.form: Form | None = None
        self.select: Control | None = None
        self.option: dict[str, Any] | None = None
        self.text: Control | None = None  # a textarea or button collecting its text
        self.fieldsets: list[bool] = []  # open <fieldset>s: disabled or not
        self.optgroup_disabled = False

    def _add(self, control: Control, attrs: dict[str, str]) -> None:
        control.disabled = "disabled" in attrs or any(self.fieldsets)
        if "form" in attrs:
            self.orphans.append((attrs["form"], control))
        elif self.form is not None:
            self.form.controls.append(control)

    def handle_starttag(self, tag: str, attr_list: list[tuple[str, str | None]]) -> None:
        attrs = {k: (v if v is not None else "") for k, v in attr_list}
        if tag == "form":
            if self.form is None:  # a form inside a form is ignored, as by the HTML parser
                self.form = Form(attrs, self.url)
                self.forms.append(self.form)
                if "id" in attrs:
                    self.by_id[attrs["id"]] = self.form
        elif tag == "fieldset":
            self.fieldsets.append("disabled" in attrs)
        elif tag == "input":
            kind = attrs.get("type", "text").lower()
            control = Control("input", kind, attrs.get("name", ""), attrs,
                              value=sanitize(kind, attrs.get("value", "")),
                              checked="checked" in attrs)  # fmt: skip
            if kind == "radio" and control.checked and self.form is not None:
                for other in self.form.controls:  # one checked radio per group
                    if other.type == "radio" and other.name == control.name:
                        other.checked = False
            self._add(control, attrs)
        elif tag == "select":
            self.select = Control("select", "select", attrs.get("name", ""), attrs)
            self._add(self.select, attrs)
        elif tag == "optgroup":
            self.optgroup_disabled = "disabled" in attrs
        elif tag == "option" and self.select is not None:
            self._close_option()
            self.option = {"attrs": attrs, "text": "", "disabled": self.optgroup_disabled}
        elif tag in ("textarea", "button"):
            kind = "textarea" if tag == "textarea" else attrs.get("type", "submit").lower()
            self.text = Control(tag, kind, attrs.get("name", ""), attrs,
                                value=attrs.get("value", "") if tag == "button" else "")
            self.text.attrs["_text"] = ""
            self._add(self.text, attrs)

    def _close_option(self) -> None:
        if self.option is None or self.select is None:
            return
        attrs, text = self.option["attrs"], " ".join(self.option["text"].split())
        self.select.options.append(Option(
            value=attrs.get("value", text), label=text, selected="selected" in attrs,
            disabled="disabled" in attrs or self.option["disabled"],
        ))  # fmt: skip
        self.option = None

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.form = None
        elif tag == "fieldset" and self.fieldsets:
            self.fieldsets.pop()
        elif tag == "optgroup":
            self.optgroup_disabled = False
        elif tag == "option":
            self._close_option()
        elif tag == "select":
            self._close_option()
            self.select = None
        elif tag in ("textarea", "button") and self.text is not None:
            text = self.text.attrs.pop("_text")
            if tag == "textarea":
                # the newline right after <textarea> is not part of the value
                self.text.value = text[1:] if text.startswith("\n") else text
            else:
                self.text.attrs["_text"] = " ".join(text.split())
            self.text = None

    def handle_data(self, data: str) -> None:
        if self.option is not None:
            self.option["text"] += data
        elif self.text is not None:
            self.text.attrs["_text"] += data


class FormPage:
    """The forms of one page."""

    def __init__(self, html: str, url: str) -> None:
        parser = _Parser(url)
        parser.feed(html)
        parser.close()
        for form_id, control in parser.orphans:
            if form_id in parser.by_id:
                parser.by_id[form_id].controls.append(control)
        self.forms = parser.forms
        self.url = url

    @classmethod
    def load(cls, client: Any, url: str, **extra: Any) -> FormPage:
        response = client.get(url, **extra)
        assert response.status_code == 200, f"GET {url}: {response.status_code}"
        return cls(response.content.decode(), url)

    def form(self, selector: str | None = None, *, action: str | None = None,
             holding: dict[str, Any] | None = None) -> Form:
        """The form with this ``#id``, or the one whose action contains ``action`` and whose
        fields hold the values of ``holding`` (a table's hidden ``pairing``, say)."""
        if selector:
            assert selector.startswith("#"), "select a form by #id or by action"
            found = [f for f in self.forms if f.attrs.get("id") == selector[1:]]
        else:
            found = [f for f in self.forms if action and action in f.attrs.get("action", "")]
        for name, value in (holding or {}).items():
            found = [f for f in found if any(c.name == name and c.value == str(value)
                                             for c in f.controls)]  # fmt: skip
        where = selector or f"{action} {holding or ''}"
        assert len(found) == 1, f"{len(found)} forms match {where} on {self.url}"
        return found[0]
