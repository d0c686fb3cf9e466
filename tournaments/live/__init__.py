"""Pages that update themselves: the server pushes which part of a page changed, the page
re-reads that part through its ordinary (cached, access-checked) view.

    announce(tournament_id, part, round_id=None)   say that a part of a tournament's pages
                                                   changed (after the transaction commits)
    PARTS                                          the parts: standings, pairings, hall,
                                                   board (staff), queue (staff)

What is pushed is only ``{"part", "round", "at"}``: never data, so a message cannot show anyone what
they may not see, and 500 spectators re-reading the standings get the table computed once
(``results.display.cached_results_table``). The push goes through the channel layer
(``settings.CHANNEL_LAYERS``: Redis publish/subscribe in production, so that every web process
hears it; in-process in the embedded mode) to ``consumers.LiveConsumer``; signals connected in
``signals.connect`` announce confirmed protocols, recorded deals, published rounds and
sanctions. The live board of a round (``board``, ``views``) is the staff's page built on it.

This package reads the shared layer and ``scoring``; no other concern imports it except
through ``announce`` (a round clock, for one, calls it when the clock changes).
"""

from tournaments.live.announce import PARTS, announce, flush

__all__ = ["PARTS", "announce", "flush"]
