"""What an ``<input>`` of each HTML type keeps of a value and which values it refuses to send.

``sanitize`` is the HTML standard's *value sanitization algorithm*: a value the type cannot
hold becomes empty (``25.05.2026`` in a date input, ``1,5`` in a number input), as it does when
the browser reads the page. ``range_problems`` is the part of constraint validation that
stops a form from being sent: below ``min``, above ``max``, off ``step``. Used by
``config.tests.browser_forms``.
"""

from __future__ import annotations

import calendar
import re
from decimal import Decimal, InvalidOperation

_DATE = re.compile(r"(\d{4,})-(\d\d)-(\d\d)")
_TIME = re.compile(r"([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(\.\d{1,3})?)?")
_NUMBER = re.compile(r"-?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?")


def _valid_date(text: str) -> bool:
    match = _DATE.fullmatch(text)
    if not match:
        return False
    year, month, day = (int(g) for g in match.groups())
    if year < 1 or not 1 <= month <= 12:
        return False
    return 1 <= day <= (29 if month == 2 and calendar.isleap(year) else
                        calendar.monthrange(2001, month)[1])  # fmt: skip


def _datetime_local(text: str) -> str:
    date, sep, time = text.partition("T") if "T" in text else text.partition(" ")
    if not sep or not _valid_date(date) or not _TIME.fullmatch(time):
        return ""
    # the normalized form: "T" between, seconds only when they are not zero
    time = re.sub(r"(:00)?(\.0+)?$", "", time) if len(time) > 5 else time
    return f"{date}T{time}"


def sanitize(input_type: str, value: str) -> str:
    """The value an ``<input type=input_type>`` keeps of ``value`` (the spec's sanitization)."""
    if input_type in ("text", "search", "tel", "password"):
        return value.replace("\n", "").replace("\r", "")
    if input_type in ("email", "url"):
        return value.replace("\n", "").replace("\r", "").strip(" \t\f")
    if input_type == "number":
        return value if _NUMBER.fullmatch(value) else ""
    if input_type == "date":
        return value if _valid_date(value) else ""
    if input_type == "time":
        return value if _TIME.fullmatch(value) else ""
    if input_type == "datetime-local":
        return _datetime_local(value)
    if input_type == "month":
        return value if re.fullmatch(r"\d{4,}-(0[1-9]|1[0-2])", value) else ""
    if input_type == "week":
        return value if re.fullmatch(r"\d{4,}-W(0[1-9]|[1-4]\d|5[0-3])", value) else ""
    if input_type == "color":
        return value.lower() if re.fullmatch(r"#[0-9a-fA-F]{6}", value) else "#000000"
    return value  # hidden, checkbox, radio, file, buttons: no sanitization


def _number(input_type: str, text: str) -> Decimal | None:
    if input_type in ("number", "range"):
        try:
            return Decimal(text) if _NUMBER.fullmatch(text) else None
        except InvalidOperation:
            return None
    if input_type == "date" and _valid_date(text):
        year, month, day = (int(g) for g in text.split("-"))
        return Decimal(year * 10000 + month * 100 + day)
    return None


def range_problems(input_type: str, text: str, attrs: dict[str, str]) -> list[str]:
    """Why the browser's constraint validation refuses ``text`` (min, max, step), if it does."""
    value = _number(input_type, text)
    if value is None:
        return []
    found = []
    low = _number(input_type, attrs.get("min", ""))
    high = _number(input_type, attrs.get("max", ""))
    if low is not None and value < low:
        found.append(f"below min {attrs['min']}")
    if high is not None and value > high:
        found.append(f"above max {attrs['max']}")
    if input_type == "number" and attrs.get("step", "").lower() != "any":
        step = _number("number", attrs.get("step", "1")) or Decimal(1)
        base = low if low is not None else (_number("number", attrs.get("value", ""))
                                            or Decimal(0))  # fmt: skip
        if (value - base) % step:
            found.append(f"not a multiple of step {step}")
    return found
