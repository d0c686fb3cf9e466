"""Tables of the tournaments app and the invariants the database enforces for them.

    players        Club, Player (the registry every tournament shares)
    registration   Tournament (its setup), Entry
    attendance     EntryAbsence (an entry out of a round), RollCall (present or late before it)
    rounds         Round, Pairing (a table or a bye), PairingEntry (a side of a table)
    results        Sanction (the chief referee's), Standing (a finished round's snapshot),
                   RoundGames (a finished round's games, for the later live standings)
    imports        ArchiveImport (who imported which archive into a tournament, when)
    ratings        PlayerRating, RatingChange (derived: tournaments.ratings), RatingsJob, Season
    prizes         Category, Prize (a prize list: categories of players, prizes by place)
    stages         Stage (a final stage: the knock-out after the qualifying rounds)
    substitutes    Substitute (who plays for an entry's player in some rounds)

Every model keeps the app label ``tournaments`` and its table; import them from here.
"""

from tournaments.models.attendance import EntryAbsence, RollCall
from tournaments.models.imports import ArchiveImport, PendingImport
from tournaments.models.players import Club, Player
from tournaments.models.prizes import Category, Prize
from tournaments.models.ratings import (
    DISPLAY_SCALE,
    PlayerRating,
    RatingChange,
    RatingsJob,
    Season,
)
from tournaments.models.registration import (
    TIE_BREAKS,
    Entry,
    Tournament,
    default_tie_breaks,
)
from tournaments.models.results import (
    MAX_SANCTION_GAME_POINTS,
    MAX_SANCTION_MATCH_POINTS,
    RoundGames,
    Sanction,
    Standing,
)
from tournaments.models.rounds import SIDE_ORDER, Pairing, PairingEntry, Round
from tournaments.models.stages import Stage
from tournaments.models.substitutes import Substitute

__all__ = [
    "DISPLAY_SCALE", "PlayerRating", "RatingChange", "RatingsJob", "Season",
    "MAX_SANCTION_GAME_POINTS", "MAX_SANCTION_MATCH_POINTS", "SIDE_ORDER", "TIE_BREAKS",
    "ArchiveImport", "Category", "Club",
    "Entry", "EntryAbsence", "RollCall", "Pairing", "PairingEntry", "PendingImport", "Player",
    "Prize", "Round",
    "RoundGames",
    "Sanction", "Stage", "Standing",
    "Substitute",
    "Tournament", "default_tie_breaks",
]
