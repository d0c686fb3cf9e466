"""The tournament routes of the API, assembled from the concerns that serve them.

``/api/v1/tournaments/`` is one viewset (one URL prefix, one schema tag) whose routes belong to
four concerns: setup and registration (``registration.api``), the rounds and closing the event
(``rounds.api``), sanctions (``discipline.api``), substitutes (``substitutes.api``). Each
concern writes its own routes; this module only puts them together, so that no concern imports
another's API.
"""

from __future__ import annotations

from tournaments.discipline.api import TournamentSanctionActions
from tournaments.registration.api import TournamentBaseViewSet
from tournaments.rounds.api import TournamentRoundActions
from tournaments.substitutes.api import TournamentSubstituteActions


class TournamentViewSet(TournamentSubstituteActions, TournamentSanctionActions,
                        TournamentRoundActions, TournamentBaseViewSet):
    pass
