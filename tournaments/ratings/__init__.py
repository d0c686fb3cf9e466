"""Ratings: every player's club rating, recomputed in order from the confirmed matches.

Owns: ``compute`` (openskill's team model over plain matches: pairs are teams of two, partners
drawn each round a team per match, each-for-himself tables several one-player teams), ``services``
(the rated history loaded in order, replayed from the first match that changed and written in one
transaction), ``jobs`` (a recompute asked for by every change, coalesced, run on its own queue,
its outcome or failure recorded), ``tasks`` (the Celery task), ``signals`` (a tournament made
private or public, rated or unrated, or moved recomputes them), ``selectors`` (the rating list, a
player's history), ``chart`` (the history as a server-drawn SVG), the public pages (``views``)
and the API (``api``).

Rates only public tournaments' matches, so its pages and API may show everything they hold.
Must not: import rounds, results, discipline or archive (rounds schedule it; the player's page of
results reads its tables); write anything but ``PlayerRating``, ``RatingChange`` and ``RatingsJob``.
"""

from tournaments.ratings.services import rated_history, recompute
from tournaments.ratings.tasks import schedule

__all__ = ["rated_history", "recompute", "schedule"]
