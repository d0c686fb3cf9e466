"""Each entry's own page, opened without an account by its personal link ``/p/<token>/``
(a QR code on the printed table list and on the pairing slips).

    page.find(token) -> Entry | None     the entry of a well-formed key (one indexed query)
    page.personal_page(entry) -> Page    the next table and seats, opponents, the clock, the
                                         results so far and the place: published rounds only
    services.new_link(user, entry_id)    a new key for the entry (the old link stops working),
                                         audited; the tournament's organisers only
    views                                the page, its fragment and clock, the organiser's button

The key is the only credential: it is random (``Entry.token``), never listed on a public page,
and an address that tries many wrong keys is refused for a while (``views``). The page shows
what the entry may know of its own event whether the tournament is public or not, and nothing
of a round before it is published. It updates itself through the push (``tournaments.live``:
the socket ``/ws/live/p/<token>/`` hears the tournament's public parts, never data).
"""
