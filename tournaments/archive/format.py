"""The archive's format: its name and version, and the fields of every section with their kind
(how a value is written to the archive and checked when read back). ``docs/archive.md``
describes every key."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from scoring.models import Match, MatchVersion
from tournaments.models import (
    Category,
    Entry,
    PairingEntry,
    Round,
    Sanction,
    Stage,
    Standing,
    Tournament,
)

# Kinds of field: how a value is written to the archive and checked when read back.
STR, INT, INT_NULL, BOOL, JSON = "str", "int", "int?", "bool", "json"
DATE, DATETIME, DATETIME_NULL, USER, UUID = "date", "datetime", "datetime?", "user", "uuid"


FORMAT = "domino-tournament-archive"


VERSION = 1


MAX_ERRORS = 20


def ref(section: str, required: bool = False) -> str:
    """A reference to a row of ``section`` by its archive id (or null unless ``required``)."""
    return f"ref:{section}" + ("!" if required else "")


#: fields added after version 1 was published: an archive written before them reads the default
OPTIONAL: dict[tuple[str, str], object] = {
    ("tournament", "efectividad"): "capped",
    ("tournament", "forfeit_win_percent"): 50,
    ("tournament", "forfeit_loss_percent"): 100,
    ("tournament", "bye_percent"): 50,
    ("tournament", "seed_by_rating"): False,
    # the round clock (issue 17)
    ("tournament", "round_minutes"): None,
    ("rounds", "clock_minutes"): None,
    ("rounds", "clock_extra_minutes"): 0,
    ("rounds", "clock_started_at"): None,
    ("rounds", "clock_paused_at"): None,
    ("rounds", "clock_paused_seconds"): 0,
    ("matches", "clock_ends_at"): None,
    ("matches", "clock_paused_left"): None,
    ("matches", "result_only"): False,
    ("deals", "time_up_by_clock"): False,
    # stages (issue 30): a round of the qualifying stage has none
    ("rounds", "stage"): None,
    # the accelerated Swiss (issue 30)
    ("tournament", "acceleration"): "none",
    # categories and prizes (issue 30)
    ("tournament", "prize_priority"): "overall",
    ("tournament", "prize_ties"): "tiebreak",
    ("tournament", "club_best"): 3,
    ("players", "sex"): "",
    ("players", "birth_year"): None,
}


SEATS = ("seat_n", "seat_e", "seat_s", "seat_w")


#: the deals-won cache of a match (newer installations): derived from the deals like the totals
HAS_DEALS_WON = any(f.name == "deals_won" for f in Match._meta.concrete_fields)


SPECS: dict[str, dict[str, str]] = {
    "tournament": {
        "name": STR, "start_date": DATE, "end_date": DATE, "venue": STR, "rules_preset": STR,
        "rules_options": JSON, "format": STR, "system": STR, "rounds": INT, "status": STR,
        "public": BOOL, "rated": BOOL, "result_only_tables": BOOL, "points_win": INT,
        "points_draw": INT, "points_loss": INT,
        "tie_breaks": JSON, "bye_result": STR, "club_avoidance": STR, "club_strict_until": INT,
        "individual_federation": BOOL, "first_round": STR, "yellow_card_points": INT,
        "red_card_points": INT,
        "created_at": DATETIME, "efectividad": STR, "forfeit_win_percent": INT,
        "forfeit_loss_percent": INT, "bye_percent": INT, "seed_by_rating": BOOL,
        "round_minutes": INT_NULL, "acceleration": STR, "prize_priority": STR, "prize_ties": STR,
        "club_best": INT,
    },
    "clubs": {"name": STR, "city": STR},
    "players": {
        "last_name": STR, "first_name": STR, "club": ref("clubs"), "rating": INT_NULL,
        "federation_id": STR, "sex": STR, "birth_year": INT_NULL,
    },
    "entries": {
        "name": STR, "club": ref("clubs"), "seed": INT_NULL, "status": STR, "joins_round": INT,
        "team": ref("entries"),
    },
    "absences": {"entry": ref("entries", True), "round_number": INT, "reason": STR},
    "substitutes": {
        "entry": ref("entries", True), "replaced": ref("players", True),
        "player": ref("players", True), "from_round": INT, "to_round": INT_NULL, "reason": STR,
        "created_by": USER, "created_at": DATETIME,
    },
    # a stage; its ``seeds`` (entry ids, best first) and its groups' ``members`` (lists of entry
    # ids) are read as lists beside the fields
    "stages": {
        "number": INT, "kind": STR, "qualifiers": INT, "best_of": INT, "third_place": BOOL,
        "carry_over": STR, "started_at": DATETIME_NULL, "started_by": USER, "groups": INT,
        "seeding": STR, "per_group": INT,
    },
    "rounds": {
        "number": INT, "stage": ref("stages"), "status": STR, "task_id": STR, "error": STR,
        "progress": INT,
        "step": STR, "notes": JSON, "requested_by": USER, "created_at": DATETIME,
        "pairing_started_at": DATETIME_NULL, "paired_at": DATETIME_NULL,
        "published_at": DATETIME_NULL, "finished_at": DATETIME_NULL,
        "clock_minutes": INT_NULL, "clock_extra_minutes": INT, "clock_started_at": DATETIME_NULL,
        "clock_paused_at": DATETIME_NULL, "clock_paused_seconds": INT,
    },
    "pairings": {
        "round": ref("rounds", True), "table": INT_NULL, **dict.fromkeys(SEATS, ref("players")),
        "referee": USER, "flags": JSON, "locked": BOOL, "match": ref("matches"),
    },
    "places": {"entry": ref("entries", True), "side": STR, "position": INT},
    "matches": {
        "label": STR, "table": STR, **dict.fromkeys(SEATS, ref("players")),
        "rules_preset": STR, "rules_options": JSON, "rules": JSON, "referee": USER,
        "status": STR, "version": INT, "totals": JSON, "finished": BOOL, "end": STR,
        "winner": STR, "unclaimed_eggs": INT, "next_leader": STR, "pin_failures": INT,
        "result_only": BOOL, "outcome": JSON,
        "pin_set_by": USER, "created_by": USER, "created_at": DATETIME, "updated_at": DATETIME,
        "submitted_by": USER, "submitted_at": DATETIME_NULL, "confirmed_by": USER,
        "confirmed_with_pin": BOOL, "confirmed_at": DATETIME_NULL,
        "clock_ends_at": DATETIME_NULL, "clock_paused_left": INT_NULL,
    },
    "deals": {
        "n": INT, "record": JSON, "verdict": JSON, "client_id": UUID, "match_version": INT,
        "created_by": USER, "created_at": DATETIME, "time_up_by_clock": BOOL,
    },
    "history": {
        "version": INT, "action": STR, "user": USER, "at": DATETIME, "reason": STR,
        "before": JSON, "after": JSON, "protocol": JSON, "confirmed": BOOL,
    },
    "sanctions": {
        "entry": ref("entries", True), "player": ref("players"), "round_number": INT, "kind": STR,
        "match_points": INT, "game_points": INT, "pairing": ref("pairings"), "reason": STR,
        "created_by": USER, "created_at": DATETIME, "revoked_at": DATETIME_NULL,
        "revoked_by": USER, "revoke_reason": STR,
    },
    # a category's ``entries`` (chosen by the organiser) are read as a list beside the fields;
    # a prize's ``amount`` is a decimal as text ("700.00")
    "categories": {
        "name": STR, "order": INT, "sex": STR, "age_min": INT_NULL, "age_max": INT_NULL,
        "age_on": DATE, "rating_min": INT_NULL, "rating_max": INT_NULL, "club": ref("clubs"),
        "members": STR,
    },
    "prizes": {"category": ref("categories"), "place": INT, "amount": STR, "text": STR},
    "standings": {
        "round": ref("rounds", True), "entry": ref("entries", True), "scope": STR, "rank": INT,
        "match_points": INT, "metrics": JSON,
    },
}  # fmt: skip


#: the top-level lists, in the order they are read (a reference points to an earlier list,
#: or to its own for entries' teams, or from pairings to matches)
SECTIONS = ("clubs", "players", "entries", "absences", "substitutes", "stages", "rounds", "matches",
            "pairings", "sanctions", "standings", "categories", "prizes")  # fmt: skip
#: lists added after version 1 was published: an archive written before them has none
OPTIONAL_SECTIONS = ("substitutes", "stages", "categories", "prizes")


CHOICES: dict[tuple[str, str], Iterable[str]] = {
    ("tournament", "format"): Tournament.Format.values,
    ("tournament", "system"): Tournament.System.values,
    ("tournament", "status"): Tournament.Status.values,
    ("tournament", "bye_result"): Tournament.ByeResult.values,
    ("tournament", "first_round"): Tournament.FirstRound.values,
    ("tournament", "acceleration"): Tournament.Acceleration.values,
    ("tournament", "club_avoidance"): Tournament.ClubAvoidance.values,
    ("tournament", "efectividad"): ("capped", "plain"),
    ("tournament", "prize_priority"): ("overall", "category"),
    ("tournament", "prize_ties"): ("tiebreak", "split"),
    ("players", "sex"): ("", "f", "m"),
    ("categories", "sex"): ("", "f", "m"),
    ("categories", "members"): Category.Members.values,
    ("entries", "status"): Entry.Status.values,
    ("rounds", "status"): Round.Status.values,
    ("stages", "kind"): Stage.Kind.values,
    ("stages", "carry_over"): Stage.CarryOver.values,
    ("stages", "seeding"): Stage.Seeding.values,
    ("places", "side"): PairingEntry.Side.values,
    ("matches", "status"): Match.Status.values,
    ("history", "action"): MatchVersion.Action.values,
    ("sanctions", "kind"): Sanction.Kind.values,
    ("standings", "scope"): Standing.Scope.values,
}


def upgrade_settings(settings: dict[str, Any]) -> dict[str, Any]:
    """The tournament settings of an archive written before the club avoidance modes: the old
    ``avoid_same_club_until`` K (same-club opponents avoided before score in rounds 1…K, never
    after; 0: never) is strict up to round K and off afterwards, as migration 0007 maps it; and
    no federation seating."""
    if "avoid_same_club_until" not in settings or "club_avoidance" in settings:
        return settings
    upgraded = {key: value for key, value in settings.items() if key != "avoid_same_club_until"}
    upgraded.update(club_avoidance=Tournament.ClubAvoidance.OFF.value,
                    club_strict_until=settings["avoid_same_club_until"])  # fmt: skip
    upgraded.setdefault("individual_federation", False)
    return upgraded


def column(name: str, kind: str) -> str:
    return f"{name}_id" if kind == USER or kind.startswith("ref:") else name
