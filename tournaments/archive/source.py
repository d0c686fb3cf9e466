"""Which tournament an archive is: the ``source`` an export writes, and the copy here that
already holds an archive.

    source_of(tournament) -> str        "<pk>.<signature>" of this site, or the source of the
                                        import the tournament came from (export → import →
                                        export is still the same tournament)
    existing_copy(sha256, source)       the tournament here holding this archive or this exported
                                        tournament, or None

The signature (an HMAC of the site's secret) makes a source of this site unforgeable: an
archive cannot claim to be another organiser's tournament to learn of it.
"""

from __future__ import annotations

from django.utils.crypto import constant_time_compare, salted_hmac

from tournaments.models import ArchiveImport, Tournament


def _signature(pk: int) -> str:
    return salted_hmac("tournaments.archive.source", str(pk)).hexdigest()[:24]


def source_of(tournament: Tournament) -> str:
    """The exported tournament an archive of ``tournament`` names: its own import's source when
    it was imported (so export → import → export → import is still the same tournament)."""
    record = ArchiveImport.objects.filter(tournament=tournament).first()
    if record is not None and record.source:
        return record.source
    return f"{tournament.pk}.{_signature(tournament.pk)}"


def _local(source: str) -> Tournament | None:
    pk, _dot, signature = source.partition(".")
    if not pk.isdigit() or not constant_time_compare(signature, _signature(int(pk))):
        return None
    return Tournament.objects.filter(pk=int(pk)).first()


def existing_copy(sha256: str, source: str) -> Tournament | None:
    """The tournament here that already holds this archive or this exported tournament."""
    record = ArchiveImport.objects.filter(sha256=sha256).select_related("tournament").first()
    if record is None and source:
        record = ArchiveImport.objects.filter(source=source).select_related("tournament").first()
    if record is not None:
        return record.tournament
    return _local(source) if source else None
