"""One judge class per club game (RULES.md sections 27–30); ``JUDGES`` maps a preset to it."""

from __future__ import annotations

from ..judge import ClubJudge
from .chechevo import ChechevoJudge
from .dvorovoe import DvorovoeJudge
from .general import GeneralJudge
from .kozel_morskoy import KozelMorskoyJudge
from .osel import OselJudge
from .semerka import SemerkaJudge

JUDGES: dict[str, type[ClubJudge]] = {
    "chechevo": ChechevoJudge,
    "dvorovoe": DvorovoeJudge,
    "general": GeneralJudge,
    "kozel_morskoy": KozelMorskoyJudge,
    "osel": OselJudge,
    "semerka": SemerkaJudge,
}
