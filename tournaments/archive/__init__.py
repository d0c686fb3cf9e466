"""The tournament archive: a whole tournament as one JSON document, and its import.

Owns: ``format`` (the document's sections and the kind of every field), ``export`` (writing it),
``reader`` (reading and checking an archive before anything is written: shape, references, the
rules engine's judgement of every deal), ``importer`` (writing a checked archive as a new
tournament, all or nothing), the download and import pages (``views``) and API (``api``). The
``export_tournament`` and ``import_tournament`` management commands call it.

The outermost concern: it may read and write every table of the tournaments app, and no other
concern imports it. ``docs/archive.md`` describes the document.
"""

from tournaments.archive.export import dumps, export_tournament
from tournaments.archive.importer import import_tournament
from tournaments.archive.reader import load_file, read_archive

__all__ = ["dumps", "export_tournament", "import_tournament", "load_file", "read_archive"]
