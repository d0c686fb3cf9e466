"""Every user-visible string has a Russian translation: the interface is Russian by default."""

from __future__ import annotations

import gettext
import re
from pathlib import Path

CATALOGUE = Path(__file__).resolve().parents[2] / "locale" / "ru" / "LC_MESSAGES" / "django.po"


def _entries(text: str) -> list[dict[str, str]]:
    """A small reader of a .po file: flags, msgid and msgstr (plural forms joined)."""
    entries = []
    for block in re.split(r"\n\s*\n", text):
        lines = [line for line in block.splitlines() if not line.startswith("#~")]
        flags = " ".join(line for line in lines if line.startswith("#,"))
        fields: dict[str, str] = {"flags": flags}
        key = ""
        for line in lines:
            match = re.match(r'(msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?) "(.*)"$', line)
            if match:
                key = match.group(1)
                fields[key] = fields.get(key, "") + match.group(2)
            elif line.startswith('"') and key:
                fields[key] += line.strip('"')
        if "msgid" in fields:
            entries.append(fields)
    return entries


def _unescape(text: str) -> str:
    return text.encode().decode("unicode_escape").encode("latin-1").decode()


def test_russian_catalogue_translates_every_string_and_has_no_fuzzy_guesses() -> None:
    entries = [e for e in _entries(CATALOGUE.read_text(encoding="utf-8")) if e["msgid"]]
    assert len(entries) > 300
    fuzzy = [e["msgid"] for e in entries if "fuzzy" in e["flags"]]
    missing = [
        e["msgid"] for e in entries
        if not any(v for k, v in e.items() if k.startswith("msgstr"))
    ]  # fmt: skip
    assert not fuzzy, f"fuzzy (unchecked) translations: {fuzzy[:10]}"
    assert not missing, f"untranslated: {missing[:10]}"


def test_compiled_catalogue_matches_its_source() -> None:
    """The committed .mo is what the app reads; it must say what the .po says."""
    with CATALOGUE.with_suffix(".mo").open("rb") as fh:
        compiled = gettext.GNUTranslations(fh)
    for entry in _entries(CATALOGUE.read_text(encoding="utf-8")):
        if entry["msgid"] and "msgstr" in entry and "msgid_plural" not in entry:
            msgid, expected = _unescape(entry["msgid"]), _unescape(entry["msgstr"])
            if "msgctxt" in entry:  # a word that reads otherwise in one place
                assert compiled.pgettext(_unescape(entry["msgctxt"]), msgid) == expected, msgid
            else:
                assert compiled.gettext(msgid) == expected, msgid
