"""Pages that update themselves: the server pushes which part of a page changed, with the part
itself where anyone may see it, or the page re-reads that part through its ordinary (cached,
access-checked) view.

    announce(tournament_id, part, round_id=None)   say that a part of a tournament's pages
                                                   changed (after the transaction commits)
    PARTS                                          the parts: standings, pairings, hall,
                                                   board (staff), queue (staff)

What is pushed is ``{"part", "round", "at"}``, and for the public standings of a public
tournament the table itself, rendered once per language by the announcing process for every
visitor alike (``content``: ``{"key", "v", "html"}`` besides, up to ``LIVE_PUSH_MAX_BYTES``),
so that 5,000 spectators need no request for it. Nothing else carries data: a private
tournament's, an unpublished round's or a staff page's message cannot show anyone what they may
not see, and spectators re-reading the standings get the table computed once
(``results.display.cached_results_table``). The push goes through the channel layer
(``settings.CHANNEL_LAYERS``: Redis publish/subscribe in production, so that every web process
hears it; in-process in the embedded mode) to ``consumers.LiveConsumer``; signals connected in
``signals.connect`` announce confirmed protocols, recorded deals, published rounds and
sanctions. The live board of a round (``board``, ``views``) is the staff's page built on it.

This package reads the shared layer and ``scoring``; no other concern imports it except
through ``announce`` (a round clock, for one, calls it when the clock changes). The fragments
it carries are registered by the wiring (``tournaments.apps``: ``results``' standings), so it
imports no concern for them.
"""

from tournaments.live.announce import PARTS, announce, flush

__all__ = ["PARTS", "announce", "flush"]
